"""GitHub-flavoured Markdown: an index table, then a section per paper.

Untrusted text is escaped so it stays text: ``|`` cannot shift table cells, ``*``/``_``/
``[``/``<`` cannot become emphasis, links or HTML, a ``$`` in prose cannot start math.
Math written as ``\\( … \\)`` or ``$ … $`` becomes ``$…$``, which GitHub renders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..store.record import Record
from ..text import collapse_ws
from ..text.latex import latex_to_text, segments_of_math

_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>|$~#!])")


def escape(text: str) -> str:
    """Prose → Markdown that renders as exactly this text."""
    text = collapse_ws(text).replace("&", "&amp;")
    return _MD_SPECIAL_RE.sub(r"\\\1", text)


def inline(text: str, cell: bool = False) -> str:
    """Record text (prose with LaTeX leftovers and math) → one line of Markdown."""
    out = []
    for is_math, body in segments_of_math(text):
        if is_math:
            math = "$" + " ".join(body.split()) + "$"
            out.append(math.replace("|", r"\|") if cell else math)
        else:
            plain = latex_to_text(body) if body.strip() else body
            lead = " " if body[:1].isspace() else ""
            trail = " " if body[-1:].isspace() and plain.strip() else ""
            out.append(lead + escape(plain) + trail)
    return collapse_ws("".join(out))


def _title(record: Record, cell: bool = False) -> str:
    if record.title:
        return inline(record.title, cell)
    return "*" + inline(record.label, cell) + "* (untitled: label derived from the abstract)"


def chunks(records: Iterable[Record]) -> Iterator[str]:
    """The index table, then a section per paper: two passes over *records* (which must
    be iterable twice, as ``export.render`` passes them)."""
    yield f"# Papers ({len(records)})\n\n"
    yield "| Name | Title | Venue | Year | Tags |\n| --- | --- | --- | --- | --- |\n"
    for r in records:
        cells = [
            inline(r.short_name or "", cell=True),
            f"[{_title(r, cell=True)}](#{r.id})",
            inline(r.venue or "", cell=True),
            str(r.year or ""),
            inline(", ".join(r.tags), cell=True),
        ]
        yield "| " + " | ".join(cells) + " |\n"
    for r in records:
        yield "\n".join(_section(r)) + "\n"


def _section(r: Record) -> list[str]:
    lines = ["", f'<a id="{r.id}"></a>', "", f"## {_title(r)}", ""]
    facts = [f"`{r.id}`"]
    if r.authors:
        facts.append(inline("; ".join(r.authors)))
    if r.venue or r.year:
        facts.append(inline(f"{r.venue or ''} {r.year or ''}"))
    if r.tags:
        facts.append("tags: " + inline(", ".join(r.tags)))
    facts += [f"<{u}>" for u in r.urls if re.match(r"^https?://[^\s<>]+$", u)]
    lines.append(" · ".join(facts))
    if r.abstract:
        lines += ["", "**Abstract.** " + inline(r.abstract)]
    if r.summary_zh:
        lines += ["", "**摘要.** " + inline(r.summary_zh)]
    return lines
