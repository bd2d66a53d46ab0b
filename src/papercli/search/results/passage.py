"""Where a snippet's passage starts and ends: the stretch of at most so many terminal
cells that holds the most matches, starting at a word or a clause.

In: a text and the spans of its matches. Out: the passage's start and end (``window``),
and the cells a piece of text takes (``cells``).
"""

from __future__ import annotations

import itertools

from ...text import CJK_RE


def cells(text: str, begin: int, end: int) -> int:
    """About the terminal cells of ``text[begin:end]``, where a Chinese character takes two.

    Estimated from the UTF-8 length, which costs nothing: ASCII is one byte a cell, Chinese
    three bytes for two cells. (A regular expression for the wide characters takes ~5 ms to
    compile, a search's whole query time; the exact widths are the table layout's job.)"""
    if text.isascii():  # (a flag of the string: no scan)
        return end - begin
    piece = text[begin:end]
    return (len(piece) + len(piece.encode("utf-8", "surrogatepass"))) // 2


def _reach(text: str, begin: int, maxcells: int) -> int:
    """The furthest end such that ``text[begin:end]`` takes at most *maxcells* cells."""
    end = min(len(text), begin + maxcells)
    if text.isascii():
        return end
    while (excess := cells(text, begin, end) - maxcells) > 0:
        end -= (excess + 1) // 2  # each character removed frees one or two cells
    return end


CLAUSE_ENDS = frozenset("，。、；：！？）】》」』”’…—),;:!?")  # a passage may start after these
OPENING = frozenset("（【《「『“‘(")  # and at these


def _clause_start(text: str, i: int) -> bool:
    """Whether a passage may start at *i*: at the text's start, after a space or a mark
    that ends a clause (，。、）…), or at an opening bracket or quote. Chinese has no
    spaces between words: a passage that starts anywhere else may start mid-word (化器状态
    for 优化器状态)."""
    if i == 0 or text[i - 1].isspace() or text[i - 1] in CLAUSE_ENDS:
        return True
    return i < len(text) and text[i] in OPENING


def _context_start(text: str, best: int, maxcells: int) -> int:
    """Where a passage showing the match at *best* starts: some context before it, back to
    the nearest place a passage may start at least a third of the budget before the match
    and at most half of it; else the furthest such place within half; else the match.

    English text (ASCII before the match: a cell a character) looks back from the third
    for the nearest such place, then forward, a few characters in all: a regular
    expression over the whole half took 6 of a piped hit's ~90 µs. (``_clause_start`` is
    written out in the loops: called, it was half of this function's time.)"""
    third, half = maxcells // 3, maxcells // 2
    lo = max(0, best - half)
    if not text.isascii() and not text[lo:best].isascii():
        return _context_start_slowly(text, best, maxcells)
    near = best - third  # the places at or before this leave a third of context or more
    for i in range(min(near, best), lo - 1, -1):  # (0, when reached, is a place)
        if i == 0:
            return 0
        before = text[i - 1]
        if before.isspace() or before in CLAUSE_ENDS or text[i] in OPENING:
            return i
    for i in range(max(near + 1, lo), best + 1):
        if i == 0:
            return 0
        before = text[i - 1]
        if before.isspace() or before in CLAUSE_ENDS or text[i] in OPENING:
            return i
    return best


def _context_start_slowly(text: str, best: int, maxcells: int) -> int:
    """``_context_start``, a character at a time (Chinese takes two cells)."""
    begin, cells = best, 0
    for i in range(best, -1, -1):
        if _clause_start(text, i):
            begin = i
            if cells >= maxcells // 3:
                break
        if i == 0:
            break
        cells += 2 if ord(text[i - 1]) >= 0x0800 else 1
        if cells > maxcells // 2:
            break
    return begin


def in_word(ch: str) -> bool:
    return (ch.isalnum() or ch in "-_") and not CJK_RE.match(ch)


_ASCII_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"  # (in_word)


def _joined(text: str, i: int) -> bool:
    """Whether *i* falls inside a word or a number: between two word characters, or in
    a number's decimal point or percent sign (2|.7, 2.|7, 2.7|%)."""
    a, b = text[i - 1], text[i]
    if in_word(a) and in_word(b):
        return True
    if a.isdigit() and b in ".%":
        return b == "%" or (i + 1 < len(text) and text[i + 1].isdigit())
    return a == "." and b.isdigit() and i >= 2 and text[i - 2].isdigit()


def _densest(text: str, spans: list[tuple[int, int]], maxcells: int) -> int:
    """The start of the span from which *maxcells* cells hold the most whole spans (the
    first such; the first span when none fits)."""
    best, best_count = spans[0][0], 0
    first, previous = 0, None  # (spans are sorted: those from *start* on begin at *first*)
    for j, (start, _end) in enumerate(spans):
        if start != previous:
            first, previous = j, start
        reach = _reach(text, start, maxcells)
        count = 0
        for s, e in itertools.islice(spans, first, None):
            if s > reach:
                break
            if e <= reach:
                count += 1
        if count > best_count:
            best, best_count = start, count
    return best


def window(text: str, spans: list[tuple[int, int]], maxcells: int) -> tuple[int, int]:
    """The stretch of at most *maxcells* terminal cells holding the most matches, starting
    at a word or clause and not ending inside a Latin word."""
    best = _densest(text, spans, maxcells) if len(spans) > 1 else spans[0][0]
    begin = _context_start(text, best, maxcells)
    end = _reach(text, begin, maxcells)
    ascii = text.isascii()
    if end < len(text) and not ascii and CJK_RE.match(text, end - 1):
        # Chinese: end after the last clause mark of the passage's last quarter, if any
        stop = max(text.rfind(mark, begin, end) for mark in "，。；！？")
        if stop > 0 and cells(text, stop, end) <= maxcells // 4:
            end = stop + 1
    if end < len(text) and _joined(text, end):
        # a Latin word (Newton-Schulz) or a number (2.7%, Qwen2.5) is not cut, unless it
        # holds the match: then the budget cuts it (a walk that did not stop at the match
        # went past the text's start). "提升 2" for "提升 2.7%" misstates the result.
        if ascii:
            cut = best + len(text[best:end].rstrip(_ASCII_WORD + ".%"))
        else:
            cut = end
            while cut > best and (in_word(text[cut - 1]) or text[cut - 1] in ".%"):
                cut -= 1
        end = cut if cut > best else end
    return begin, max(end, best + 1)
