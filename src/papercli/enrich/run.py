"""``papers enrich``: download each venue's accepted papers (or read them from the cache)
and match the chosen records locally; ask arXiv and Crossref about the records OpenReview
cannot serve (``services``); then write all the changes in one transaction, or none.

Any failure before the write (offline, a timeout, a 429 beyond patience, a malformed
reply) ends the command with one line and leaves the library as it was: records, index
and caches. ``dry_run`` computes the same changes and writes nothing.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import RecordError
from ..progress import Progress, quiet
from ..remote.apis import Apis
from ..store.library import Library
from ..store.record import Record
from . import cache, replies
from .changes import Change, apply, changes
from .match import Match, Matcher
from .services import Asker, Lookup, decide


@dataclass
class Outcome:
    """One chosen record: what each service asked made of it, or why it was left."""

    id: str
    venueid: str | None = None  # its venue's list on OpenReview, when OpenReview has one
    lookups: list[Lookup] = field(default_factory=list)  # OpenReview's, else arXiv's, Crossref's

    @property
    def found(self) -> list[Lookup]:
        return [look for look in self.lookups if look.match.found]

    @property
    def match(self) -> Match | None:
        """The first service's match that found the paper, else the first service's."""
        first = self.found or self.lookups
        return first[0].match if first else None

    @property
    def changes(self) -> list[Change]:
        return [c for look in self.lookups for c in look.changes]

    @property
    def reason(self) -> str | None:
        """Why it is left as it is: every service's reason when none found it; a near tie
        whatever the others found."""
        found = self.found
        reasons = [
            look.reason
            for look in self.lookups
            if look.reason and (not found or look.match.how == "ambiguous")
        ]
        return "; ".join(reasons) or None

    def as_dict(self) -> dict:
        openreview = next((look for look in self.found if look.service == "OpenReview"), None)
        return {
            "id": self.id,
            "venueid": self.venueid,
            "match": self.match.how if self.match else None,
            "openreview": openreview.match.paper.forum if openreview else None,
            "filled_by": [look.service for look in self.lookups if look.changes],
            "lookups": [look.as_dict() for look in self.lookups],
            "changes": [c.as_dict() for c in self.changes],
            "reason": self.reason,
        }


@dataclass
class EnrichReport:
    outcomes: list[Outcome] = field(default_factory=list)
    lists: dict[str, cache.VenueList] = field(default_factory=dict)
    downloaded: list[str] = field(default_factory=list)  # venue ids fetched this run
    asked: dict[str, tuple[int, list[str]]] = field(default_factory=dict)  # arXiv, Crossref:
    # the requests sent, and the days the answers read from the cache were fetched
    answers: list[replies.Answer] = field(default_factory=list)  # to keep
    written: list[str] = field(default_factory=list)  # ids of the records changed
    skipped: list[str] = field(default_factory=list)  # invalid records, with the reason

    def counts(self) -> dict[str, dict[str, int]]:
        """How many records each service found, by how: {"OpenReview": {"title": 3}}."""
        out: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            for look in o.found:
                by = out.setdefault(look.service, {})
                by[look.match.how] = by.get(look.match.how, 0) + 1
        return out

    def count(self, how: str, service: str = "OpenReview") -> int:
        return self.counts().get(service, {}).get(how, 0)

    @property
    def changed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.changes]

    def shared(self) -> dict[str, list[str]]:
        """Papers that more than one record matched (source -> the records): one paper the
        merge rule did not join, now shown for what it is."""
        by_paper: dict[str, list[str]] = {}
        for o in self.outcomes:
            for document in dict.fromkeys(look.match.paper.document for look in o.found):
                by_paper.setdefault(document, []).append(o.id)
        return {document: ids for document, ids in by_paper.items() if len(ids) > 1}


Fetch = Callable[..., list[dict]]


def enrich(
    library: Library,
    ids: list[str] | None,
    apis: Apis,
    *,
    refresh: bool = False,
    dry_run: bool = False,
    progress: Progress = quiet,
    fetch: Fetch | None = None,
    today: Callable[[], datetime.date] = datetime.date.today,
) -> EnrichReport:
    """Enrich the records *ids* (every record when None) from the services at *apis*."""
    from .openreview import fetch_venue, venue_id

    report = EnrichReport()
    records = _chosen(library, ids, report)
    for record in records:
        report.outcomes.append(Outcome(record.id, venue_id(record.venue or "", record.year)))
    for venueid in sorted({o.venueid for o in report.outcomes if o.venueid}):
        cached = None if refresh else cache.load(library, venueid)
        if cached is None:
            raw = _download(fetch or fetch_venue, apis.openreview, venueid, progress)
            cached = cache.VenueList(venueid, apis.openreview, today().isoformat(), raw)
            report.downloaded.append(venueid)
        report.lists[venueid] = cached
    matchers = {
        v: Matcher([note.paper(listed.fetched) for note in listed.notes()])
        for v, listed in report.lists.items()
    }
    by_id = {r.id: r for r in records}
    for outcome in report.outcomes:
        if outcome.venueid:
            match = matchers[outcome.venueid].match(by_id[outcome.id])
            none = (
                "not among the venue's accepted papers"
                if report.lists[outcome.venueid].raw
                else f"OpenReview lists no accepted papers for {outcome.venueid}"
            )
            outcome.lookups.append(decide("OpenReview", by_id[outcome.id], match, none))
    elsewhere = [o for o in report.outcomes if not o.lookups or o.match.how == "none"]
    if elsewhere:
        _ask(
            library,
            apis,
            [by_id[o.id] for o in elsewhere],
            elsewhere,
            report,
            refresh,
            today,
            progress,
        )
    if not dry_run:
        _write(library, report)
    return report


def _ask(
    library: Library,
    apis: Apis,
    records: list[Record],
    outcomes: list[Outcome],
    report: EnrichReport,
    refresh: bool,
    today: Callable[[], datetime.date],
    progress: Progress,
) -> None:
    """arXiv's and Crossref's lookups of *records* (those OpenReview could not serve)."""
    asker = Asker(library, apis, today().isoformat(), refresh)
    with contextlib.closing(asker), progress(len(records), "asking arXiv and Crossref") as step:
        asker.prefetch(records)
        for record, outcome in zip(records, outcomes, strict=True):
            outcome.lookups.extend(asker.ask(record))
            step()
    for service in ("arXiv", "Crossref"):
        report.asked[service] = (asker.requests(service), asker.cached[service])
    report.answers = list(asker.new.values())


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
                for look in outcome.lookups:
                    if look.changes:
                        look.changes = changes(record, look.match.paper)
                    if look.changes:
                        apply(record, look.match.paper, look.changes)
                if outcome.changes and txn.save(record):
                    written.append(record)
        if written:
            index.write(written)
        for venueid in report.downloaded:
            cache.save(library, report.lists[venueid])
        for answer in report.answers:
            replies.save(library, answer)
    report.written = [r.id for r in written]
