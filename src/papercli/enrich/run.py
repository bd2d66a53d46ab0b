"""``papers enrich``: download each venue's accepted papers (or read them from the cache),
match every chosen record locally, then write all the changes in one transaction, or none.

Any failure before the write (offline, a timeout, a malformed reply, a venue OpenReview
does not list) ends the command with one line and leaves the library as it was: records,
index and cache. ``dry_run`` computes the same changes and writes nothing.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import PapersError, RecordError, UsageError
from ..progress import Progress, quiet
from ..store.library import Library
from ..store.record import Record
from . import cache
from .changes import Change, apply, changes
from .match import Match, Matcher


@dataclass
class Outcome:
    """One chosen record: what it matched and what that changes, or why it was left."""

    id: str
    venueid: str | None = None
    match: Match | None = None
    changes: list[Change] = field(default_factory=list)
    reason: str | None = None  # why it is left as it is

    def as_dict(self) -> dict:
        paper = self.match.paper if self.match else None
        return {
            "id": self.id,
            "venueid": self.venueid,
            "match": self.match.how if self.match else None,
            "openreview": paper.forum if paper and self.match.found else None,
            "changes": [c.as_dict() for c in self.changes],
            "reason": self.reason,
        }


@dataclass
class EnrichReport:
    outcomes: list[Outcome] = field(default_factory=list)
    lists: dict[str, cache.VenueList] = field(default_factory=dict)
    downloaded: list[str] = field(default_factory=list)  # venue ids fetched this run
    written: list[str] = field(default_factory=list)  # ids of the records changed
    skipped: list[str] = field(default_factory=list)  # invalid records, with the reason

    def count(self, how: str) -> int:
        return sum(1 for o in self.outcomes if o.match and o.match.how == how)

    @property
    def changed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.changes]

    def shared(self) -> dict[str, list[str]]:
        """OpenReview papers that more than one record matched (forum -> the records):
        one paper the merge rule did not join, now shown for what it is."""
        by_forum: dict[str, list[str]] = {}
        for o in self.outcomes:
            if o.match and o.match.found:
                by_forum.setdefault(o.match.paper.forum, []).append(o.id)
        return {forum: ids for forum, ids in by_forum.items() if len(ids) > 1}


Fetch = Callable[..., list[dict]]


def enrich(
    library: Library,
    ids: list[str] | None,
    api: str,
    *,
    refresh: bool = False,
    dry_run: bool = False,
    progress: Progress = quiet,
    fetch: Fetch | None = None,
    today: Callable[[], datetime.date] = datetime.date.today,
) -> EnrichReport:
    """Enrich the records *ids* (every record when None) from OpenReview at *api*."""
    from .openreview import fetch_venue, venue_id

    report = EnrichReport()
    records = _chosen(library, ids, report)
    for record in records:
        outcome = Outcome(record.id, venue_id(record.venue or "", record.year))
        if outcome.venueid is None:
            outcome.reason = _no_venue(record)
        report.outcomes.append(outcome)
    wanted = sorted({o.venueid for o in report.outcomes if o.venueid})
    if ids is not None and (unknown := [o for o in report.outcomes if not o.venueid]):
        raise UsageError(f"{unknown[0].id}: {unknown[0].reason}")
    if not wanted:
        raise UsageError(
            "no chosen paper names a venue and year on OpenReview (ICLR, NeurIPS or ICML)"
        )
    for venueid in wanted:
        cached = None if refresh else cache.load(library, venueid)
        if cached is None:
            raw = _download(fetch or fetch_venue, api, venueid, progress)
            if not raw:
                raise PapersError(f"OpenReview ({api}) lists no accepted papers for {venueid}")
            cached = cache.VenueList(venueid, api, today().isoformat(), raw)
            report.downloaded.append(venueid)
        report.lists[venueid] = cached
    matchers = {
        v: Matcher([note.paper(listed.fetched) for note in listed.notes()])
        for v, listed in report.lists.items()
    }
    by_id = {r.id: r for r in records}
    for outcome in report.outcomes:
        if outcome.venueid:
            _decide(outcome, by_id[outcome.id], matchers[outcome.venueid])
    if not dry_run:
        _write(library, report)
    return report


def _no_venue(record: Record) -> str:
    if not record.venue or not record.year:
        return "names no venue and year"
    return f"{record.venue} {record.year} is not a venue papers can find on OpenReview"


def _chosen(library: Library, ids: list[str] | None, report: EnrichReport) -> list[Record]:
    if ids is None:
        records = []
        for entry in sorted(library.record_files(), key=lambda e: e.name):
            try:
                records.append(library.load_path(library.papers_dir / entry.name))
            except RecordError as exc:
                report.skipped.append(str(exc))
        return records
    from ..search.index.paper_index import PaperIndex
    from ..search.questions.lookup import get_paper

    index = PaperIndex(library).open()
    chosen = dict.fromkeys(get_paper(index, rid).id for rid in ids)
    return [library.load(rid) for rid in chosen]


def _download(fetch: Fetch, api: str, venueid: str, progress: Progress) -> list[dict]:
    """Fetch with a bar that appears once the first page has said how many there are."""
    with contextlib.ExitStack() as stack:
        state: dict = {}

        def report(done: int, total: int | None) -> None:
            if "advance" not in state:
                label = f"downloading {venueid}"
                state["advance"] = stack.enter_context(progress(total, label))
            state["advance"](done - state.get("done", 0))
            state["done"] = done

        return fetch(api, venueid, progress=report)


def _decide(outcome: Outcome, record: Record, matcher: Matcher) -> None:
    outcome.match = match = matcher.match(record)
    if match.how == "none":
        outcome.reason = "not among the venue's accepted papers"
    elif match.how == "ambiguous":
        outcome.reason = match.describe()
    else:
        outcome.changes = changes(record, match.paper)


def _write(library: Library, report: EnrichReport) -> None:
    """Everything or nothing: each record is read again under the lock (it may have been
    edited since it was matched) and its changes computed again; then the cache."""
    from ..search.index.paper_index import PaperIndex

    with library.lock():
        index = PaperIndex(library).open()
        written = []
        with library.transaction() as txn:
            for outcome in report.changed:
                record = library.load(outcome.id)
                paper = outcome.match.paper
                outcome.changes = changes(record, paper)
                if outcome.changes:
                    apply(record, paper, outcome.changes)
                    if txn.save(record):
                        written.append(record)
        if written:
            index.write(written)
        for venueid in report.downloaded:
            cache.save(library, report.lists[venueid])
    report.written = [r.id for r in written]
