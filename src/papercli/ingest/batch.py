"""The records an ingest touches: each entry made a new record, folded into the record of
the same paper (see ``store.merge``), or found already there."""

from __future__ import annotations

from ..errors import DocumentError
from ..parsers import Entry, parse_bytes
from ..search.index.paper_index import PaperIndex
from ..store import ids
from ..store.library import Library
from ..store.merge import (
    earlier_version,
    entry_keys,
    merge_entry,
    merge_record,
    new_record,
    record_keys,
    revise_entry,
    same_paper,
)
from ..store.record import Record, Source
from .report import IngestReport
from .spill import Parked, pack


class Batch:
    """Records touched by this ingest, and which identity key belongs to which of them.

    The records of the document being ingested are objects; once it is done they are
    parked (``Parked``: as JSON in a temporary file, unless the ingest is small) and come
    back to life if a later entry is the same paper."""

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
            # The key's hash, not its text (smaller). Two keys with one 64-bit hash would
            # at worst leave a paper unmerged: same_paper turns down the other paper's
            # record, and the first key to arrive keeps the hash.
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
        self.before[rid] = pack(record)
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

    def placed(self, source: Source) -> Record | None:
        """The record a paper was merged into (``papers merge``) that holds this very entry:
        its document ingested again finds the paper kept, not the one merged away."""
        rids = self.indexed(f"m:{source.document}:{source.line}")
        return self.get(rids[0]) if rids else None

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
        little, while an empty answer for each new paper's keys grew with the ingest."""
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
            record = self.find(entry) or self.placed(source)
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
        rid = ids.unique_id(  # (nor a merged paper's id, which still names the paper kept)
            base,
            lambda i: (
                i in self.records
                or i in self.parked
                or self.library.exists(i)
                or bool(self.indexed(f"i:{i}"))
            ),
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
