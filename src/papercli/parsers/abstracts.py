"""Abstract lists: a header naming venue and year, then English abstracts separated by blank lines.

    ICLR 2026 论文列表

    Learning population dynamics involves … (one paragraph, possibly wrapped over lines)

    Modern language models generate …

Abstracts usually come without titles. A paragraph whose first line reads like a title
(short, title case, no final full stop) followed by prose is taken as title + abstract.
"""

from __future__ import annotations

import re

from ..text import collapse_ws, shorten, strip_decoration
from ..venues import find_venue_years
from . import shortname
from .base import ENTRY_RE, URL_RE, Document, Entry

NAME = "abstracts"
DESCRIPTION = "abstract list"

_LIST_WORDS_RE = re.compile(r"论文|列表|paper|abstract|accepted|proceedings", re.IGNORECASE)
_MIN_WORDS = 25  # an abstract is prose; a shorter paragraph is reported, not guessed at
_SENTENCE_END = tuple(".!?)\"”'")


def _paragraphs(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(1-based first line, lines) of every blank-line-separated block."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            if not current:
                blocks.append((number, current))
            current.append(line)
        else:
            current = []
    return blocks


def _is_header(text: str) -> bool:
    text = strip_decoration(text)
    return 0 < len(text) <= 120 and bool(find_venue_years(text) or _LIST_WORDS_RE.search(text))


def sniff(lines: list[str]) -> bool:
    """A short header line, then at least one paragraph of prose, and no ``- title`` entries."""
    blocks = _paragraphs(lines)
    if len(blocks) < 2 or any(ENTRY_RE.match(line) for line in lines):
        return False
    header_lines = blocks[0][1]
    if not _is_header(header_lines[0]):
        return False
    body = blocks[1][1] if len(header_lines) == 1 else header_lines[1:]
    return len(" ".join(body).split()) >= _MIN_WORDS


def _looks_like_title(line: str) -> bool:
    words = re.findall(r"[A-Za-z][\w'-]*", line)
    if not 2 <= len(words) <= 30 or line.rstrip().endswith((".", ",", ";")):
        return False
    long_words = [w for w in words if len(w) >= 4]
    capitalised = [w for w in long_words if w[0].isupper()]
    return bool(long_words) and len(capitalised) / len(long_words) >= 0.7


def parse(lines: list[str]) -> Document:
    doc = Document(format=NAME)
    blocks = _paragraphs(lines)
    header_line, header_block = blocks[0]
    header = strip_decoration(header_block[0])
    pairs = find_venue_years(header)
    if pairs:
        doc.venue, doc.year = pairs[0]
    else:
        doc.warn(
            header_line,
            f"header names no venue and year: {shorten(header, 60)!r}; its papers have none",
        )
    if len(header_block) > 1:  # abstract glued to the header without a blank line
        blocks[0] = (header_line + 1, header_block[1:])
    else:
        blocks = blocks[1:]
    for index, (number, block) in enumerate(blocks):
        if len(block) == 1 and len(block[0]) <= 120 and _is_header(block[0]):
            pairs = find_venue_years(strip_decoration(block[0]))
            if pairs and pairs[0] != (doc.venue, doc.year):
                doc.foreign = (number, f"another list ({pairs[0][0]} {pairs[0][1]})")
                return doc
            doc.warn(number, "the header is repeated here (a next page?); ignored")
            continue
        title = None
        if len(block) > 1 and _looks_like_title(block[0]):
            title, block = collapse_ws(block[0]), block[1:]
        text = collapse_ws(" ".join(block))
        last = index == len(blocks) - 1
        if len(text.split()) < _MIN_WORDS and title is None:
            doc.warn(number, f"paragraph too short for an abstract, ignored: {shorten(text, 60)!r}")
            continue
        if last and not text.endswith(_SENTENCE_END):
            doc.warn(number, "last abstract stops mid-sentence: document cut short? skipped")
            continue
        doc.entries.append(
            Entry(
                line=number,
                title=title,
                short_name=(title and shortname.from_title(title)) or shortname.from_abstract(text),
                abstract=text,
                urls=URL_RE.findall(text),
                venue=doc.venue,
                year=doc.year,
            )
        )
    return doc
