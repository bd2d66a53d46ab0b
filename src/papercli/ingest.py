"""Ingest: documents → entries → records merged into the library → index.

Every document is read and parsed before anything is written: one unusable document
stops the whole ingest with the library untouched. Then, under the library lock, each
entry either creates a record, is folded into the record of the same paper (see
``merge``), or is recognised as already there. Records are written first, the index
after them.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from .errors import DocumentError
from .parsers import STDIN, Entry, parse_bytes, parse_file, parse_stream
from .progress import Progress, quiet
from .search.index import PaperIndex
from .store import ids
from .store.library import Library
from .store.merge import (
    earlier_version,
    entry_keys,
    merge_entry,
    merge_record,
    new_record,
    record_keys,
    revise_entry,
    same_paper,
)
from .store.record import Record, Source
from .tags.tagging import apply_tags, auto_tags, keep_keywords
from .tags.taxonomy import Taxonomy, load_taxonomy

# An ingest of documents up to this many bytes (in all) keeps what it made in memory: each
# document's entries from the first parse, instead of parsing it again while merging, and
# its records until they are saved, instead of parking them on disk (``Parked``). At 10,000
# papers (7.9 MB of documents) the second parse cost ~0.5 s, on the one core the ingest then
# uses, and parking ~0.5 s more; entries take ~4 bytes a byte of document, records ~3.
KEEP_PARSED = 16 << 20


@dataclass
class DocumentReport:
    path: str
    format: str
    entries: int
    venue: str | None
    year: int | None


@dataclass
class IngestReport:
    documents: list[DocumentReport] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # ids of records created
    merged: list[str] = field(default_factory=list)  # ids of records an entry was folded into
    revised: list[str] = field(default_factory=list)  # ids a new version of a .bib changed
    unchanged: int = 0  # entries already in the library
    warnings: list[str] = field(default_factory=list)  # "file:line: message"
    written: int = 0  # record files actually written

    def summary(self) -> str:
        docs = len(self.documents)
        entries = sum(d.entries for d in self.documents)
        entry_word = "entry" if entries == 1 else "entries"
        revised = f"{len(self.revised)} revised, " if self.revised else ""
        return (
            f"{docs} document{'s' * (docs != 1)}, {entries} {entry_word}: "
            f"{len(self.new)} new, {len(self.merged)} merged, {revised}{self.unchanged} unchanged, "
            f"{len(self.warnings)} warning{'s' * (len(self.warnings) != 1)}"
        )


def _pack(record: Record | dict) -> str:
    data = record.to_dict() if isinstance(record, Record) else record
    return json.dumps(data, ensure_ascii=False)


class Parked:
    """Records parked until they are saved: as JSON in a temporary file, each found again by
    where it lies, or (*in_memory*, for a small ingest) as they are.

    Held as text, the records parked by an ingest of 100,000 papers were ~200 MB of its
    362 MiB peak (and all processes together peaked at 662 MiB, against the 500 MB goal):
    on disk, each costs an entry of a dict. The file is gone when closed, and with the
    process however it ends; a record is read back with one ``pread``. Writing and reading
    them back cost ~0.5 s of a 10,000-paper ingest, which holds them in ~30 MB."""

    def __init__(self, in_memory: bool = False) -> None:
        self._file = None
        self._end = 0
        self._where: dict[str, int] = {}  # id -> offset << 32 | length (one int: a tuple of
        # two took 80 bytes more a record)
        self._live: dict[str, Record] | None = {} if in_memory else None

    def __contains__(self, rid: str) -> bool:
        return rid in (self._where if self._live is None else self._live)

    def __len__(self) -> int:
        return len(self._where if self._live is None else self._live)

    def put(self, record: Record) -> None:
        if self._live is not None:
            self._live[record.id] = record
            return
        if self._file is None:
            import tempfile

            self._file = tempfile.TemporaryFile(prefix="papers-parked-", buffering=0)  # noqa: SIM115 (closed by close())
        data = _pack(record).encode("utf-8")
        os.pwrite(self._file.fileno(), data, self._end)
        self._where[record.id] = self._end << 32 | len(data)
        self._end += len(data)

    def pop(self, rid: str) -> Record:
        if self._live is not None:
            return self._live.pop(rid)
        where = self._where.pop(rid)
        offset, length = where >> 32, where & 0xFFFFFFFF
        data = os.pread(self._file.fileno(), length, offset).decode("utf-8")
        return Record.from_dict(json.loads(data), rid)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._where.clear()
        if self._live is not None:
            self._live.clear()


class Batch:
    """Records touched by this ingest, and which identity key belongs to which of them.

    The records of the document being ingested are objects; once it is done they are
    parked (``Parked``: as JSON in a temporary file, unless the ingest is small; 100,000
    records held as objects took ~300 MB, and as text ~200 MB) and come back to life if a
    later entry is the same paper."""

    def __init__(self, library: Library, index: PaperIndex, searcher, parked: Parked) -> None:
        self.library = library
        self.index = index
        self.searcher = searcher  # one open searcher for all lookups of this ingest
        self.records: dict[str, Record] = {}  # records of the current document
        self.parked = parked  # records touched earlier, as JSON on disk
        self.before: dict[str, str | None] = {}  # id -> record as it was (None: new), JSON
        self.owner: dict[int, str] = {}  # hash of an identity key -> id (see remember)
        self.indexed_keys: set[str] = index.citekeys()  # (may hold deleted papers' keys)
        self.keyed: dict[str, str] = {}  # keys of the records this ingest holds -> their ids
        self.earlier: dict[str, dict[int, Entry]] = {}  # an earlier .bib copy's entries
        self.touched: dict[str, None] = {}  # ids created or merged into, in order (a set)
        self.keywords: dict[str, set[str]] = {}  # tags a source gave (BibTeX keywords)
        self.lookups: dict[str, list[str]] = {}  # identity key -> indexed ids (see indexed)
        self.reader = searcher.reader()  # (its list of terms)

    def remember(self, record: Record, touched: bool = False) -> None:
        if touched:
            self.touched[record.id] = None
        self.records[record.id] = record
        for key in record_keys(record):
            # (the key's hash, not its text: 177,535 keys of 39 characters on average took
            # 22.2 MiB as text, 16.0 as hashes. Two keys with one 64-bit hash, odds ~1e-9 at
            # 300,000 keys, would at worst leave a paper unmerged: same_paper turns down the
            # other paper's record, and the first key to arrive keeps the hash)
            self.owner.setdefault(hash(key), record.id)
        if record.citekey:
            self.keyed[record.citekey] = record.id

    def park(self) -> None:
        """Park the records touched so far; forget those only looked at."""
        for rid, record in self.records.items():
            if rid in self.touched:
                self.parked.put(record)
            else:
                self.before.pop(rid, None)  # read from the library again if needed
        self.records.clear()

    def take(self, rid: str) -> Record | None:
        """The record *rid* of this batch, live (unparked), or None if it has none."""
        record = self.records.get(rid)
        if record is None and rid in self.parked:
            record = self.records[rid] = self.parked.pop(rid)
        return record

    def _load(self, rid: str) -> Record:
        """A record of the library, as the index stores it when the index is in step with
        its file (the same stamp: JSON reads 50x faster than YAML, whose loading was most
        of an unchanged re-ingest of a big record), else from the file."""
        fields = self.searcher.document(id=rid)
        stamp = self.library.stamp(rid)
        if fields and stamp is not None and fields.get("stamp") == stamp.as_list():
            record = Record.from_dict(fields["data"], rid)
        else:
            record = self.library.load(rid)
        self.before[rid] = _pack(record)
        self.remember(record)
        return record

    def find(self, entry: Entry) -> Record | None:
        keys = entry_keys(entry)
        candidates = [self.owner[h] for h in map(hash, keys) if h in self.owner]
        candidates += [rid for key in keys for rid in self.indexed(key)]
        for rid in dict.fromkeys(candidates):
            record = self.take(rid) or self._load(rid)
            if same_paper(record, entry):
                return record
        return None

    def taken(self, citekey: str) -> bool:
        """Whether a paper of the library or of this ingest has *citekey*. The index's list
        of keys keeps a deleted paper's key until its segment is merged: a clash with it is
        checked (a record deleted and ingested again got 'muonbp2026a')."""
        if citekey in self.keyed:
            return True
        return citekey in self.indexed_keys and self.index.has_citekey(citekey, self.searcher)

    def indexed(self, key: str) -> list[str]:
        """Ids of the indexed papers holding identity key *key*, looked up once per ingest
        (a title repeated 50,000 times read the same stored record 50,000 times). A key the
        index does not hold is not remembered: asking the index's list of terms again costs
        little, while an empty answer for each new paper's keys grew with the ingest (with
        the parked records' places as ints, the ingest process's peak at 100,000 new papers
        went from 235 to 224 MiB)."""
        if key not in self.lookups:
            if ("keys", key) not in self.reader:
                return []
            self.lookups[key] = self.index.find_by_keys([key], self.searcher)
        return self.lookups[key]

    def merged(self) -> None:
        """Let go of what only finding a paper needed (its keys' owners, the index's answers,
        the citekeys taken) before the records are saved and indexed: the indexing processes
        are at their largest then, and this one need not hold them meanwhile."""
        self.owner, self.lookups, self.keyed, self.indexed_keys = {}, {}, {}, set()
        self.earlier = {}

    def get(self, rid: str) -> Record | None:
        """The record with this id, from this batch or the library."""
        record = self.take(rid)
        if record is not None:
            return record
        if not self.library.exists(rid):
            return None
        return self._load(rid)

    def import_record(self, entry: Entry) -> tuple[Record, str]:
        """A whole record read back from an export: kept as it is, or merged by id or keys."""
        incoming = entry.record
        existing = self.get(incoming.id) or self.find(entry)
        if existing is None:
            if incoming.citekey and self.taken(incoming.citekey):
                incoming.citekey = ids.unique_citekey(incoming.citekey, self.taken)
            self.before[incoming.id] = None
            self.remember(incoming, touched=True)
            return incoming, "new"
        if existing.to_dict() == incoming.to_dict():
            return existing, "unchanged"
        merge_record(existing, incoming)
        self.remember(existing, touched=True)
        return existing, "merged"

    def add(self, entry: Entry, source: Source, report: IngestReport, where: str = "") -> None:
        """One entry: a new record, folded into the same paper's record, or already there;
        or a warning, when the paper's record is there but does not validate."""
        if entry.record is not None:
            record, outcome = self.import_record(entry)
        elif (revision := self.revision(entry, source)) is not None:
            record, before, old = revision
            changed = revise_entry(record, entry, before, source, old)
            outcome = "revised" if changed else "unchanged"
            if outcome == "revised":
                self.remember(record, touched=True)
        else:
            record = self.find(entry)
            base = _base_id(entry) if record is None else ""  # (the id a new record starts from)
            if record is None and (broken := self.broken_record(base)):
                report.warnings.append(f"{where or source.name}:{entry.line}: {broken}")
                return
            if record is None:
                record, outcome = self.create(entry, source, base), "new"
            elif record.cites(source):
                outcome = "unchanged"
            else:
                merge_entry(record, entry, source)
                self.remember(record, touched=True)
                outcome = "merged"
        if entry.keywords:
            self.keywords.setdefault(record.id, set()).update(entry.keywords)
        if outcome == "unchanged":
            report.unchanged += 1
        else:
            getattr(report, outcome).append(record.id)

    def revision(self, entry: Entry, source: Source) -> tuple[Record, Entry, Source] | None:
        """(record, the entry as it was, its source) when *entry* is the entry of a BibTeX
        file's key in a new version of a file that gave the record before (same name,
        another copy, still in sources/ to say what the entry was)."""
        key = entry.citekey
        if source.format != "bibtex" or not key:
            return None
        rid = self.keyed.get(key)
        if rid is None and key in self.indexed_keys:
            from whoosh import query

            found = self.searcher.docs_for_query(query.Term("citekey", key))
            rid = next((self.searcher.stored_fields(n)["id"] for n in found), None)
        record = self.get(rid) if rid else None
        if record is None or record.citekey != key or record.cites(source):
            return None
        old = earlier_version(record, entry, source)
        before = self.earlier_entry(old) if old is not None else None
        return (record, before, old) if before is not None else None

    def earlier_entry(self, old: Source) -> Entry | None:
        """The entry at *old*'s line in the copy it cites (each copy parsed once)."""
        if old.document not in self.earlier:
            try:
                data = (self.library.root / old.document).read_bytes()
                doc = parse_bytes(data, old.name)
            except (OSError, DocumentError):
                doc = None  # (a copy gone or damaged: the entry is merged as any other)
            self.earlier[old.document] = {e.line: e for e in doc.entries} if doc else {}
        return self.earlier[old.document].get(old.line)

    def broken_record(self, base: str) -> str | None:
        """Why an entry is not added, when the record it would be stored as (*base*, its
        ``_base_id``) exists and does not validate: a second copy (``…-2``) would hide the
        broken one. None otherwise."""
        reason = self.index.invalid.get(f"{base}.yaml")
        if reason is None or base in self.records or base in self.parked:
            return None
        why = _after_file(reason)
        return (
            f"skipped: papers/{base}.yaml would hold this paper but does not validate "
            f"({why}); fix it (papers edit {base}) and ingest again"
        )

    def create(self, entry: Entry, source: Source, base: str) -> Record:
        rid = ids.unique_id(
            base, lambda i: i in self.records or i in self.parked or self.library.exists(i)
        )
        record = new_record(rid, entry, source)
        if entry.citekey and not self.taken(entry.citekey):
            record.citekey = entry.citekey  # the source's own key (BibTeX), when free
        else:
            key = ids.base_citekey(entry.short_name, entry.title, entry.abstract, entry.year)
            record.citekey = ids.unique_citekey(key, self.taken)
        self.before[rid] = None
        self.remember(record, touched=True)
        return record


