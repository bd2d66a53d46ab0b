"""The common words of ML texts in both languages (search/concepts/common_words.py): what a query asks for
beside the words typed, and what names the glossary lacks are made of."""

from __future__ import annotations

import re

import pytest

from papercli.search.concepts import common_words as words
from papercli.search.concepts.renderings import renderings
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search
from papercli.search.results.marking import plain
from papercli.store.library import Library


@pytest.fixture(scope="module")
def index(seeded_template):
    return PaperIndex(Library(seeded_template)).open()


def ids(hits):
    return {h.id for h in hits}


def test_each_word_is_a_word_of_its_own_and_no_name_of_the_glossary(index):
    """A word the glossary names is read as the concept before this table is asked (a dead
    entry), a single character stands inside too many words (核 in 核心), and a rendering
    goes into the query as it is written: one plain word."""
    glossary = index.query_glossary()
    for chinese, english in words.WORDS.items():
        assert len(chinese) >= 2, chinese
        whole = [
            cid for start, end, cid in glossary.spans(chinese) if (start, end) == (0, len(chinese))
        ]
        assert not whole, (chinese, whole)
        assert english and all(re.fullmatch(r"[A-Za-z]+", word) for word in english), chinese
        for word in english:  # (and each rendering is read back as its word)
            assert chinese in renderings(word), (chinese, word)


@pytest.mark.parametrize(
    ("typed", "rendered"),
    [
        ("加速", ("acceleration", "accelerate", "speedup")),
        ("accelerating", ("加速",)),
        ("Accelerated", ("加速",)),
        ("speedups", ("加速",)),
        ("estimates", ("估计",)),
        ("estimators", ("估计器",)),  # (a thing, not its verb)
        ("modelling", ("模型", "建模")),  # (spelt the British way)
        ("memory", ("记忆", "内存")),  # (two words in Chinese)
        ("sampling", ("采样",)),  # (as written, though "samples" stems as "sampling" does: 样本)
        ("samples", ("采样", "样本")),
        ("muon", ()),
        ("加速器", ()),
    ],
)
def test_a_word_is_rendered_in_any_of_its_forms(typed, rendered):
    assert renderings(typed) == rendered


def test_spans_are_the_common_words_inside_a_chinese_run():
    assert words.spans("训练加速") == [(0, 2), (2, 4)]
    assert words.spans("数据集") == [(0, 3), (0, 2)]  # (overlapping ones each)
    assert words.spans("加") == [] and words.spans("") == []


@pytest.mark.parametrize(
    "typed",
    [
        "accelerate training",
        "accelerating training",
        "training acceleration",
        "训练加速",
        "加速训练",
    ],
)
def test_a_name_the_glossary_lacks_is_found_in_both_languages_by_its_words(index, typed):
    """No concept names training acceleration. AtteNT says only 加速训练 (in Chinese), the
    paper on Hamiltonian graph networks "Rapid Training" and 150-600 倍加速: "accelerate
    training" found neither (nothing at all), "training acceleration" only a sampler's
    "acceleration" of inference. Each word is now asked for in both languages, in any of
    its forms."""
    hits = search(index, typed)
    assert {"iclr2026-attent", "iclr2026-rf-hgn"} <= ids(hits)
    heads = {h.id: plain(h.snippet).partition(": ")[0] for h in hits}
    if typed.isascii():
        assert "→ 加速" in heads["iclr2026-attent"] and "→ 训练" in heads["iclr2026-attent"]
    assert ids(search(index, typed, exact=True)) < ids(hits)  # (--exact: the words as typed)


def test_a_word_written_solid_is_asked_for_in_both_languages(index):
    """ "data sets" also asks for "datasets", the word written solid, and so for 数据集, as
    "datasets" does: the papers that say only 数据集 are found by both."""
    only_chinese = ids(search(index, "datasets")) - ids(search(index, "datasets", exact=True))
    assert only_chinese == {"iclr2026-deepafl", "iclr2026-rrnco", "iclr2026-rs-ort"}
    assert all("数据集" in index.get(rid).text("summary_zh") for rid in only_chinese)
    assert only_chinese <= ids(search(index, "data sets"))


def test_the_passage_holds_each_word_where_they_stand_together(index):
    """AtteNT's first 训练 stands in 训练过程, far from its only 加速, which 加速训练 writes
    beside another 训练: in a narrow column its passage for "accelerate training" showed
    训练 alone. Each word's place is now the one closest to the others'."""
    from papercli.search.results.marking import MARK_END, MARK_START

    (hit,) = [
        h
        for h in search(index, "accelerate training", snippet_cells=60)
        if h.id == "iclr2026-attent"
    ]
    head, _, passage = hit.snippet.partition(": ")
    assert plain(head) == "accelerate → 加速, training → 训练"
    assert f"{MARK_START}加速训练{MARK_END}" in passage  # (both, marked as one)


def test_each_rendering_is_spelt_the_american_way_as_written():
    """The analyzer takes a rendering as written, without breame's spellings."""
    from papercli.text.variants import american

    for english in words.WORDS.values():
        for word in english:
            assert american(word.lower()) == word.lower(), word


def test_a_chinese_query_rendered_in_english_loads_no_british_spellings(seeded_template):
    """训练加速 is asked for as training, acceleration, accelerate and speedup too: a
    Chinese query loads breame's 1,730 British spellings no more than ``--exact`` does
    (2.6-3.0 ms); an English one still does (the user may spell it the British way)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from papercli.store.library import Library\n"
        "from papercli.search.index.paper_index import PaperIndex\n"
        "from papercli.search.questions.search import search\n"
        "index = PaperIndex(Library(sys.argv[1])).open()\n"
        "hits = search(index, sys.argv[2])\n"
        "print(len(hits), 'breame.spelling' in sys.modules)\n"
    )
    for text, loaded in (("训练加速", "False"), ("联邦学习", "False"), ("optimisation", "True")):
        out = subprocess.run(
            [sys.executable, "-c", code, str(seeded_template), text],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert int(out[0]) > 0 and out[1] == loaded, text
