"""What a refused document nearly is, said in the refusal: a list of titles, or
``Title:`` / ``Abstract:`` blocks.

A hint is given only when it is checked: the document with the hint's change made (the
numbers marked ``- ``, the labels dropped and a header added) is read by the format the
hint names, with the same papers. Anything else gets no hint: the refusal names every
format rather than guess.
"""

from __future__ import annotations

import re

from . import abstracts, digest
from .base import ENTRY_RE

# 1. Title, 1) Title, 1、标题, [1] Title, (1) Title
_NUMBERED_RE = re.compile(
    r"^[ \t]*(?:\d{1,4}[.)][ \t]+|\d{1,4}[、．][ \t]*|[\[(（]\d{1,4}[\])）][ \t]*)(\S.*)$"
)
_LABEL_RE = re.compile(r"^[ \t]*(title|abstract)[ \t]*[:：][ \t]*(\S.*)$", re.IGNORECASE)
_ANY_LABEL_RE = re.compile(r"^[ \t]*[A-Za-z][A-Za-z ]{0,20}[:：]")
_HEADER = "ICLR 2026"  # any venue and year: what a header line needs

NUMBERED = "numbered titles: a digest page marks each title '- '"
TITLES_ALONE = "titles alone: a digest page has a Chinese summary under each '- title'"
LABELLED = "Title:/Abstract: blocks: an abstract list has a venue and year line first, no labels"


def hint(lines: list[str]) -> str | None:
    """What the document lacks to be read, when a simple change is checked to suffice."""
    return _list_of_titles(lines) or _labelled(lines)


def _list_of_titles(lines: list[str]) -> str | None:
    """Numbered titles that read as a digest once marked ``- ``; or titles (numbered or
    ``- ``) with nothing under any, that read as one with a summary under each."""
    numbered = [i for i, line in enumerate(lines) if _NUMBERED_RE.match(line)]
    bulleted = [i for i, line in enumerate(lines) if ENTRY_RE.match(line)]
    items = numbered if len(numbered) >= 2 and not bulleted else bulleted
    if len(items) < (2 if items is numbered else 1):
        return None
    titles = [_title(lines[i]) for i in items]
    marked = list(lines)
    for i, title in zip(items, titles, strict=True):
        marked[i] = f"- {title}"
    if items is numbered and _read_as_digest(marked, titles):
        return NUMBERED
    taken = set(items)
    if any(line.strip() for i, line in enumerate(lines) if i > items[0] and i not in taken):
        return None  # text under a title: what it is meant to be is not known
    with_summaries = [*lines[: items[0]]] + [x for t in titles for x in (f"- {t}", "概要。")]
    return TITLES_ALONE if _read_as_digest(with_summaries, titles) else None


def _title(line: str) -> str:
    m = _NUMBERED_RE.match(line) or ENTRY_RE.match(line)
    return m.group(1).strip()


def _read_as_digest(lines: list[str], titles: list[str]) -> bool:
    if not digest.sniff(lines):
        return False
    doc = digest.parse(lines)
    return doc.foreign is None and [e.title for e in doc.entries] == titles


def _labelled(lines: list[str]) -> str | None:
    """Blocks of a ``Title:`` line, an ``Abstract:`` line and the abstract's further lines,
    after at most one header line: read as an abstract list once the labels go and a
    header line comes first."""
    labels = [i for i, line in enumerate(lines) if _LABEL_RE.match(line)]
    before = [line for line in lines[: labels[0]] if line.strip()] if labels else []
    if not labels or len(before) > 1:
        return None
    titles = []
    for _, block in abstracts._paragraphs(lines[labels[0] :]):
        kinds = [m.group(1).lower() if (m := _LABEL_RE.match(line)) else None for line in block]
        if kinds[:2] != ["title", "abstract"] or any(_ANY_LABEL_RE.match(x) for x in block[2:]):
            return None
        titles.append(_LABEL_RE.match(block[0]).group(2).strip())
    plain = [m.group(2) if (m := _LABEL_RE.match(line)) else line for line in lines[labels[0] :]]
    head = before if before and abstracts._is_header(before[0]) else [_HEADER]
    if before and head is not before:
        return None  # a first line that is not a header: what it is meant to be is not known
    candidate = [*head, "", *plain]
    if not abstracts.sniff(candidate):
        return None
    doc = abstracts.parse(candidate)
    return LABELLED if not doc.foreign and [e.title for e in doc.entries] == titles else None
