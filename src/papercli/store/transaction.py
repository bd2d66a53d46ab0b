"""All-or-nothing writes of many files, journalled (see ``Transaction``)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Protocol

from ..errors import interruption
from .files import Stamp, atomic_write, fsync_dir, safe_file_name
from .record import ID_RE, Record
from .yamlio import dump_yaml

SYNC_EACH_FILE_UP_TO = 64  # larger batches flush with one os.sync() instead of an fsync each


class Folders(Protocol):
    """What a transaction needs of a library (``library.Library``): where it journals,
    where records and document copies land, and a record's file."""

    txn_dir: Path
    papers_dir: Path
    sources_dir: Path

    def record_path(self, rid: str) -> Path: ...


class Transaction:
    """All-or-nothing writes of record files, in the manner of a database journal.

    1. every record saved is written at once into ``.txn/new/`` (so a 100,000-paper ingest
       holds no file contents in memory);
    2. on commit the staged files are flushed to disk, then ``.txn/COMMIT`` (the list of
       files) is written and flushed: the commit point;
    3. each file is renamed into ``papers/``, and each removed record file unlinked; then
       ``.txn`` is removed.

    A failure inside the ``with`` block removes ``.txn``. A process killed before step 2
    leaves a ``.txn`` without ``COMMIT``: the next command deletes it (nothing happened).
    Killed after step 2: the next command finishes the renames (everything happened).
    Readers never see a half-written record file. A rename keeps a file's inode, size and
    mtime, so ``stamp`` tells, before the commit, the stamp the record file will have.
    """

    def __init__(self, library: Folders) -> None:
        self.library = library
        self.dir = library.txn_dir
        self.staged = self.dir / "new"
        self.staged_sources = self.dir / "sources"
        self.names: dict[str, None] = {}  # staged record file names, in order (a set)
        self.sources: list[str] = []  # staged source copies: "sources/<name>"

    def __enter__(self) -> Transaction:
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.commit()
        else:
            self.abort()

    def save(self, record: Record) -> bool:
        """Stage *record* for writing if its text changed; return whether it did."""
        path = self.library.record_path(record.id)
        data = dump_yaml(record.to_dict()).encode("utf-8")
        self.names.pop(f"-{path.name}", None)  # (saved after all: no longer removed)
        try:
            if path.read_bytes() == data:
                if self.names.pop(path.name, 0) is None:
                    os.unlink(self.staged / path.name)  # staged earlier in this transaction
                return False
        except FileNotFoundError:
            pass
        self._begin()
        with open(self.staged / path.name, "wb") as handle:
            handle.write(data)
        self.names[path.name] = None
        return True

    def remove(self, rid: str) -> None:
        """Stage the removal of *rid*'s record file: it goes at the commit, with the files
        saved, or not at all (a removal is journalled as ``-<id>.yaml``)."""
        path = self.library.record_path(rid)
        self._begin()
        if self.names.pop(path.name, 0) is None:
            os.unlink(self.staged / path.name)  # staged earlier in this transaction
        self.names[f"-{path.name}"] = None

    def remove_source(self, rel: str) -> None:
        """Stage the removal of a document copy (``sources/<name>``) no record will cite."""
        if not _journal_name(rel) or not rel.startswith("sources/"):
            raise ValueError(f"not a document copy of the library: {rel!r}")
        self._begin()
        self.names[f"-{rel}"] = None

    def _begin(self) -> None:
        if not self.staged.is_dir():
            if self.dir.exists():
                self.recover()  # left by a killed process (we hold the lock)
            self.staged.mkdir(parents=True)

    def adopt(self, pending: Path, rel: str) -> None:
        """Make a document copy written before the lock (``Library.stage_source``) part of
        this transaction: it reaches ``sources/`` with the records that cite it, or not at
        all."""
        self._begin()
        self.staged_sources.mkdir(exist_ok=True)
        os.replace(pending, self.staged_sources / Path(rel).name)
        self.sources.append(rel)

    def stamp(self, rid: str) -> Stamp:
        """The stamp the record file staged for *rid* will have once committed."""
        return Stamp.of(os.stat(self.staged / f"{rid}.yaml"))

    def commit(self) -> None:
        if not self.names:
            self.abort()
            return
        names = list(self.names)
        if len(names) <= SYNC_EACH_FILE_UP_TO:
            for name in (n for n in names if not n.startswith("-")):
                fd = os.open(self.staged / name, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        else:
            os.sync()
        fsync_dir(self.staged)
        if self.sources:
            fsync_dir(self.staged_sources)
        names = self.sources + names  # the copies first: a record never cites a missing one
        atomic_write(self.dir / "COMMIT", "\n".join(names).encode("utf-8"))
        try:
            self._apply(names)
        except BaseException as exc:
            # Ctrl-C or SIGTERM past the commit point (or an error after it): finish the
            # renames first (the handler ignores further signals meanwhile).
            if interruption(exc) is None:
                raise
            self._apply(names)
            raise
        finally:
            self.names, self.sources = {}, []

    def abort(self) -> None:
        """Forget every staged file (nothing of this transaction reaches ``papers/``)."""
        self.names, self.sources = {}, []
        if self.staged.is_dir() and not (self.dir / "COMMIT").exists():
            import shutil

            shutil.rmtree(self.dir)

    def _apply(self, names: list[str]) -> None:
        """Rename each staged file into place (``x.yaml`` into ``papers/``, ``sources/x``
        into ``sources/``); a file already moved by an earlier attempt is skipped."""
        papers, sources = self.library.papers_dir, self.library.sources_dir
        papers.mkdir(parents=True, exist_ok=True)
        for name in names:
            if name.startswith("-"):  # a removal (gone already after an earlier attempt)
                gone = name[1:]
                folder = sources if gone.startswith("sources/") else papers
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(folder / gone.removeprefix("sources/"))
                continue
            copy = name.startswith("sources/")
            if copy:
                sources.mkdir(exist_ok=True)
            staged = self.staged_sources / name[8:] if copy else self.staged / name
            if staged.exists():
                os.replace(staged, (sources / name[8:]) if copy else (papers / name))
        fsync_dir(papers)
        if any(name.startswith(("sources/", "-sources/")) for name in names):
            fsync_dir(sources)
        import shutil

        shutil.rmtree(self.dir)

    def recover(self) -> str:
        marker = self.dir / "COMMIT"
        if marker.exists():
            names = [n for n in marker.read_text("utf-8").split("\n") if _journal_name(n)]
            self._apply(names)
            records = sum(not n.startswith(("sources/", "-")) for n in names)
            removed = sum(n.startswith("-") and n.endswith(".yaml") for n in names)
            gone = f" and the removal of {removed}" if removed else ""
            return f"finished an interrupted write of {records} record{'s' * (records != 1)}{gone}"
        import shutil

        shutil.rmtree(self.dir)
        return "discarded an interrupted write that had not committed"


def _journal_name(name: str) -> bool:
    """A line of ``COMMIT`` that names a file of ours: never a path elsewhere."""
    name = name.removeprefix("-")  # (a removal)
    if name.startswith("sources/"):
        return safe_file_name(name[8:]) == name[8:] != ""
    return name.endswith(".yaml") and ID_RE.match(name[: -len(".yaml")]) is not None
