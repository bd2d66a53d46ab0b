"""Keeping the index in step with ``papers/`` (the freshness rule, as docs/library.md has it).

- ``.index/state.json`` remembers the ``papers/`` folder's mtime and inode as of the last
  sync. Every command compares them with one ``stat``: any record added, removed or
  replaced through a rename (papers itself, most editors, git) changes them, and the
  command then syncs: one ``scandir`` of ``papers/`` against ``.index/stamps.json``
  (mtime, size, inode of every record file), re-reading only the files that changed.
- A record edited in place (which leaves the folder untouched) is caught when it is about
  to be shown: every hit's stored stamp is compared with a ``stat`` of its file, and a
  changed record is re-read, re-indexed and the query run again (``refresh_stale``).
- ``papers index`` syncs unconditionally; ``papers index --rebuild`` starts from scratch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...errors import RecordError
from ...progress import Progress, quiet
from ...store.files import Stamp
from ...store.record import Record
from . import state
from .schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from .folder import IndexFolder


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    removed: int = 0
    invalid: dict[str, str] = field(default_factory=dict)  # file name -> message

    @property
    def changed(self) -> int:
        return self.added + self.updated + self.removed


def sync(index: IndexFolder, full: bool = False, progress: Progress = quiet) -> SyncReport:
    """Bring the index in line with ``papers/``: one scandir, reads only changed files."""
    papers_stamp = index.library.papers_dir_stamp()
    old = {} if full else state.read(index.dir, "stamps.json")
    seen: dict[str, list[int]] = {}
    changed: list[str] = []
    for entry in index.library.record_files():
        stamp = Stamp.of(entry.stat()).as_list()
        seen[entry.name] = stamp
        if old.get(entry.name) != stamp:
            changed.append(entry.name)
    removed = [name for name in old if name not in seen]
    report = SyncReport()
    changed_set = set(changed)
    # An invalid record stays listed until its file changes or goes.
    index.invalid = {k: v for k, v in index.invalid.items() if k in seen and k not in changed_set}
    if not (full or changed or removed):
        state.write(index.dir, "stamps.json", seen)
        # (what else the state says stays: the glossary the index was made with; without
        # it, the next command rebuilt the whole index)
        saved = state.read(index.dir, "state.json")
        saved.update(
            version=SCHEMA_VERSION,
            papers_dir=papers_stamp,
            invalid=index.invalid,
            files=state.files(index.dir),
        )
        state.write(index.dir, "state.json", saved)
        state.end_write(index.dir)
        return report
    # When most records changed (a copied library has new inodes), start afresh: updating
    # each would leave the deleted versions in Whoosh's length statistics, and scores
    # would differ from those of the same records indexed once.
    rebuild = full or len(changed) > len(old) // 2
    todo = sorted(seen) if rebuild else sorted(changed)
    from .writer import open_writer  # (a search never writes)

    # Records are read and indexed one at a time: a rebuild holds no list of them.
    with open_writer(index, len(todo), papers_stamp, rebuild, progress) as writer:
        for name in [] if rebuild else removed:
            writer.delete(name[: -len(".yaml")])
        with progress(len(todo), "indexing") as advance:
            for name in todo:
                advance()
                _index_file(index, writer, name, seen, old, report, rebuild)
    report.removed += len(removed)
    report.invalid = index.invalid
    return report


def _index_file(
    index: IndexFolder, writer, name: str, seen: dict, old: dict, report: SyncReport, rebuild: bool
) -> None:
    """Index one record file for ``sync``; an invalid one is listed, and no longer found."""
    try:
        record = index.library.load_path(index.library.papers_dir / name)
    except (RecordError, OSError) as exc:
        index.invalid[name] = str(exc)  # not searchable until fixed
        if name in old:
            if not rebuild:
                writer.delete(name[: -len(".yaml")])
            report.removed += 1
        return
    known = name in old
    writer.upsert(record, Stamp(*seen[name]), known_new=rebuild or not known)
    if not known:
        report.added += 1
    elif old[name] != seen[name]:
        report.updated += 1


def refresh_stale(index: IndexFolder, stored: dict[str, list[int]]) -> bool:
    """Re-index the records among *stored* (id -> indexed stamp) whose files changed.

    Returns whether any had changed. This is what keeps a record edited in place from
    ever being shown stale: it costs one ``stat`` per record about to be shown.
    """
    upserts, removed = [], []
    for rid, indexed in stored.items():
        stamp = index.library.stamp(rid)
        if stamp is None:
            removed.append(rid)
        elif stamp.as_list() != indexed:
            try:
                upserts.append((index.library.load(rid), stamp))
            except RecordError as exc:
                index.invalid[f"{rid}.yaml"] = str(exc)
                removed.append(rid)
    if not upserts and not removed:
        return False
    with index.library.try_lock() as locked:
        if not locked:
            return False  # a writer is busy; show what was committed
        apply(index, upserts, removed)
    return True


def apply(
    index: IndexFolder,
    upserts: list[tuple[Record, Stamp]],
    removed: list[str],
    papers_dir=None,
    new: frozenset[str] = frozenset(),
    progress: Progress = quiet,
) -> None:
    """Write index changes, then the stamps and state that describe them."""
    from .writer import open_writer

    with open_writer(index, len(upserts), papers_dir, progress=progress) as writer:
        for rid in removed:
            writer.delete(rid)
        with progress(len(upserts), "indexing") as advance:
            for record, stamp in upserts:
                advance()
                writer.upsert(record, stamp, known_new=record.id in new)


def write(
    index: IndexFolder,
    records: Iterable[Record],
    new: frozenset[str] = frozenset(),
    progress=quiet,
    removed: Iterable[str] = (),
) -> None:
    """Index records that were just saved (under the library lock) and forget those just
    *removed*; *new* names the ids that are not in the index yet (added without looking
    for an old version)."""
    upserts = []
    for record in records:
        stamp = index.library.stamp(record.id)
        if stamp is not None:
            upserts.append((record, stamp))
    apply(
        index,
        upserts,
        list(removed),
        papers_dir=index.library.papers_dir_stamp(),
        new=new,
        progress=progress,
    )
