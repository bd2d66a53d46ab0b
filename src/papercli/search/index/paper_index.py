"""The Whoosh index: derived from the records, kept fresh cheaply, never the source of truth.

Opening it checks, with one ``stat``, whether ``papers/`` changed since the last sync, and
syncs if it did (``sync.py``, the freshness rule); a hit whose record was edited in place is
re-indexed as it is about to be shown. An index that cannot be used is rebuilt, and says
why. Listings read what they show from stored fields (the record as JSON), never YAML.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ...engine.unions import unions
from ...progress import Progress, quiet
from ...store.library import Library
from ...store.record import Record
from ..concepts.glossary import GlossaryFiles
from ..results.hits import Hit, hit_from
from . import state
from .folder import MISSING, UNFINISHED, IndexFolder
from .schema import ids_by_docnum
from .sync import SyncReport


class PaperIndex(IndexFolder):
    """The library's index. Open it with ``PaperIndex(library).open()``."""

    def __init__(self, library: Library, glossary: GlossaryFiles | None = None) -> None:
        super().__init__(library, glossary)
        self.rebuilt: str | None = None  # why open() had to start a new index, if it did
        self.caught_up: SyncReport | None = None  # the sync after a write that did not finish
        self.notices: list[str] = []  # what the user should know about the index used

    # -- opening and freshness --------------------------------------------------------------

    def open(self, refresh: bool = True, progress: Progress = quiet) -> PaperIndex:
        """Open and, unless *refresh* is false, bring up to date (with *progress*).

        An index that is missing, unreadable, made by another version of papers, or whose
        files changed behind its back is rebuilt from the records, under the write lock:
        a writer at work is waited for, never overwritten. ``rebuilt`` says why; when the
        last write did not finish, ``caught_up`` says what the sync after it indexed."""
        saved, trouble = self._load()
        behind = refresh and saved.get("papers_dir") != self.library.papers_dir_stamp()
        if (trouble or behind) and not self.library.writable():
            self._move_to_cache(trouble or "behind its records")
            saved, trouble = self._load()
        if trouble:
            with self.library.lock():
                saved, trouble = self._load()  # (the writer waited for may have rebuilt it)
                if trouble:
                    if trouble != MISSING and state.unfinished(self.dir):
                        trouble = UNFINISHED
                    self.rebuilt = trouble
                    self._create()
                    if refresh:
                        self.sync(progress=progress)
                    return self
        self.invalid = saved.get("invalid", {})
        self.saved_categories = saved.get("categories")
        behind = saved.get("papers_dir") != self.library.papers_dir_stamp()
        if refresh and (behind or state.unfinished(self.dir)):
            # Another process writing holds the lock: search what it last committed. A
            # write marked under way when the lock is free was killed: what it left goes.
            with self.library.try_lock() as locked:
                if locked:
                    unfinished = state.unfinished(self.dir)
                    if unfinished:
                        from ...engine.storage import discard_leftovers

                        discard_leftovers(self.dir)
                    report = self.sync(progress=progress)
                    if unfinished:
                        self.caught_up = report
        return self

    def repaired(self) -> str | None:
        """What ``open`` did to an index it found missing or wrong, in a line; None when
        it found it whole (kept up to date, as every command does, is not a repair)."""
        if self.rebuilt == MISSING:  # (a library copied without its index, or cloned)
            return f"the library had no index: built it ({self.doc_count()} papers)"
        if self.rebuilt:
            return f"the index {self.rebuilt}: rebuilt it ({self.doc_count()} papers)"
        if self.caught_up is not None:
            done, what = self.caught_up, "the last write to the index did not finish"
            if not done.changed:
                return f"{what}: removed what it left behind (no paper was missing)"
            counts = f"{done.added} added, {done.updated} updated, {done.removed} removed"
            return f"{what}: brought it up to date ({counts})"
        return None

    def _move_to_cache(self, why: str) -> None:
        """A library this process cannot write, whose index cannot be used as it is: keep
        an index of its records in the user's cache folder instead (rebuilt there once,
        kept up to date there like any index)."""
        import hashlib

        import platformdirs

        key = hashlib.sha256(str(self.library.root.resolve()).encode()).hexdigest()[:16]
        cache = Path(platformdirs.user_cache_dir("papers", appauthor=False)) / "read-only" / key
        self.notices.append(
            f"the library at {self.library.root} is read-only and its index "
            f"is {why}: searching an index of its records in {cache}"
        )
        self.library = self.library.read_only_view(cache)
        self.dir = self.library.index_dir

    def sync(self, full: bool = False, progress: Progress = quiet) -> SyncReport:
        """Bring the index in line with ``papers/`` (see ``sync.sync``)."""
        from .sync import sync

        return sync(self, full, progress)

    def refresh_stale(self, stored: dict[str, list[int]]) -> bool:
        """Re-index the records among *stored* whose files changed (see ``sync``)."""
        from .sync import refresh_stale

        return refresh_stale(self, stored)

    def writer(
        self, expected: int, papers_dir=None, clear: bool = False, progress: Progress = quiet
    ):
        """One writer for a batch of changes (see ``writer.open_writer``)."""
        from .writer import open_writer  # (a search never writes)

        return open_writer(self, expected, papers_dir, clear, progress)

    def write(
        self,
        records: Iterable[Record],
        new: frozenset[str] = frozenset(),
        progress=quiet,
        removed: Iterable[str] = (),
    ) -> None:
        """Index records that were just saved, forget those removed (see ``sync.write``)."""
        from .sync import write

        write(self, records, new, progress, removed)

    # -- reading ----------------------------------------------------------------------------

    def run(self, q, limit: int | None, sort: bool = False, fresh: bool = True) -> list[Hit]:
        """Run a Whoosh query; check the hits' files and run again if any had changed."""
        from ...engine.ranking import ranked

        for _attempt in range(2):
            with self.searcher() as searcher:
                order = "sortkey" if sort else None
                found = ranked(searcher, unions(q), limit, order, ids_by_docnum(searcher))
                stored = [(searcher.stored_fields(n), score) for score, n in found]
                hits = [hit_from(fields, None if sort else score) for fields, score in stored]
            if not fresh or not self.refresh_stale({f["id"]: f["stamp"] for f, _ in stored}):
                break
        return hits

    def stream(
        self, q, limit: int | None, sort: bool = False, searcher=None, allow=None, restrict=None
    ) -> Iterator[Hit]:
        """The hits of *q*, best first (or by title), read one at a time as they are
        consumed: a listing writes its first line before the next hit is read, and holds
        none of them. (Within *searcher*, when given; each hit then knows its ``docnum``.)

        Each hit's file is checked as it is read (one ``stat``). A record edited in place is
        re-indexed there and then and shown as it is now, if it still matches; its place is
        the one its old text earned. *allow*, *restrict*: docnums only to list, or never.)"""
        from ...engine.codec import stored_fields_reader
        from ...engine.ranking import ranked

        with contextlib.ExitStack() as stack:
            if searcher is None:
                searcher = stack.enter_context(self.searcher())
            stored_fields = stored_fields_reader(searcher)
            order, ids = ("sortkey" if sort else None), ids_by_docnum(searcher)
            for score, docnum in ranked(searcher, unions(q), limit, order, ids, allow, restrict):
                fields = stored_fields(docnum)
                hit = hit_from(fields, None if sort else score)
                hit.docnum = docnum
                if self.library.stamp_list(hit.id) != fields["stamp"]:
                    hit = self._refreshed(q, hit, fields["stamp"], sort)
                if hit is not None:
                    yield hit

    def _refreshed(self, q, hit: Hit, indexed: list[int], sort: bool) -> Hit | None:
        """*hit*, whose file changed after it was indexed, as its record is now (None: gone,
        invalid, or no longer matching *q*); as it was when a writer holds the library."""
        from whoosh import query

        if not self.refresh_stale({hit.id: indexed}):
            return hit if self.library.stamp(hit.id) is not None else None
        found = self.run(query.And([q, query.Term("id", hit.id)]), limit=1, sort=sort, fresh=False)
        return found[0] if found else None
