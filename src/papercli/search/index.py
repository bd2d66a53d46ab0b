"""The Whoosh index: derived from the records, kept fresh cheaply, never the source of truth.

Freshness rule (documented in the README):

- ``.index/state.json`` remembers the ``papers/`` folder's mtime and inode as of the last
  sync. Every command compares them with one ``stat``: any record added, removed or
  replaced through a rename (papers itself, most editors, git) changes them, and the
  command then syncs: one ``scandir`` of ``papers/`` against ``.index/stamps.json``
  (mtime, size, inode of every record file), re-reading only the files that changed.
- A record edited in place (which leaves the folder untouched) is caught when it is about
  to be shown: every hit's stored stamp is compared with a ``stat`` of its file, and a
  changed record is re-read, re-indexed and the query run again. A listing never shows
  stale data.
- ``papers index`` syncs unconditionally; ``papers index --rebuild`` starts from scratch.

Listings read what they show from stored fields (the record as JSON), never from YAML.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..errors import RecordError
from ..progress import Progress, quiet
from ..store.files import Stamp, atomic_write
from ..store.library import Library
from ..store.merge import record_keys
from ..store.record import Record
from ..text import strip_controls
from ..text.latex import latex_to_text, remember
from . import engine as _whoosh  # noqa: F401  (before Whoosh: skips imports it does not need)
from .vocabulary import FILE as VOCABULARY_FILE
from .vocabulary import Vocabulary, words_of

SCHEMA_VERSION = 10  # 9: stored plain readings; 10: analyzer pickled as papercli.search.analysis
PARALLEL_FROM = 1000  # records in one write before a second indexing process pays off
POOL_MB = 64  # Whoosh's posting pool per indexing process (MB, as Whoosh estimates it)


def make_schema():
    from whoosh import fields

    from .analysis import bilingual_analyzer

    analyzer = bilingual_analyzer()

    def text(boost: float):
        return fields.TEXT(analyzer=analyzer, field_boost=boost, multitoken_query="phrase")

    # Ranking: a term in the title or short name counts most, in the tags next, in the
    # abstract or summary least (BM25F with these field weights).
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        citekey=fields.ID(),
        title=text(4.0),
        name=text(4.0),
        author=text(2.0),
        tag=fields.KEYWORD(commas=True, lowercase=True, scorable=True, field_boost=2.0),
        abstract=text(1.0),
        summary=text(1.0),
        venue=fields.KEYWORD(lowercase=True),
        year=fields.NUMERIC(int, bits=16, signed=False),
        category=fields.KEYWORD(commas=True, lowercase=True),
        keys=fields.KEYWORD(commas=True),
        facets=fields.KEYWORD(commas=True),  # "venue:ICLR,year:2026,…" for papers stats
        sortkey=fields.ID(sortable=True),
        stamp=fields.STORED,
        data=fields.STORED,
        plain=fields.STORED,  # the texts' plain readings, where LaTeX made them differ
    )


def document(record: Record, stamp: Stamp, data: str | None = None) -> dict:
    """The index document for *record*: analysed text plus the stored record itself.

    Terminal escapes and control characters in the text are kept in the record but not
    indexed, so ``\x1b[31mRED`` is found by ``RED``.
    """

    def text(value: str | None) -> str:
        return strip_controls(latex_to_text(value or ""))

    return {
        "id": record.id,
        "citekey": record.citekey or "",
        "title": text(record.title),
        "name": text(record.short_name),
        "author": text("; ".join(record.authors)),
        "tag": ",".join(record.tags),
        "abstract": text(record.abstract),
        "summary": text(record.summary_zh),
        "venue": record.venue or "",
        "year": record.year or 0,
        "category": ",".join(c.replace(",", " ") for c in record.categories),
        "keys": ",".join(record_keys(record)),
        "facets": ",".join(v.replace(",", " ") for v in facets(record)),
        "sortkey": record.label.casefold(),
        "stamp": stamp.as_list(),
        "data": data or json.dumps(record.to_dict(), ensure_ascii=False),
        "plain": json.dumps(readings(record), ensure_ascii=False),
    }


PLAIN_FIELDS = ("title", "abstract", "summary_zh")


def readings(record: Record) -> dict[str, str]:
    """The plain readings of the record's texts that differ from the texts (LaTeX read as
    text), stored so that showing the record never converts LaTeX again."""
    out = {}
    for name in PLAIN_FIELDS:
        value = getattr(record, name)
        if value and (plain := latex_to_text(value)) != value:
            out[name] = plain
    return out


def remember_readings(data: dict, stored: str | None) -> None:
    """Hand the readings stored with a hit (see ``readings``) to ``latex_to_text``."""
    for name, plain in json.loads(stored or "{}").items():
        if isinstance(data.get(name), str) and isinstance(plain, str):
            remember(data[name], plain)


def facets(record: Record) -> list[str]:
    """What ``papers stats`` counts, one ``kind:value`` per fact."""
    out = [f"venue:{record.venue or '(none)'}", f"year:{record.year or '(none)'}"]
    out += [f"category:{c}" for c in record.categories]
    out += [f"source:{name}" for name in dict.fromkeys(s.name for s in record.sources)]
    out.append("title:titled" if record.title else "title:untitled")
    languages = [
        lang
        for lang, text in (
            ("English abstract", record.abstract),
            ("Chinese summary", record.summary_zh),
        )
        if text
    ]
    out.append("languages:" + (" + ".join(languages) or "title only"))
    return out


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    removed: int = 0
    invalid: dict[str, str] = field(default_factory=dict)  # file name -> message

    @property
    def changed(self) -> int:
        return self.added + self.updated + self.removed


@dataclass
class Hit:
    id: str
    data: dict
    score: float | None = None
    snippet: str | None = None  # why it matched, with marks (see ``snippets``)
    title_marked: str | None = None  # the title with the matched words marked

    @property
    def record(self) -> Record:
        return Record.from_dict(self.data, self.id)


def _hit(fields: dict, score: float | None = None) -> Hit:
    data = json.loads(fields["data"])
    remember_readings(data, fields.get("plain"))
    return Hit(fields["id"], data, score)


class RecordStream:
    """Records by id, read from the index one at a time each time it is iterated: an
    export of the whole library never holds every record in memory."""

    def __init__(self, index: PaperIndex, ids: list[str]) -> None:
        self.index = index
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self):
        with self.index.ix.searcher() as searcher:
            for rid in self.ids:
                fields = searcher.document(id=rid)
                if fields:
                    yield Record.from_dict(json.loads(fields["data"]), rid)


class Writer:
    """Changes to the index within ``PaperIndex.writer``; keeps the stamp list and the
    vocabulary (see ``vocabulary``) in step."""

    def __init__(self, index: PaperIndex, whoosh_writer, stamps: dict, clear: bool) -> None:
        self.index = index
        self.whoosh = whoosh_writer
        self.stamps = stamps
        self.papers_dir: list[int] | None = None  # papers/'s stamp to record (None: keep)
        self.vocabulary = Vocabulary() if clear else None  # loaded at the first change
        self._searcher = None  # reads the versions being replaced

    def upsert(
        self, record: Record, stamp: Stamp, known_new: bool = False, data: str | None = None
    ) -> None:
        """Index *record* (replacing its old version unless *known_new*: then it is added
        without a lookup). *data*: the record as JSON, when the caller has it already."""
        name = f"{record.id}.yaml"
        self.stamps[name] = stamp.as_list()
        self.index.invalid.pop(name, None)
        old = Counter() if known_new else self._old_words(record.id)
        self._count(old, words_of(record))
        fields = document(record, stamp, data)
        if known_new:
            self.whoosh.add_document(**fields)
        else:
            self.whoosh.update_document(**fields)

    def delete(self, rid: str) -> None:
        self.stamps.pop(f"{rid}.yaml", None)
        self._count(self._old_words(rid), Counter())
        self.whoosh.delete_by_term("id", rid)

    def _old_words(self, rid: str) -> Counter:
        if self._searcher is None:
            self._searcher = self.index.ix.searcher()
        fields = self._searcher.document(id=rid)
        if not fields:
            return Counter()
        return words_of(Record.from_dict(json.loads(fields["data"]), rid))

    def _count(self, old: Counter, new: Counter) -> None:
        if old == new:
            return
        if self.vocabulary is None:
            self.vocabulary = Vocabulary.load(self.index.dir)
        self.vocabulary.remove(old)
        self.vocabulary.add(new)

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None


class PaperIndex:
    """The library's index. Open it with ``PaperIndex(library).open()``."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.dir = library.index_dir
        self._ix = None
        self.invalid: dict[str, str] = {}

    # -- state files ------------------------------------------------------------------------

    def _read_json(self, name: str) -> dict:
        try:
            return json.loads((self.dir / name).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}

    def _write_json(self, name: str, data: dict) -> None:
        atomic_write(self.dir / name, json.dumps(data, ensure_ascii=False).encode("utf-8"))

    # -- opening and freshness --------------------------------------------------------------

    def open(self, refresh: bool = True, progress: Progress = quiet) -> PaperIndex:
        """Open (creating if needed) and, unless *refresh* is false, bring up to date
        (with *progress*: a missing index is rebuilt there, which can take a while)."""
        from whoosh import index as windex

        state = self._read_json("state.json")
        usable = state.get("version") == SCHEMA_VERSION
        if usable:
            try:  # (not exists_in first: it reads and unpickles the whole TOC too, ~13 ms)
                self._ix = windex.open_dir(str(self.dir))
            except Exception:  # missing, from another version or damaged: rebuild
                usable = False
        if not usable:
            self._create()
            state = {}
        self.invalid = state.get("invalid", {})
        if refresh and state.get("papers_dir") != self.library.papers_dir_stamp():
            # Another process writing holds the lock: search what it last committed.
            with self.library.try_lock() as locked:
                if locked:
                    self.sync(progress=progress)
        return self

    def _create(self) -> None:
        from whoosh import index as windex

        self.dir.mkdir(parents=True, exist_ok=True)
        for name in ("stamps.json", "state.json", VOCABULARY_FILE):
            (self.dir / name).unlink(missing_ok=True)
        self._ix = windex.create_in(str(self.dir), make_schema())

    @property
    def ix(self):
        if self._ix is None:
            self.open()
        return self._ix

    def sync(self, full: bool = False, progress: Progress = quiet) -> SyncReport:
        """Bring the index in line with ``papers/``: one scandir, reads only changed files."""
        papers_stamp = self.library.papers_dir_stamp()
        old = {} if full else self._read_json("stamps.json")
        seen: dict[str, list[int]] = {}
        changed: list[str] = []
        for entry in self.library.record_files():
            stamp = Stamp.of(entry.stat()).as_list()
            seen[entry.name] = stamp
            if old.get(entry.name) != stamp:
                changed.append(entry.name)
        removed = [name for name in old if name not in seen]
        report = SyncReport()
        changed_set = set(changed)
        # An invalid record stays listed until its file changes or goes.
        self.invalid = {k: v for k, v in self.invalid.items() if k in seen and k not in changed_set}
        if not (full or changed or removed):
            self._write_json("stamps.json", seen)
            self._write_json(
                "state.json",
                {"version": SCHEMA_VERSION, "papers_dir": papers_stamp, "invalid": self.invalid},
            )
            return report
        # Records are read and indexed one at a time: a rebuild holds no list of them.
        with self.writer(len(changed), papers_stamp, full, progress) as writer:
            for name in removed:
                writer.delete(name[: -len(".yaml")])
            with progress(len(changed), "indexing") as advance:
                for name in sorted(changed):
                    advance()
                    try:
                        record = self.library.load_path(self.library.papers_dir / name)
                    except (RecordError, OSError) as exc:
                        self.invalid[name] = str(exc)  # not searchable until fixed
                        if name in old:
                            writer.delete(name[: -len(".yaml")])
                            report.removed += 1
                        continue
                    known = name in old
                    writer.upsert(record, Stamp(*seen[name]), known_new=full or not known)
                    if known:
                        report.updated += 1
                    else:
                        report.added += 1
        report.removed += len(removed)
        report.invalid = self.invalid
        return report

    def refresh_stale(self, stored: dict[str, list[int]]) -> bool:
        """Re-index the records among *stored* (id -> indexed stamp) whose files changed.

        Returns whether any had changed. This is what keeps a record edited in place from
        ever being shown stale: it costs one ``stat`` per record about to be shown.
        """
        upserts, removed = [], []
        for rid, indexed in stored.items():
            stamp = self.library.stamp(rid)
            if stamp is None:
                removed.append(rid)
            elif stamp.as_list() != indexed:
                try:
                    upserts.append((self.library.load(rid), stamp))
                except RecordError as exc:
                    self.invalid[f"{rid}.yaml"] = str(exc)
                    removed.append(rid)
        if not upserts and not removed:
            return False
        with self.library.try_lock() as locked:
            if not locked:
                return False  # a writer is busy; show what was committed
            self._apply(upserts, removed)
        return True

    def _apply(
        self,
        upserts: list[tuple[Record, Stamp]],
        removed: list[str],
        papers_dir=None,
        new: frozenset[str] = frozenset(),
        progress: Progress = quiet,
    ) -> None:
        """Write index changes, then the stamps and state that describe them."""
        with self.writer(len(upserts), papers_dir, progress=progress) as writer:
            for rid in removed:
                writer.delete(rid)
            with progress(len(upserts), "indexing") as advance:
                for record, stamp in upserts:
                    advance()
                    writer.upsert(record, stamp, known_new=record.id in new)

    @contextlib.contextmanager
    def writer(
        self, expected: int, papers_dir=None, clear: bool = False, progress: Progress = quiet
    ) -> Iterator[Writer]:
        """One Whoosh writer for a batch of changes, committed (with the stamps and state
        that describe it) when the block ends, cancelled if it fails. Records can be added
        while they are produced: an ingest indexes each record as soon as it is saved.

        *expected* (the number of upserts) chooses the writer: from ``PARALLEL_FROM`` on,
        Whoosh's multiprocess writer (one more process, one segment each).

        *clear* starts the index afresh, yet the old one stays whole and searchable until
        the new one commits (Whoosh drops every old segment in that same commit): an
        interrupted rebuild leaves the index as it was, not empty."""
        stamps = {} if clear else self._read_json("stamps.json")
        if expected >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
            from .parallel import ParallelWriter

            # limitmb: the posting pool each process sorts in memory before spilling a run to
            # disk. Measured on 10k papers: 32 indexed 1.6x slower than 128; 64 is ~15%
            # slower than 128 and keeps each indexing process near 120 MB instead of 190.
            whoosh_writer = ParallelWriter(
                self.ix, procs=2, multisegment=True, limitmb=POOL_MB, compound=False
            )
        else:
            whoosh_writer = self.ix.writer(timeout=30.0, compound=False)
        writer = Writer(self, whoosh_writer, stamps, clear)
        writer.papers_dir = papers_dir
        try:
            yield writer
        except BaseException:
            writer.close()
            whoosh_writer.cancel()
            raise
        writer.close()
        from whoosh.writing import CLEAR

        with progress(None, "writing the index"):  # (a long step at 10,000 papers or more)
            whoosh_writer.commit(mergetype=CLEAR if clear else None)
        if writer.vocabulary is not None:
            atomic_write(self.dir / VOCABULARY_FILE, writer.vocabulary.to_json())
        self._write_json("stamps.json", stamps)
        state = {} if clear else self._read_json("state.json")
        if writer.papers_dir is not None:
            state["papers_dir"] = writer.papers_dir
        state.update(version=SCHEMA_VERSION, invalid=self.invalid)
        self._write_json("state.json", state)

    def write(
        self, records: Iterable[Record], new: frozenset[str] = frozenset(), progress=quiet
    ) -> None:
        """Index records that were just saved (under the library lock); *new* names the ids
        that are not in the index yet (added without looking for an old version)."""
        upserts = []
        for record in records:
            stamp = self.library.stamp(record.id)
            if stamp is not None:
                upserts.append((record, stamp))
        self._apply(
            upserts, [], papers_dir=self.library.papers_dir_stamp(), new=new, progress=progress
        )

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
            with self.ix.searcher() as searcher:
                return self.find_by_keys(keys, searcher)
        return [searcher.stored_fields(n)["id"] for n in searcher.docs_for_query(query.Or(terms))]

    def citekeys(self) -> set[str]:
        """Every citation key in the index (read once per ingest, not once per paper)."""
        with self.ix.searcher() as searcher:
            return {k.decode("utf-8") for k in searcher.lexicon("citekey")}

    def ids(self, q) -> list[str]:
        """The ids of every paper matching *q* (stored ids only, no record data kept)."""
        with self.ix.searcher() as searcher:
            return [searcher.stored_fields(n)["id"] for n in searcher.docs_for_query(q)]

    def get(self, rid: str) -> Hit | None:
        with self.ix.searcher() as searcher:
            fields = searcher.document(id=rid)
        return _hit(fields) if fields else None

    def run(self, q, limit: int | None, sort: bool = False, fresh: bool = True) -> list[Hit]:
        """Run a Whoosh query; check the hits' files and run again if any had changed."""
        for _attempt in range(2):
            with self.ix.searcher() as searcher:
                results = searcher.search(q, limit=limit, sortedby="sortkey" if sort else None)
                hits = [_hit(h.fields(), None if sort else h.score) for h in results]
                stored = {h["id"]: h["stamp"] for h in results}
            if not fresh or not self.refresh_stale(stored):
                break
        return hits
