"""What the browser asks of the library: a query's results and whether another command
changed the library since. Plain functions over the open index: no Textual here.

In: the open index, the taxonomy, the filters, the query as typed. Out: ``Results``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import PapersError
from ..search.index.paper_index import PaperIndex
from ..search.questions.filters import Filters
from ..search.results.hits import Hit
from ..tags.taxonomy import Taxonomy

LIMIT = 100  # papers a query lists (one more is asked for, to say there are more)
SNIPPET_CELLS = 200  # the passage a hit's snippet shows (the detail pane's "found through")
# Hits listed with their snippet, the others' made when the detail pane shows them: the
# first is highlighted when listed. (The snippets of 100 hits of 'large language model'
# at 10k papers took 12 ms of a keystroke's search.)
PASSAGES = 1


@dataclass
class Browsing:
    """What one ``papers browse`` works with, made by the command (or a test)."""

    index: PaperIndex
    taxonomy: Taxonomy
    filters: Filters = field(default_factory=Filters)
    passing: bool = True  # list the papers naming a query's concepts only in passing
    limit: int = LIMIT
    folder: Path = field(default_factory=Path.cwd)  # where an export's file name is read from

    @property
    def library(self):
        return self.index.library

    def resolve_tag(self, name: str) -> str | None:
        return self.taxonomy.resolve(name)


@dataclass
class Results:
    hits: list[Hit]
    what: str  # one line: how many, or that none matched
    more: bool = False  # more papers match than are listed
    error: str | None = None  # the query cannot be read (the listing shown stays)
    query: str = ""  # the query its hits were found by ("": listed, not searched)


def find(browsing: Browsing, text: str, stale: Callable[[], bool] = lambda: False):
    """The papers *text* finds, as ``papers search`` ranks them; with no query, the papers
    the filters keep, by title. None when *stale* turns true before the listing is whole
    (a newer query was typed: this one is dropped, never shown)."""
    from ..search.querying.syntax import quoted
    from ..search.questions.listing import list_papers
    from ..search.questions.search import search_stream

    text = text.strip()
    want = browsing.limit + 1
    try:
        if text:
            found = search_stream(
                browsing.index,
                text,
                want,
                browsing.filters,
                SNIPPET_CELLS,
                browsing.resolve_tag,
                passing=browsing.passing,
                passages=PASSAGES,
            )
        else:
            found = list_papers(browsing.index, browsing.filters, want, stream=True)
        hits = []
        for hit in found:
            if stale():
                return None
            hits.append(hit)
    except PapersError as exc:  # (a query the language cannot read; a damaged index)
        return Results([], "", error=str(exc))
    more = len(hits) > browsing.limit
    del hits[browsing.limit :]
    active = browsing.filters.describe()
    within = f" ({active})" if active else ""
    if not hits:
        what = f"no paper matches {quoted(text)}" if text else "no paper to list"
        return Results([], what + within)
    n = f"first {len(hits)}" if more else str(len(hits))
    noun = "paper" if len(hits) == 1 and not more else "papers"
    if text:
        verb = "matches" if noun == "paper" else "match"
        what = f"{n} {noun} {verb} {quoted(text)}"
    else:
        what = f"{n} {noun}"
    more_said = "; refine the query for the rest" if more else ""
    return Results(hits, what + within + more_said, more, query=text)


def passage(browsing: Browsing, found: Results, hit: Hit) -> None:
    """Make the snippet of *hit*, one of *found*'s listed without it (``PASSAGES``)."""
    from ..search.questions.search import passages

    if not hit.pending:
        return
    try:
        passages(
            browsing.index,
            found.query,
            [hit],
            browsing.filters,
            SNIPPET_CELLS,
            browsing.resolve_tag,
        )
    except PapersError:  # (the index cannot be read now: the paper without its passage)
        hit.pending = False


def similar(browsing: Browsing, hit: Hit) -> Results:
    """The papers closest to *hit* (``papers similar``)."""
    from ..search.questions.listing import similar as closest

    _paper, hits = closest(browsing.index, hit.id, browsing.limit)
    if not hits:
        return Results([], f"no paper shares key terms with {hit.id}")
    return Results(hits, f"{len(hits)} papers closest to {hit.id}")


def library_state(browsing: Browsing) -> tuple:
    """What changes when a command writes the library: the ``papers/`` folder (a record
    added, removed or replaced) and the index's state file (rewritten by every commit).
    Two ``stat`` calls: cheap enough to ask every second."""
    index_state = browsing.index.dir / "state.json"
    try:
        committed = os.stat(index_state).st_mtime_ns
    except OSError:
        committed = None
    return (tuple(browsing.library.papers_dir_stamp() or ()), committed)


def catch_up(browsing: Browsing) -> tuple[str | None, bool]:
    """Reopen the index after another command wrote the library: synced if the records
    moved on and no writer holds the library, else as last committed (a writer at work
    is never read half-way). Returns a line when the index cannot be read, and whether
    the index is still behind the records (a writer holds the library: ask again)."""
    from ..search.index import state

    try:
        browsing.index.open()
    except PapersError as exc:
        return str(exc), False
    synced = state.read(browsing.index.dir, "state.json").get("papers_dir")
    return None, synced != browsing.library.papers_dir_stamp()