def _base_id(entry: Entry) -> str:
    return ids.base_id(
        entry.venue, entry.year, entry.short_name, entry.title, entry.abstract, entry.summary_zh
    )


def _after_file(message: str) -> str:
    """'lib/papers/x.yaml line 3: year must be …' → 'line 3: year must be …'."""
    return message.split(".yaml", 1)[-1].lstrip(" :") if ".yaml" in message else message


def ingest(
    library: Library,
    paths: Iterable[Path],
    taxonomy: Taxonomy | None = None,
    progress: Progress = quiet,
    stdin: BinaryIO | None = None,
) -> IngestReport:
    """Ingest documents; raise ``DocumentError``, touching nothing, if one is unusable.
    A path ``-`` is the document *stdin* holds, named ``stdin`` in the records' sources
    and in warnings."""
    # Every document is parsed before anything reaches the library. Unless the documents
    # are within KEEP_PARSED bytes in all, their entries are then let go (at 100,000 papers
    # they took ~300 MB; as soon as the bytes read pass the limit) and each document is
    # parsed again, one at a time, from its copy while merging. The copy is staged as soon
    # as the document is parsed: all documents' bytes held until the last was parsed (80 MB
    # at 100,000 papers) left the
    # ingest process ~50 MiB larger to its end. Copies wait in sources/.pending-<pid>/
    # until the transaction that cites them commits, and go if any document is unusable.
    made = [f for f in (library.sources_dir, *_missing(library.root)) if not f.exists()]
    done = False
    try:
        staged, parsed = [], 0
        for path in map(Path, paths):
            if str(path) == "-" and stdin is not None:
                path, (doc, data) = Path(STDIN), parse_stream(stdin)
            else:
                doc, data = parse_file(path)
            count, parsed = len(doc.entries), parsed + len(data)
            if parsed > KEEP_PARSED:  # (and those kept so far, once all are parsed)
                doc.entries = []
            staged.append((path, doc, count, *library.stage_source(path.name, data)))
            del data
        small = parsed <= KEEP_PARSED
        if not small:
            for _path, doc, *_rest in staged:
                doc.entries = []
        report = _merge_and_save(library, staged, taxonomy or load_taxonomy(), progress, small)
        done = True
        return report
    finally:
        library.clean_pending([library.pending_dir()])  # (empty unless the ingest failed)
        if not done:
            _remove_made(library, made)


