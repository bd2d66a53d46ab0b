"""The index's folder: Whoosh's index, the glossary saved with it and the state that
describes them; opened, checked, made afresh, and read.

In: the library (its ``.index/`` folder) and the glossary's files. Out: ``IndexFolder``:
a searcher, the glossary in force and the concepts of a record, and what the index holds
(ids, citation keys, categories, one paper). ``PaperIndex`` (``paper_index.py``) opens it
and keeps it in step with the records.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable

from ...engine.unions import raised_in_whoosh, unions
from ...errors import IndexDamaged, PapersError, UsageError
from ...progress import Progress, quiet
from ...store.library import Library
from ...store.record import Record
from ..concepts.glossary import FULL, Glossary, GlossaryFiles
from ..concepts.query_glossary import COMPILED, OLD_COMPILED, QueryGlossary
from ..results.hits import Hit, hit_from
from . import state
from .schema import SCHEMA_VERSION, make_schema
from .vocabulary import FILE as VOCABULARY_FILE

_UNREAD = object()  # (a cached value not read yet; None is a value)


# Why open() made a new index (PaperIndex.rebuilt): each reads after "the index".
MISSING = "missing"  # there was none (a fresh clone of a library, say: nothing wrong)
UNFINISHED = "was left unfinished by a command that was killed or failed"


class IndexFolder:
    """The library's index as its folder holds it; ``PaperIndex`` opens it."""

    def __init__(self, library: Library, glossary: GlossaryFiles | None = None) -> None:
        self.library = library
        self.glossary_files = glossary or GlossaryFiles()
        self._glossary: Glossary | None = None
        self._query_glossary: QueryGlossary | object | None = _UNREAD
        self.dir = library.index_dir
        self._ix = None
        self.invalid: dict[str, str] = {}
        self.saved_categories: list[str] | None = None  # as the last commit saved them
        self._held: threading.local | None = None  # searchers kept (``hold_searchers``)

    def open(self, refresh: bool = True, progress: Progress = quiet) -> IndexFolder:
        """Open the index (``PaperIndex.open``: and bring it up to date)."""
        raise NotImplementedError

    def _load(self) -> tuple[dict, str | None]:
        """The saved state, with the index opened; or why the index cannot be used (a
        clause that reads after "the index", naming the file at fault)."""
        from ...engine import check_version, storage

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
        from ...engine import storage

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

    def hold_searchers(self) -> None:
        """Keep a searcher for each thread from one search to the next, brought up to the
        index's newest commit when asked for again (Whoosh's ``refresh``: what a new one
        would read, the unchanged segments' readers kept). For ``papers browse``: opening
        a searcher and its columns took 2-3 ms of each keystroke's search at 10,000 papers."""
        self._held = threading.local()

    @contextlib.contextmanager
    def searcher(self):
        """A Whoosh searcher; a damaged index (random bytes in a segment file, say) is an
        ``IndexDamaged`` naming the cure instead of whatever Whoosh raises."""
        held = self._held
        try:
            if held is None or getattr(held, "busy", False):  # (a search within a search)
                with self.ix.searcher() as searcher:
                    yield searcher
            else:
                held.busy = True
                try:
                    yield self._held_searcher(held)
                finally:
                    held.busy = False
        except PapersError:
            raise
        except Exception as exc:
            if held is not None and not getattr(held, "busy", False):
                held.searcher = None  # (read again from the files next time)
            if not raised_in_whoosh(exc):
                raise  # (a bug of ours is not a damaged index)
            from whoosh.query import QueryError

            if isinstance(exc, QueryError):  # (a query Whoosh will not run: not damage)
                raise UsageError(f"this query cannot be run: {exc}") from None
            raise IndexDamaged(self.dir, exc) from None

    def _held_searcher(self, held: threading.local):
        """This thread's kept searcher, of the index open now and its newest commit."""
        ix, searcher = self.ix, getattr(held, "searcher", None)
        if searcher is not None and getattr(held, "ix", None) is ix:
            searcher = searcher.refresh()  # (itself when nothing was committed since)
        else:
            if searcher is not None:
                searcher.close()  # (of an index since opened again)
            searcher = ix.searcher()
        held.searcher, held.ix = searcher, ix
        return searcher

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
            keys = {k.decode("utf-8") for k in searcher.lexicon("citekey")}
            aliases = searcher.reader().expand_prefix("keys", "i:")  # (merged papers' keys)
            return keys | {a.decode("utf-8")[2:] for a in aliases}

    def categories(self) -> set[str]:
        """Every category in the index's list of terms, lower-cased as indexed (a deleted
        paper's may linger: a search for it finds nothing). Saved with each commit: reading
        them from the index would take every search a searcher of its own."""
        if self.saved_categories is not None:
            return set(self.saved_categories)
        with self.searcher() as searcher:
            return {c.decode("utf-8") for c in searcher.lexicon("category")}

    def has_citekey(self, citekey: str, searcher) -> bool:
        """Whether a paper in the index (not a deleted one) has *citekey*, or has it as the
        key of a paper merged into it (a draft citing that key names the merged paper)."""
        from whoosh import query

        q = query.Or([query.Term("citekey", citekey), query.Term("keys", f"i:{citekey}")])
        return any(True for _ in searcher.docs_for_query(q))

    def ids(self, q) -> list[str]:
        """The ids of every paper matching *q* (stored ids only, no record data kept)."""
        with self.searcher() as searcher:
            return [searcher.stored_fields(n)["id"] for n in searcher.docs_for_query(unions(q))]

    def get(self, rid: str) -> Hit | None:
        with self.searcher() as searcher:
            fields = searcher.document(id=rid)
        return hit_from(fields) if fields else None
