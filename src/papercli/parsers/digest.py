"""Digest pages: a category page listing paper titles, each with a Chinese summary.

    📐 优化/理论¶                                   category (emoji and ¶ are decoration)
    🔬 ICLR2026 · 45 篇论文解读                      venue, year, declared paper count
    📌 同领域跨会议浏览： 💬 ACL2026 (1) · …          other venues: navigation, not papers
    🔥 高频主题： 推理 ×3 · LLM ×3 · 联邦学习 ×3       hot topics with counts
    - <English title>
    -
    <Chinese summary>

Header lines may come in another order, in English, or be missing; entries may be
separated by blank lines; the ``-`` separator line may be absent, and a page saved with a
blank line after every line reads as the page.
"""

from __future__ import annotations

import re

from ..text import collapse_ws, has_cjk, shorten, strip_decoration
from ..venues import find_venue_years
from . import shortname
from .base import ENTRY_RE, URL_RE, Document, Entry

NAME = "digest"
DESCRIPTION = "digest page"

_SEPARATOR_RE = re.compile(r"^[ \t]*[-•*][ \t]*$")
_COUNT_RE = re.compile(r"(\d[\d,]*)\s*(?:篇|papers?\b|articles?\b)", re.IGNORECASE)
_TOPIC_RE = re.compile(r"([^\s·•|,，:：][^·•|,，:：]*?)\s*[×xX]\s*(\d+)(?=\s*(?:[·•|,，]|$))")
_NAV_ITEM_RE = re.compile(r"\(\d+\)|（\d+）")
_SENTENCE_END = tuple('.。!！?？)）」”"')


def sniff(lines: list[str]) -> bool:
    """A digest has a ``- title`` line whose next line (blank lines aside: a page saved
    with a blank line after each) is a bare ``-``, or is the Chinese summary (a page saved
    without the bare ``-`` lines)."""
    for i, line in enumerate(lines[:-1]):
        if not ENTRY_RE.match(line):
            continue
        after = _next_filled(lines, i + 1)
        if after is not None and (_SEPARATOR_RE.match(lines[after]) or _summary_like(lines[after])):
            return True
    return False


def _next_filled(lines: list[str], i: int, within: int = 3) -> int | None:
    """The first line from *i* on that is not blank, if it is within *within* lines."""
    for k in range(i, min(i + within, len(lines))):
        if lines[k].strip():
            return k
    return None


def _summary_like(line: str) -> bool:
    return not ENTRY_RE.match(line) and has_cjk(line)


def parse(lines: list[str]) -> Document:
    doc = Document(format=NAME)
    first_entry = next((i for i, line in enumerate(lines) if ENTRY_RE.match(line)), len(lines))
    _parse_header(doc, lines[:first_entry])
    if doc.foreign:
        return doc
    _parse_entries(doc, lines, first_entry)
    if doc.venue is None and doc.entries:  # (a page copied without its first lines)
        doc.warn(
            1,
            "no header line names the venue and year (the page's first lines missing?): "
            "its papers are matched to the library by title",
        )
    if doc.declared_count is not None and doc.declared_count != len(doc.entries):
        doc.warn(
            1,
            f"the page declares {doc.declared_count} papers "
            f"but {len(doc.entries)} entries were found",
        )
    return doc


def _parse_header(doc: Document, header: list[str]) -> None:
    for number, raw in enumerate(header, start=1):
        line = strip_decoration(raw)
        if not line:
            continue
        if _is_prose(raw):  # prose before the first entry: an abstract list
            doc.foreign = (number, "an abstract (prose) where a digest page's header belongs")
            return
        pairs = find_venue_years(line)
        topics = _TOPIC_RE.findall(line.split("：", 1)[-1].split(":", 1)[-1])
        if len(_NAV_ITEM_RE.findall(line)) >= 2 or len(pairs) >= 2:
            continue  # navigation to the same category at other venues: not papers
        if topics:
            continue  # the page's hot topics with their counts: a summary, not papers
        elif pairs and doc.venue is None:
            doc.venue, doc.year = pairs[0]
            count = _COUNT_RE.search(line)
            if count:
                doc.declared_count = int(count.group(1).replace(",", ""))
        elif doc.category is None and doc.venue is None and number == 1:
            doc.category = line
        else:
            doc.warn(number, f"header line not understood, ignored: {shorten(line, 60)!r}")


_WORD_RE = re.compile(r"[A-Za-z]{2,}")


def _is_prose(line: str) -> bool:
    """An English paragraph (an abstract), not a title, summary or header line."""
    return len(_WORD_RE.findall(line)) >= 25


def _foreign(line: str) -> str | None:
    """What another document's first line looks like, found between a page's entries."""
    if _is_prose(line):
        return "an abstract (prose, not a digest entry)"
    clean = strip_decoration(line)
    if line.rstrip().endswith("¶") or (find_venue_years(clean) and _COUNT_RE.search(clean)):
        return "another page's header"
    if find_venue_years(clean) and len(clean) <= 120:
        return "another document's header"
    return None


def _parse_entries(doc: Document, lines: list[str], start: int) -> None:
    i, n = start, len(lines)
    last_start = max((k for k in range(start, n) if ENTRY_RE.match(lines[k])), default=-1)
    while i < n:
        line = lines[i]
        m = ENTRY_RE.match(line)
        if not line.strip() or not m:
            foreign = line.strip() and _foreign(line)
            if foreign:
                doc.foreign = (i + 1, foreign)
                return
            if line.strip():
                stray = shorten(collapse_ws(line), 60)
                doc.warn(i + 1, f"text outside any entry, ignored: {stray!r}")
            i += 1
            continue
        entry_line, title = i + 1, collapse_ws(m.group(1))
        i += 1
        after = _next_filled(lines, i)  # (blank lines after the title, and after the -)
        if after is not None and _SEPARATOR_RE.match(lines[after]):
            i = after + 1
            after = _next_filled(lines, i)
        if after is not None and _summary_like(lines[after]):
            i = after
        summary_lines, i = _summary_lines(doc, lines, i)
        if doc.foreign:
            return
        summary = collapse_ws(" ".join(summary_lines)) or None
        _add_entry(doc, entry_line, title, summary, last=entry_line - 1 == last_start)


def _summary_lines(doc: Document, lines: list[str], i: int) -> tuple[list[str], int]:
    """An entry's summary lines from line *i* on, up to a blank line, a separator or the
    next entry; and the line after them. A page glued on without a blank line sets
    ``doc.foreign``."""
    out: list[str] = []
    while i < len(lines) and lines[i].strip() and not ENTRY_RE.match(lines[i]):
        if _SEPARATOR_RE.match(lines[i]):
            break
        if out and _foreign(lines[i]):
            doc.foreign = (i + 1, _foreign(lines[i]))
            break
        out.append(lines[i])
        i += 1
    return out, i


def _add_entry(doc: Document, line: int, title: str, summary: str | None, last: bool) -> None:
    if last and (summary is None or not summary.endswith(_SENTENCE_END)):
        what = "has no summary" if summary is None else "summary stops mid-sentence"
        doc.warn(line, f"last entry {shorten(title, 50)!r} {what}: document cut short? skipped")
        return
    if summary is None:
        doc.warn(line, f"entry {shorten(title, 50)!r} has no summary; kept with its title only")
    doc.entries.append(
        Entry(
            line=line,
            title=title,
            short_name=shortname.from_title(title) or (summary and shortname.from_summary(summary)),
            summary_zh=summary,
            urls=URL_RE.findall(summary or ""),
            categories=[doc.category] if doc.category else [],
            venue=doc.venue,
            year=doc.year,
        )
    )
