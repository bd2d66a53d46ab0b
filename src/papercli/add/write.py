"""The resolved papers into the library: one transaction under the write lock, the index
updated with it, or nothing at all.

Each paper is looked for first by its links (arXiv id, DOI, forum: the keys the index
holds, and those of papers this add has just made), then by the merge rule (title,
abstract, short name: ``ingest.batch``). Found, each service's answer is folded in by the
merge rule (empty fields filled, a different value kept as a conflict, links added, a
preprint's venue replaced by the published one); not found, a record is made from the
first answer and the others are folded into it. A record cites each answer as a source
(``arxiv:…``, ``crossref:…``, ``openreview:…``) with the day it first came; adding a
paper again folds the answers again, which changes nothing unless a service's answer did.
"""

from __future__ import annotations

import contextlib
import tempfile
from dataclasses import dataclass, field

from ..errors import UsageError
from ..ingest.batch import Batch
from ..ingest.spill import Parked, pack
from ..remote.found import Found
from ..store import ids
from ..store.library import Library
from ..store.links import ARXIV, arxiv_id
from ..store.merge import fold_reply
from ..store.record import Record
from ..tags.tagging import apply_tags, auto_tags, edit
from ..tags.taxonomy import Taxonomy
from .resolve import Resolved

FILLED = ("title", "authors", "short_name", "venue", "year", "abstract")


@dataclass
class Outcome:
    item: str  # as the user gave it
    action: str  # "new", "merged", or "unchanged" (the answers changed nothing)
    record: Record  # as written (or, in a dry run, as it would be)
    how: str = "id"  # how the item was found (see ``Resolved``)
    filled: list[str] = field(default_factory=list)  # fields an existing record gained
    conflicts: int = 0  # differing values kept as conflicts
    sources: list[str] = field(default_factory=list)  # the services that gave it
    status: str | None = None  # what a service says of a paper with no venue

    def as_dict(self) -> dict:
        return {"item": self.item, "action": self.action, **self.record.to_dict()}


def add_papers(
    library: Library,
    papers: list[Resolved],
    taxonomy: Taxonomy,
    tags: list[str] | None = None,
    dry_run: bool = False,
) -> list[Outcome]:
    """Write *papers* (see the module's docstring); a dry run computes the same outcomes
    and writes nothing (in a library not made yet, against an empty one made elsewhere)."""
    if dry_run and not library.papers_dir.is_dir():
        with tempfile.TemporaryDirectory(prefix="papers-add-") as scratch:
            empty = Library(scratch)
            empty.papers_dir.mkdir()
            return add_papers(empty, papers, taxonomy, tags, dry_run=True)
    from ..ingest.pipeline import _missing, _remove_made
    from ..search.index.paper_index import PaperIndex

    made = [] if dry_run else _missing(library.root)
    done = False
    try:
        with library.lock():
            index = PaperIndex(library).open()
            with index.searcher() as searcher, contextlib.closing(Parked(in_memory=True)) as parked:
                batch = Batch(library, index, searcher, parked)
                linked: dict[str, str] = {}  # link keys of the papers this add touched
                outcomes = [_add(batch, linked, paper) for paper in papers]
            records = {rid: batch.take(rid) for rid in batch.touched}
            for record in records.values():  # (tagged as ingest tags what it merged)
                apply_tags(record, auto_tags(record, taxonomy))
            for outcome in outcomes:
                record = records.setdefault(outcome.record.id, outcome.record)
                outcome.record = record
                if tags:
                    edit(record, add=tags)
            if not dry_run:
                changed = [r for rid, r in records.items() if batch.before.get(rid) != pack(r)]
                with library.transaction() as txn:
                    written = [r for r in changed if txn.save(r)]
                new = frozenset(rid for rid in records if batch.before.get(rid) is None)
                if written:
                    index.write(written, new=new)
        done = True
        return outcomes
    finally:
        if not done and made:
            _remove_made(library, made)


def _add(batch: Batch, linked: dict[str, str], paper: Resolved) -> Outcome:
    record = _existing(batch, linked, paper.parts)
    before = None if record is None else Record.from_dict(record.to_dict(), record.id)
    for part in paper.parts:
        entry, source = part.entry(), part.source()
        if record is None:
            base = ids.base_id(
                entry.venue, entry.year, entry.short_name, entry.title, entry.abstract, None
            )
            if broken := batch.broken_record(base):
                raise UsageError(f"{paper.item.given}: {broken}")
            record = batch.create(entry, source, base)
        else:
            fold_reply(record, entry, source)
    action = "new" if before is None else "unchanged"
    if before is not None and before.to_dict() != record.to_dict():
        action = "merged"
        batch.remember(record, touched=True)
    for part in paper.parts:
        for key in part.link_keys():
            linked.setdefault(key, record.id)
    outcome = Outcome(paper.item.given, action, record, paper.how)
    outcome.sources = list(dict.fromkeys(p.service for p in paper.parts))
    if not record.venue:
        outcome.status = next((p.status for p in paper.parts if p.status), None)
    if before is not None:
        outcome.filled = [n for n in FILLED if not getattr(before, n) and getattr(record, n)]
        outcome.conflicts = len(record.conflicts) - len(before.conflicts)
    return outcome


def _existing(batch: Batch, linked: dict[str, str], parts: list[Found]) -> Record | None:
    """The record of the paper *parts* are, if the library (or this add) has one."""
    mine = next((p.arxiv for p in parts if p.arxiv), None)
    for part in parts:
        for key in part.link_keys():
            rids = [linked[key]] if key in linked else batch.indexed(key)
            for rid in rids:
                record = batch.get(rid)
                theirs = arxiv_id(record.urls) if record is not None else None
                if record is not None and not (mine and theirs and mine != theirs):
                    return record  # (two arXiv ids are two papers, whatever else they share)
    for part in parts:
        entries = [part.entry()]
        if part.arxiv and part.published:  # (as the preprint it also is: the merge rule's 3)
            entries.append(part.entry())
            entries[-1].venue = ARXIV
        for entry in entries:
            if (record := batch.find(entry)) is not None:
                return record
    return None
