"""Filling table cells: Chinese breaks between characters (never before closing or after
opening punctuation), Latin at spaces, ids and tags never."""

from __future__ import annotations

import itertools

import pytest
from rich.cells import cell_len
from rich.text import Text

from papercli.render.wrap import break_offsets, items, wrap

CLOSING = "，。、：；！？）」』】》”’,.;:!?)"
OPENING = "（「『【《“‘("


def texts(digest, abstracts):
    out = [e.summary_zh for e in digest.entries if e.summary_zh]
    return out + [e.abstract for e in abstracts.entries if e.abstract][:8]


@pytest.mark.parametrize("width", [7, 20, 31, 47, 81])
def test_lines_are_full_and_break_only_where_allowed(digest, abstracts, width):
    for text in texts(digest, abstracts):
        lines = [line.plain for line in wrap(Text(text), width)]
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
        ends = break_offsets(text)
        allowed, units = set(ends), dict(zip(ends, [0, *ends], strict=False))  # end -> start
        at = 0
        for line, following in itertools.pairwise(lines):
            assert cell_len(line) <= width
            at = text.index(following, at + len(line))  # where the next line starts
            if at not in allowed:  # only inside a unit wider than a whole line
                unit_end = min(b for b in allowed if b > at)
                assert cell_len(text[units[unit_end] : unit_end].rstrip()) > width
                continue
            assert following[0] not in CLOSING and line[-1] not in OPENING, (line, following)
            first = following[: break_offsets(following)[0]].rstrip()
            if cell_len(first) <= width:  # the next line's first unit did not fit on this one
                assert cell_len(line) + 1 + cell_len(first) > width, (line, following)


def test_chinese_breaks_between_characters_not_only_at_spaces():
    text = "首次为实际使用的 Muon 优化器（使用 Newton-Schulz 近似而非精确 SVD 极坐标分解）提供非凸收敛保证"
    assert [line.plain for line in wrap(Text(text), 31)] == [
        "首次为实际使用的 Muon 优化器",
        "（使用 Newton-Schulz 近似而非精",
        "确 SVD 极坐标分解）提供非凸收敛",
        "保证",
    ]


def test_styles_survive_wrapping():
    text = Text("联邦学习框架通过融合数据")
    text.stylize("bold", 0, 4)
    first, second, third = wrap(text, 8)
    assert (first.plain, second.plain, third.plain) == ("联邦学习", "框架通过", "融合数据")
    assert [(s.start, s.end, s.style) for s in first.spans] == [(0, 4, "bold")]


def test_items_break_only_between_items():
    tags = ["adam", "convergence-theory", "muon", "neural-combinatorial-optimization"]
    lines = [line.plain for line in items([Text(t) for t in tags], 25)]
    assert lines == ["adam, convergence-theory,", "muon,", "neural-combinatorial-", "optimization"]
    ids = ["iclr2026-convergence-analysis-adaptive-optimizers-under"]
    assert [line.plain for line in items([Text(i) for i in ids], 60)] == ids


def test_newlines_always_break():
    assert [line.plain for line in wrap(Text("a\n\nb"), 10)] == ["a", "", "b"]
