"""What ``papers add`` says: each paper's line or lines (stdout), the candidates of a title
it could not decide (a numbered list to choose from on a terminal, tab-separated lines on a
pipe), and a summary (stderr). Every text from a service is shown inert: control characters visible,
never markup (nothing here goes through Rich).
"""

from __future__ import annotations

import textwrap

from ..text import fit_cells, terminal_safe
from .lookup import Candidate
from .resolve import Unsure
from .write import Outcome

SAID = {"new": "added", "merged": "merged", "unchanged": "unchanged"}
AUTHORS_SHOWN = 3


def _safe(text: object) -> str:
    return terminal_safe(str(text)).replace("\t", " ").replace("\n", " ")


def _venue(venue: str | None, year: int | None) -> str:
    return " ".join(str(v) for v in (venue, year) if v) or "no venue"


def _authors(authors: list[str]) -> str:
    if not authors:
        return "authors unknown"
    shown = ", ".join(authors[:AUTHORS_SHOWN])
    return shown + (f" and {len(authors) - AUTHORS_SHOWN} more" if len(authors) > 3 else "")


def outcome_lines(outcome: Outcome, width: int | None = None) -> list[str]:
    """Piped (no *width*): one tab-separated line, action, id, venue, year, title. On a
    terminal *width* columns wide: ``added  ID``, then the title and what came of it,
    wrapped at spaces and indented under the id."""
    record = outcome.record
    action = SAID[outcome.action]
    if width is None:
        cells = [action, record.id, record.venue or "", record.year or "", record.label]
        return ["\t".join(_safe(c) for c in cells)]
    notes = [_venue(record.venue, record.year)]
    if outcome.status:
        notes.append(_safe(outcome.status))
    if outcome.action == "new":
        notes.append("from " + ", ".join(outcome.sources))
    if outcome.filled:
        notes.append("filled " + ", ".join(outcome.filled))
    if outcome.conflicts:
        n = outcome.conflicts
        notes.append(f"{n} differing value{'s' * (n != 1)} kept as conflict{'s' * (n != 1)}")
    indent = " " * (len(action) + 2)
    text = f"{_safe(record.label)} ({'; '.join(notes)})"
    wrapped = textwrap.wrap(
        text, max(width - 1, 40), initial_indent=indent, subsequent_indent=indent
    )
    return [f"{action}  {record.id}", *wrapped]


def summary(outcomes: list[Outcome], dry_run: bool, left_out: int = 0) -> str:
    """``3 papers: 1 added, 2 merged``, with the titles left out and a dry run said."""
    counts = {a: sum(o.action == a for o in outcomes) for a in SAID}
    n = len(outcomes)
    said = ", ".join(f"{counts[a]} {SAID[a]}" for a in SAID if counts[a])
    head = f"{n} paper{'s' * (n != 1)}: {said}" if n else "nothing added"
    tail = f"; {left_out} left out" if left_out else ""
    dry = " (dry run: nothing written)" if dry_run else ""
    return f"{head}{tail}{dry}"


def candidate_rows(unsure: Unsure) -> list[str]:
    """The candidates as a pipe shows them: item, number, score, sources, venue, year,
    title, authors, link."""
    rows = []
    for n, c in enumerate(unsure.candidates, 1):
        s = c.summary()
        cells = [
            unsure.item.given,
            n,
            f"{s['score']:.3f}",
            ",".join(s["sources"]),
            s["venue"] or "",
            s["year"] or "",
            s["title"] or "",
            "; ".join(s["authors"]),
            s["link"] or "",
        ]
        rows.append("\t".join(_safe(c) for c in cells))
    return rows


def candidate_list(unsure: Unsure, width: int) -> list[str]:
    """The candidates as a terminal lists them to choose from, each line within *width*."""
    lines = [fit_cells(f"{_safe(unsure.item.given)!r} could be any of these papers:", width)]
    for n, c in enumerate(unsure.candidates, 1):
        lines.append(fit_cells(f"  {n}  {_safe(c.title or '(no title)')}", width))
        lines.append(fit_cells(f"     {_details(c)}", width))
    return lines


def _details(c: Candidate) -> str:
    venue, year = c.venue_year
    parts = [_venue(venue, year), "from " + ", ".join(c.sources), _authors(c.authors)]
    return " · ".join(_safe(p) for p in parts)


def unsure_message(unsure: Unsure) -> str:
    n = len(unsure.candidates)
    return (
        f"{_safe(unsure.item.given)!r}: {n} papers could be meant (on standard output); add "
        "one by its id or link, or run papers add on a terminal to choose"
    )
