"""Snippets show why a paper matched, in English and in Chinese."""

from __future__ import annotations

import pytest

from papercli.search.results.marking import MARK_END, MARK_START, mark, plain, segments
from papercli.search.results.snippets import snippet


def shown(marked):
    return marked.replace(MARK_START, "[").replace(MARK_END, "]")


def test_english_matches_are_marked_in_their_written_form():
    text = "Recent optimizers like Muon, Scion, and Gluon have pushed the frontier."
    assert shown(mark(text, frozenset({"optimizer", "muon"}))) == (
        "Recent [optimizers] like [Muon], Scion, and Gluon have pushed the frontier."
    )
    assert shown(mark(text, frozenset({"optimiz", "muon"}))) == (
        "Recent optimizers like [Muon], Scion, and Gluon have pushed the frontier."
    )


def test_chinese_words_inside_longer_runs_are_marked_whole():
    text = "提出 FedDAG 聚类联邦学习框架，通过融合数据"
    assert shown(mark(text, frozenset({"联邦", "邦学", "学习"}))) == (
        "提出 FedDAG 聚类[联邦学习]框架，通过融合数据"
    )
    assert shown(mark("配合GRPO风格策略", frozenset({"grpo", "风格"}))) == "配合[GRPO风格]策略"


def test_identifier_parts_are_marked_as_one():
    text = "使用 Newton-Schulz 近似"
    assert shown(mark(text, frozenset({"newton", "schulz"}))) == "使用 [Newton-Schulz] 近似"


def test_a_word_found_only_in_the_indexed_spelling_is_marked_as_written():
    """``L1`` matched ``ℓ_1`` (indexed as l1), ``GRPO`` a full-width ``ＧＲＰＯ``, 联邦学习 a
    Traditional 聯邦學習, ``beta`` a ``β``: the passage marks the words as written."""
    text = "Sparse recovery with ℓ_1 minimization, 聯邦學習, ＧＲＰＯ and a β-VAE."
    assert shown(mark(text, frozenset({"l1", "grpo", "联邦", "邦学", "学习", "beta"}))) == (
        "Sparse recovery with [ℓ_1] minimization, [聯邦學習], [ＧＲＰＯ] and a [β]-VAE."
    )
    assert mark("a plain text", frozenset({"l1"})) is None


def test_no_match_gives_no_snippet():
    assert mark("nothing here", frozenset({"muon"})) is None
    assert snippet({"abstract": "nothing here", "summary_zh": None}, frozenset({"muon"})) is None


def test_snippet_prefers_the_abstract_and_is_bounded():
    data = {
        "abstract": "word " * 200 + "Muon is here. " + "word " * 200,
        "summary_zh": "Muon 优化器",
    }
    marked = snippet(data, frozenset({"muon"}), maxcells=80)
    assert "[Muon]" in shown(marked) and len(plain(marked)) <= 100


def test_segments_and_plain():
    marked = f"a {MARK_START}b{MARK_END} c"
    assert segments(marked) == [("a ", False), ("b", True), (" c", False)]
    assert plain(marked) == "a b c"


def _reference_spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Every token of the analyzer's own pattern, stemmed: what the fast finder must equal."""
    from papercli.search.analysis import TOKEN_RE, stem_latin
    from papercli.text import CJK_RE

    spans = [
        (m.start(), m.end())
        for m in TOKEN_RE.finditer(text)
        if not CJK_RE.match(m.group()) and stem_latin(m.group().lower()) in terms
    ]
    for term in (t for t in terms if CJK_RE.match(t)):
        spans += [(i, i + len(term)) for i in range(len(text)) if text.startswith(term, i)]
    return sorted(spans)


def test_the_fast_span_finder_marks_exactly_what_the_analyzer_would(digest, abstracts):
    from papercli.search.analysis import tokens
    from papercli.search.results.marking import _spans

    texts = [
        t
        for doc in (digest, abstracts)
        for e in doc.entries
        for t in (e.title, e.abstract, e.summary_zh)
        if t
    ]
    texts += ["∇-Reasoner and ∇Net", "配合GRPO风格, unlearning learned LEARNING_rate", "ß straße"]
    vocabulary = sorted({t for text in texts for t in tokens(text, mode="query")})
    compared = 0
    for i, text in enumerate(texts):
        # a few terms the text has, some it lacks, and words that share their first letters
        terms = frozenset(vocabulary[(i * 7) % len(vocabulary) :][:5] + tokens(text)[:4])
        terms |= {"learn", "∇", "grpo", "风格", "strass"}
        assert _spans(text, terms) == _reference_spans(text, terms), text[:60]
        compared += 1
    assert compared > 60


def test_a_chinese_passage_starts_at_a_clause_not_mid_word(digest):
    """No spaces in Chinese: a passage starts after a space or a clause mark (，。、（ …),
    or at the match itself, never inside a word (化器状态 for 优化器状态)."""
    clause = " ，。、；：！？（）【】《》「」『』“”‘’…—(),;:!?"
    checked = 0
    for width in (60, 90, 140):
        for entry in digest.entries:
            text = entry.summary_zh or ""
            found = mark(text, frozenset({"优化", "化器", "状态"}), width)
            if found:
                at = text.index(plain(found))
                starts = at == 0 or text[at - 1] in clause or text[at] in "（“"
                assert starts or found.startswith(MARK_START), found
                assert not (text[at - 1] == "（" and at > 0), found  # the bracket is shown
                checked += 1
    assert checked > 30


def test_a_passage_is_measured_in_terminal_cells():
    text = "前文" * 100 + "，联邦学习框架" + "后文" * 100
    found = plain(mark(text, frozenset({"联邦", "学习"}), 40))
    assert found.startswith("联邦学习") or found.startswith("前文")
    assert len(found) <= 20  # 40 cells: 20 Chinese characters


def test_a_word_longer_than_the_passage_is_cut_not_walked_past():
    """An abstract that is one long run of word characters (a hash, a pasted URL without
    its punctuation) with the match inside: the passage ends where the budget does. The
    end used to be moved back a character at a time past the text's start, into negative
    indices, until an IndexError."""
    text = "muon-" + "x" * 300
    assert plain(mark(text, frozenset({"muon"}), 60)) == text[:60]
    text = "abc muon-" + "y" * 300
    assert plain(mark(text, frozenset({"muon"}), 60)) == text[:60]


NUMBERS = [
    ("我们的方法在多个基准上让准确率提升2.7%，并且推理速度提升很多很多很多", "准确率"),
    ("我们的方法在多个基准上让准确率提升 2.7% 并且推理速度提升很多很多很多", "准确率"),
    ("We use Qwen2.5-Math-7B and the accuracy improves by 2.7% over the baseline", "accuracy"),
    ("the accuracy improves by 12.75% over the baseline model", "accuracy"),
]


@pytest.mark.parametrize(("text", "word"), NUMBERS)
def test_a_passage_never_ends_inside_a_number(text, word):
    """ "准确率提升 2" for "准确率提升 2.7%" misstates the result: at any width, a passage
    ends before a number or after all of it (its decimal point and percent sign)."""
    from papercli.search.results.passage import window

    start = text.index(word)
    for cells in range(8, 70):
        begin, end = window(text, [(start, start + len(word))], cells)
        if end == len(text):
            continue
        last, after = text[end - 1], text[end]
        inside = (last.isdigit() and after in ".%0123456789") or (last == "." and after.isdigit())
        assert not inside, (cells, text[begin:end])
