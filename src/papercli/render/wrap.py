"""Filling table cells: lines of at most a given number of terminal cells.

Rich wraps only at spaces, so a Chinese run is one unbreakable "word": lines break next to
every embedded Latin word and leave ragged short lines. Here a line may break wherever
Unicode line breaking (UAX #14, as ICU implements it, with its rules for Chinese) allows:
between any two Chinese characters, but never before closing punctuation (，。）) nor
after opening punctuation (（“), and at spaces and after hyphens in Latin text.

Some things are never broken inside: ids, tags and citation keys are laid out as items
(``items``) that only break between each other.

In: a ``rich.text.Text`` (styles kept) and a width in cells (a Chinese character takes
two). Out: the lines, each a ``Text`` of at most that width.
"""

from __future__ import annotations

from rich.cells import cell_len, chop_cells
from rich.text import Text


def break_offsets(text: str) -> list[int]:
    """The offsets in *text* where a line may end (the last one is ``len(text)``)."""
    from icu4py.breakers import LineBreaker  # (12 ms to import: terminal output only)

    return [end for _start, end in LineBreaker(text, "zh").segments()]


def wrap(text: Text, width: int) -> list[Text]:
    """*text* broken into lines of at most *width* cells; a newline always breaks."""
    width = max(1, width)
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        lines += _fill(paragraph, width)
    return lines


def _fill(text: Text, width: int) -> list[Text]:
    plain = text.plain
    if cell_len(plain) <= width:
        return [text]
    cuts: list[int] = []
    used = 0  # cells on the current line, trailing spaces included
    start = 0
    for end in break_offsets(plain):
        piece = plain[start:end]
        if used + cell_len(piece.rstrip()) > width and used:
            cuts.append(start)  # the piece goes to a new line
            used = 0
        while cell_len(piece.rstrip()) > width:  # longer than a line: fold it
            head = chop_cells(piece, width)[0]
            start += len(head)
            cuts.append(start)
            piece = piece[len(head) :]
        used += cell_len(piece)
        start = end
    lines = list(text.divide(cuts))
    for line in lines:
        line.rstrip()
    return lines


def items(pieces: list[Text], width: int, separator: str = ", ") -> list[Text]:
    """*pieces* joined by *separator*, breaking only between pieces: an id or a tag is never
    cut (a piece wider than a whole line is wrapped on lines of its own)."""
    tail = separator.rstrip()  # "," ends a line; the space after it does not
    gap = separator[len(tail) :]
    lines: list[Text] = []
    line = Text()
    for i, piece in enumerate(pieces):
        token = piece + tail if i < len(pieces) - 1 else piece
        if line.plain and cell_len(line.plain) + cell_len(gap + token.plain) <= width:
            line.append(gap)
            line.append_text(token)
            continue
        if line.plain:
            lines.append(line)
        *full, line = wrap(token, width)
        lines += full
    return [*lines, line]


def fold(text: str, width: int) -> list[str]:
    """*text* (one line) in lines of at most *width* cells, broken only after a space or
    next to a Chinese character: a path, link or id is never cut (one wider than a line
    stands alone on its line, for the terminal to fold as it would)."""
    from unicodedata import east_asian_width

    def wide(ch: str) -> bool:
        return east_asian_width(ch) in "WF"

    ends = sorted(
        {end for end in break_offsets(text) if wide(text[end - 1]) or wide(text[end:][:1] or "a")}
        | {i for i in range(1, len(text) + 1) if text[i - 1].isspace() and text[i:][:1] != " "}
        | {len(text)}
    )
    lines, line, start = [], "", 0
    for end in ends:
        piece, start = text[start:end], end
        if line and cell_len((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += piece
    return [*lines, line.rstrip()]
