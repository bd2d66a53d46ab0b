"""The ingest itself: parse every document, then merge, tag, save and index, all or
nothing."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from ..parsers import STDIN, parse_bytes, parse_file, parse_stream
from ..progress import Progress, quiet
from ..search.index.paper_index import PaperIndex
from ..store.library import Library
from ..store.record import Source
from ..tags.tagging import apply_tags, auto_tags, keep_keywords
from ..tags.taxonomy import Taxonomy, load_taxonomy
from .batch import Batch
from .report import DocumentReport, IngestReport
from .spill import Parked, pack

# An ingest of documents up to this many bytes (in all) keeps what it made in memory: each
# document's entries from the first parse, instead of parsing it again while merging, and
# its records until they are saved, instead of parking them on disk (``Parked``). Parsing
# again and parking cost time; holding costs ~7 bytes of memory a byte of document.
KEEP_PARSED = 16 << 20


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
    # are within KEEP_PARSED bytes in all, their entries are then let go (as soon as the
    # bytes read pass the limit) and each document is parsed again, one at a time, from
    # its copy while merging: memory stays bounded however many papers come. Each copy is
    # staged as soon as its document is parsed, so that no document's bytes are held to
    # the end. Copies wait in sources/.pending/<pid>/ until the transaction that cites
    # them commits, and go if any document is unusable.
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
                        if (before is None or before != pack(data)) and txn.save(record):
                            writer.upsert(record, txn.stamp(rid), before is None, data)
                            report.written += 1
                with progress(None, "writing the records"):  # (flushing 10,000 files: seconds)
                    txn.commit()
            writer.papers_dir = library.papers_dir_stamp()
    return report
