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

from ..engine.unions import raised_in_whoosh, unions
from ..errors import IndexDamaged, PapersError, UsageError
from ..progress import Progress, quiet
from ..store.library import Library
from ..store.record import Record
from . import state
from .concepts.glossary import FULL, Glossary, GlossaryFiles
from .concepts.query_glossary import COMPILED, OLD_COMPILED, QueryGlossary
from .hits import Hit, hit_from
from .order import ranked_hits
from .schema import SCHEMA_VERSION, ids_by_docnum, make_schema
from .sync import SyncReport
from .vocabulary import FILE as VOCABULARY_FILE

_UNREAD = object()  # (a cached value not read yet; None is a value)


# Why open() made a new index (PaperIndex.rebuilt): each reads after "the index".
MISSING = "missing"  # there was none (a fresh clone of a library, say: nothing wrong)
UNFINISHED = "was left unfinished by a command that was killed or failed"


class PaperIndex:
    """The library's index. Open it with ``PaperIndex(library).open()``."""

    def __init__(self, library: Library, glossary: GlossaryFiles | None = None) -> None:
        self.library = library
        self.glossary_files = glossary or GlossaryFiles()
        self._glossary: Glossary | None = None
        self._query_glossary: QueryGlossary | object | None = _UNREAD
        self.dir = library.index_dir
        self._ix = None
        self.invalid: dict[str, str] = {}
        self.saved_categories: list[str] | None = None  # as the last commit saved them
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
                        from ..engine.storage import discard_leftovers

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

    def _load(self) -> tuple[dict, str | None]:
        """The saved state, with the index opened; or why the index cannot be used (a
        clause that reads after "the index", naming the file at fault)."""
        from ..engine import check_version, storage

        check_version()
        saved = state.read(self.dir, "state.json")
        if not saved:
            if state.damaged(self.dir, "state.json"):
                return saved, "had a damaged state file (state.json)"
            if not self.dir.is_dir() or not any(self.dir.iterdir()):
                return saved, MISSING
            return saved, "was missing its state file (state.json)"
        if saved.get("version") != SCHEMA_VERSION:
            made = saved.get("version")
            return saved, (f"was made for index schema {made} (this papers uses {SCHEMA_VERSION})")
        if saved.get("glossary") != self.glossary_files.fingerprint():
            return saved, "was made with another glossary or taxonomy"
        if not (self.dir / COMPILED).is_file():
            return saved, f"was missing its compiled glossary ({COMPILED})"
        toc = f"_{storage.INDEX_NAME}_{(saved.get('files') or {}).get('generation')}.toc"
        for attempt in range(3):
            try:  # (not exists_in first: it reads and unpickles the whole TOC too)
                self._ix = storage.open_index(self.dir)
                break
            except FileNotFoundError:
                # Whoosh lists the tables of contents, then opens the newest: a writer's
                # commit may remove it in between. Read the new one rather than wait for
                # the writer (to rebuild an index that was whole).
                if attempt == 2:
                    return saved, f"was missing its table of contents ({toc})"
            except Exception as exc:
                return saved, f"had a damaged table of contents ({toc}: {type(exc).__name__})"
        if changed := state.changed(self.dir, saved):
            return saved, changed
        return saved, None

    def glossary(self) -> Glossary:
        """The glossary in force, read once (for indexing): as saved with the index when
        the index was made with the glossary files as they are, else from those files."""
        if self._glossary is None:
            saved = state.read(self.dir, "state.json")
            if saved.get("glossary") == self.glossary_files.fingerprint():
                self._glossary = Glossary.saved(self.dir)
            if self._glossary is None:
                self._glossary = self.glossary_files.load()
        return self._glossary

    def concepts(self, record: Record) -> tuple[dict[str, str], list[str]]:
        """The glossary's concepts *record* speaks of, and those it names only in passing
        (see ``Glossary.read``)."""
        return self.glossary().read(record)

    def query_glossary(self) -> QueryGlossary | None:
        """The compiled glossary saved with the index (None: missing or damaged), read once."""
        if self._query_glossary is _UNREAD:
            self._query_glossary = QueryGlossary.load(self.dir)
        return self._query_glossary

    def _create(self) -> None:
        """A new, empty index, and the state that describes it. The write it begins ends
        with the sync that fills it: a rebuild killed half-way is found unfinished."""
        from ..engine import storage

        # (read from its files: a glossary in error stops here, with the index untouched)
        glossary = self._glossary = self.glossary_files.load()
        self.dir.mkdir(parents=True, exist_ok=True)
        state.begin_write(self.dir)
        for name in (
            "stamps.json",
            "state.json",
            VOCABULARY_FILE,
            COMPILED,
            FULL,
            "broader.json",  # (an index of schema 33 or before kept it)
            OLD_COMPILED,
        ):
            (self.dir / name).unlink(missing_ok=True)
        storage.discard_leftovers(self.dir)
        self._ix = storage.create_index(self.dir, make_schema())
        glossary.save(self.dir)  # (what queries will be bridged with)
        state.write(
            self.dir,
            "state.json",
            {
                "version": SCHEMA_VERSION,
                "glossary": self.glossary_files.fingerprint(),
                "invalid": {},
                "files": state.files(self.dir),
                "categories": [],
            },
        )

    @contextlib.contextmanager
    def searcher(self):
        """A Whoosh searcher; a damaged index (random bytes in a segment file, say) is an
        ``IndexDamaged`` naming the cure instead of whatever Whoosh raises."""
        try:
            with self.ix.searcher() as searcher:
                yield searcher
        except PapersError:
            raise
        except Exception as exc:
            if not raised_in_whoosh(exc):
                raise  # (a bug of ours is not a damaged index)
            from whoosh.query import QueryError

            if isinstance(exc, QueryError):  # (a query Whoosh will not run: not damage)
                raise UsageError(f"this query cannot be run: {exc}") from None
            raise IndexDamaged(self.dir, exc) from None

    def verify(self) -> None:
        """Read everything the index holds (stored records, every term, every posting):
        an ``IndexDamaged`` if any of it cannot be read. For ``papers doctor``."""
        with self.searcher() as searcher:
            reader = searcher.reader()
            for _fields in reader.all_stored_fields():
                pass
            for fieldname in searcher.schema.names():
                if not searcher.schema[fieldname].indexed:
                    continue
                for term in reader.lexicon(fieldname):
                    for _posting in reader.postings(fieldname, term).all_ids():
                        pass

    @property
    def ix(self):
        if self._ix is None:
            self.open()
        return self._ix

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
        self, records: Iterable[Record], new: frozenset[str] = frozenset(), progress=quiet
    ) -> None:
        """Index records that were just saved (see ``sync.write``)."""
        from .sync import write

        write(self, records, new, progress)

    # -- reading ----------------------------------------------------------------------------

    def doc_count(self) -> int:
        return self.ix.doc_count()

    def find_by_keys(self, keys: Iterable[str], searcher=None) -> list[str]:
        """Ids of the papers holding any of these identity keys (pass an open *searcher*
        when asking many times)."""
        from whoosh import query

        terms = [query.Term("keys", k) for k in keys]
        if not terms:
            return []
        if searcher is None:
            with self.searcher() as searcher:
                return self.find_by_keys(keys, searcher)
        return [searcher.stored_fields(n)["id"] for n in searcher.docs_for_query(query.Or(terms))]

    def citekeys(self) -> set[str]:
        """Every citation key in the index's list of terms (read once per ingest, not once
        per paper); it may still hold deleted papers' keys (see ``has_citekey``)."""
        with self.searcher() as searcher:
            return {k.decode("utf-8") for k in searcher.lexicon("citekey")}

    def categories(self) -> set[str]:
        """Every category in the index's list of terms, lower-cased as indexed (a deleted
        paper's may linger: a search for it finds nothing). Saved with each commit: reading
        them from the index would take every search a searcher of its own."""
        if self.saved_categories is not None:
            return set(self.saved_categories)
        with self.searcher() as searcher:
            return {c.decode("utf-8") for c in searcher.lexicon("category")}

    def has_citekey(self, citekey: str, searcher) -> bool:
        """Whether a paper in the index (not a deleted one) has *citekey*."""
        from whoosh import query

        return any(True for _ in searcher.docs_for_query(query.Term("citekey", citekey)))

    def ids(self, q) -> list[str]:
        """The ids of every paper matching *q* (stored ids only, no record data kept)."""
        with self.searcher() as searcher:
            return [searcher.stored_fields(n)["id"] for n in searcher.docs_for_query(unions(q))]

    def get(self, rid: str) -> Hit | None:
        with self.searcher() as searcher:
            fields = searcher.document(id=rid)
        return hit_from(fields) if fields else None

    def run(
        self, q, limit: int | None, sort: bool = False, fresh: bool = True, exact: bool = False
    ) -> list[Hit]:
        """Run a Whoosh query; check the hits' files and run again if any had changed.

        *exact*: rank every matching paper, then keep the best *limit*. Whoosh's top-N
        collector drops real hits of a query of many weighted terms: ``similar`` lost one
        of its top 3 for 20 of the 63 bundled papers (with or without its "optimize")."""
        from ..engine.ranking import ranked

        for _attempt in range(2):
            with self.searcher() as searcher:
                order = "sortkey" if sort else None
                ids = ids_by_docnum(searcher)
                found = ranked(searcher, unions(q), None if exact else limit, order, ids)
                kept = found[:limit] if exact and limit is not None else found
                stored = [(searcher.stored_fields(n), score) for score, n in kept]
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
        from ..engine.codec import stored_fields_reader

        with contextlib.ExitStack() as stack:
            if searcher is None:
                searcher = stack.enter_context(self.searcher())
            stored_fields = stored_fields_reader(searcher)
            for score, docnum in ranked_hits(searcher, q, limit, sort, allow, restrict):
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