def _remove_made(library: Library, made: list[Path]) -> None:
    """After a failed ingest, remove the folders it created, deepest first: a library it
    created stays absent. Its index (made before saving began) and its lock file go too,
    unless the library's folder holds anything else by then."""
    if library.root in made and library.root.is_dir():
        ours = {library.index_dir.name, library.lock_file.name, library.sources_dir.name}
        if {p.name for p in library.root.iterdir()} <= ours:
            shutil.rmtree(library.index_dir, ignore_errors=True)
            library.lock_file.unlink(missing_ok=True)
    for folder in made:
        with contextlib.suppress(OSError):
            folder.rmdir()


def _missing(folder: Path) -> list[Path]:
    """*folder* and its ancestors that do not exist yet, deepest first."""
    out = []
    while not folder.exists() and folder != folder.parent:
        out.append(folder)
        folder = folder.parent
    return out


def _merge_and_save(
    library: Library, staged: list, taxonomy: Taxonomy, progress, small: bool
) -> IngestReport:
    with contextlib.closing(Parked(in_memory=small)) as parked:  # (its file goes, whatever happens)
        return _merge(library, staged, taxonomy, progress, parked, small)


def _merge(
    library: Library, staged: list, taxonomy: Taxonomy, progress, parked: Parked, small: bool
):
    """Merge the staged documents' entries and save the records. *small*: the documents are
    within ``KEEP_PARSED`` bytes, and kept their entries from the first parse."""
    report = IngestReport()
    with library.lock():
        index = PaperIndex(library).open(progress=progress)
        with index.searcher() as searcher:
            batch = Batch(library, index, searcher, parked)
            total = sum(count for _p, _doc, count, _rel, _at in staged)
            with progress(total, "ingesting") as advance:
                for path, header, count, rel, at in staged:
                    report.documents.append(
                        DocumentReport(str(path), header.format, count, header.venue, header.year)
                    )
                    report.warnings += [f"{path}:{w.line}: {w.message}" for w in header.warnings]
                    entries, header.entries = header.entries, []  # (kept, or parsed again)
                    if not small:
                        entries = parse_bytes(at.read_bytes(), str(path)).entries
                    for entry in entries:
                        source = Source(rel, path.name, entry.line, header.format, entry.fields())
                        batch.add(entry, source, report, str(path))
                        advance()
                    del entries
                    batch.park()
        # Each record is tagged, staged and indexed in one pass, and then let go: the
        # indexing processes work while this one tags and saves the next records.
        batch.merged()
        touched = batch.touched  # (in order; not changed while saving)
        with index.writer(len(touched), progress=progress) as writer:
            with library.transaction() as txn:
                pending = {rel: at for _p, _d, _c, rel, at in staged if at != library.root / rel}
                for rel, at in pending.items():
                    txn.adopt(at, rel)
                with progress(len(touched), "saving") as advance:
                    for rid in touched:
                        advance()
                        record = batch.take(rid)
                        batch.records.clear()  # let it go once saved
                        auto = auto_tags(record, taxonomy)
                        keep_keywords(record, batch.keywords.get(rid, set()) - auto)
                        apply_tags(record, auto)
                        data = record.to_dict()
                        before = batch.before.pop(rid)
                        if (before is None or before != _pack(data)) and txn.save(record):
                            writer.upsert(record, txn.stamp(rid), before is None, data)
                            report.written += 1
                with progress(None, "writing the records"):  # (flushing 10,000 files: seconds)
                    txn.commit()
            writer.papers_dir = library.papers_dir_stamp()
    return report
