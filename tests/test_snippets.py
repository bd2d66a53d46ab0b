"""Snippets show why a paper matched, in English and in Chinese."""

from __future__ import annotations

from papercli.snippets import MARK_END, MARK_START, mark, plain, segments, snippet


def shown(marked):
    return marked.replace(MARK_START, "[").replace(MARK_END, "]")


def test_english_matches_are_marked_in_their_written_form():
    text = "Recent optimizers like Muon, Scion, and Gluon have pushed the frontier."
    assert shown(mark(text, frozenset({"optim", "muon"}))) == (
        "Recent [optimizers] like [Muon], Scion, and Gluon have pushed the frontier."
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


def test_no_match_gives_no_snippet():
    assert mark("nothing here", frozenset({"muon"})) is None
    assert snippet({"abstract": "nothing here", "summary_zh": None}, frozenset({"muon"})) is None


def test_snippet_prefers_the_abstract_and_is_bounded():
    data = {
        "abstract": "word " * 200 + "Muon is here. " + "word " * 200,
        "summary_zh": "Muon 优化器",
    }
    marked = snippet(data, frozenset({"muon"}), maxchars=80)
    assert "[Muon]" in shown(marked) and len(plain(marked)) <= 100


def test_segments_and_plain():
    marked = f"a {MARK_START}b{MARK_END} c"
    assert segments(marked) == [("a ", False), ("b", True), (" c", False)]
    assert plain(marked) == "a b c"
