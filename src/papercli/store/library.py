"""The library on disk: one YAML file per paper, copies of the source documents, a lock.

    <library>/
        papers/<id>.yaml      one record per paper (the truth; the index is derived from it)
        sources/<name>-<sha>  byte-exact copies of every ingested document
        .index/               the Whoosh index and its freshness state (see ``index``)
        .lock                 held by commands that write

Records are written atomically (temporary file, fsync, rename) and only when their text
changes, so re-ingesting a document leaves every file, and its mtime, untouched. They are
read with a safe YAML loader only (LibYAML's C loader where present).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import RecordError, UsageError
from .files import Stamp, atomic_write, safe_file_name
from .record import ID_RE, Record
from .yamlio import load_yaml

if TYPE_CHECKING:
    from .transaction import Transaction

TXN_DIR = ".txn"  # a transaction in progress (see ``transaction``)
PENDING = "sources/.pending"  # sources/.pending/<pid>/: copies written before the write lock


class Library:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.papers_dir = self.root / "papers"
        self._papers_prefix = f"{self.papers_dir}{os.sep}"
        self.sources_dir = self.root / "sources"
        self.index_dir = self.root / ".index"
        self.txn_dir = self.root / TXN_DIR
        self.lock_file = self.root / ".lock"
        self._lock = None
        self.on_wait: Callable[[], None] | None = None  # told when the lock is busy

    def __repr__(self) -> str:
        return f"Library({str(self.root)!r})"

    # -- records ---------------------------------------------------------------------------

    def record_path(self, rid: str) -> Path:
        if not ID_RE.match(rid):
            raise UsageError(f"not a paper id: {rid!r}")
        return self.papers_dir / f"{rid}.yaml"

    def exists(self, rid: str) -> bool:
        return ID_RE.match(rid) is not None and self.record_path(rid).is_file()

    def load(self, rid: str) -> Record:
        return self.load_path(self.record_path(rid))

    def load_path(self, path: Path) -> Record:
        where = (
            f"{self.root.name}/papers/{path.name}" if path.parent == self.papers_dir else str(path)
        )
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{where}: not UTF-8 (byte {exc.start})") from None
        try:
            record = Record.from_dict(load_yaml(text, where), where)
        except RecordError as exc:
            raise RecordError(_with_line(str(exc), where, text)) from None
        if path.parent == self.papers_dir and path.stem != record.id:
            line = _key_line(text, "id")
            raise RecordError(f"{where} line {line}: id {record.id!r} does not match the file name")
        return record

    def save(self, record: Record) -> bool:
        """Write one record if its text changed (atomically); return whether it was written.

        Commands that write several records use ``transaction()`` instead.
        """
        with self.transaction() as txn:
            return txn.save(record)

    def transaction(self) -> Transaction:
        """Several record writes that land all together or not at all (see ``Transaction``)."""
        from .transaction import Transaction  # (a search never writes)

        return Transaction(self)

    def recover(self) -> str | None:
        """Finish or undo a transaction a killed process left behind; say which, if any.

        Also removes document copies a killed ingest left pending (``stage_source``).
        Costs two ``stat`` calls when there is nothing to do. Runs only when no other
        process holds the write lock (a live writer's transaction is not an orphan).
        """
        if not self.txn_dir.exists() and not (self.root / PENDING).exists():
            return None
        with self.try_lock() as locked:
            if not locked:
                return None
            done = [self.transaction().recover()] if self.txn_dir.exists() else []
            copies = self.clean_pending()
            if copies:
                noun = "copy" if copies == 1 else "copies"
                done.append(f"removed {copies} document {noun} left by an interrupted ingest")
            return "; ".join(done) or None

    def record_files(self) -> Iterator[os.DirEntry]:
        """Every ``*.yaml`` entry of ``papers/`` (unsorted: one scandir, no reads)."""
        try:
            with os.scandir(self.papers_dir) as entries:
                for entry in entries:
                    if entry.name.endswith(".yaml") and not entry.name.startswith("."):
                        yield entry
        except FileNotFoundError:
            return

    def stamp(self, rid: str) -> Stamp | None:
        try:
            return Stamp.of(os.stat(self.record_path(rid)))
        except FileNotFoundError:
            return None

    def stamp_list(self, rid: str) -> list[int] | None:
        """``stamp(rid).as_list()`` for an id the index holds (checked when it was indexed):
        a listing asks once a hit, and the checks and ``Path`` took 3/4 of its 17 us."""
        try:
            st = os.stat(f"{self._papers_prefix}{rid}.yaml")
        except FileNotFoundError:
            return None
        return [st.st_mtime_ns, st.st_size, st.st_ino]

    def papers_dir_stamp(self) -> list[int] | None:
        try:
            st = os.stat(self.papers_dir)
        except FileNotFoundError:
            return None
        return [st.st_mtime_ns, st.st_ino]

    # -- source documents -------------------------------------------------------------------

    def source_name(self, name: str, data: bytes) -> str:
        """The library-relative path of the copy of a document: named after the document
        and its content hash, so two versions of a file with the same name are both kept."""
        import hashlib

        digest = hashlib.sha256(data).hexdigest()[:12]
        stem, dot, ext = safe_file_name(name).rpartition(".")
        if not dot or not stem or len(ext) > 8:
            stem, ext = safe_file_name(name), "txt"
        return f"sources/{stem}-{digest}.{ext}"

    def stage_source(self, name: str, data: bytes) -> tuple[str, Path]:
        """Write a byte-exact copy of an ingested document, before the write lock is taken
        (so the bytes need not wait in memory). Returns its library-relative path and
        where it is now: there already (the same bytes were ingested before), or pending
        in ``sources/.pending/<pid>/`` until a transaction adopts it (``adopt``).

        A copy left pending by a killed process is removed by the next command that finds
        the write lock free (``recover``), or by ``papers doctor --fix``."""
        rel = self.source_name(name, data)
        target = self.root / rel
        if target.exists():
            return rel, target
        pending = self.pending_dir() / target.name
        atomic_write(pending, data)
        return rel, pending

    def pending_dir(self, pid: int | None = None) -> Path:
        return self.root / PENDING / str(pid or os.getpid())

    def stale_pending(self) -> list[Path]:
        """Pending copies of processes that are gone (an interrupted or killed ingest)."""
        out = []
        with contextlib.suppress(FileNotFoundError), os.scandir(self.root / PENDING) as entries:
            out += [Path(e.path) for e in entries if not (e.name.isdigit() and _alive(int(e.name)))]
        return sorted(out)

    def clean_pending(self, folders: list[Path] | None = None) -> int:
        """Remove pending copies of processes that are gone (or the given *folders*);
        return how many copies were removed."""
        import shutil

        removed = 0
        for folder in self.stale_pending() if folders is None else folders:
            removed += sum(1 for _ in folder.iterdir()) if folder.is_dir() else 0
            shutil.rmtree(folder, ignore_errors=True)
        with contextlib.suppress(OSError):
            (self.root / PENDING).rmdir()  # unless another ingest is waiting with its copies
        return removed

    # -- locking ----------------------------------------------------------------------------

    def _filelock(self):
        """One reentrant ``filelock.FileLock`` per ``Library``: an OS-level ``flock``, so a
        killed process leaves no lock behind."""
        if self._lock is None:
            from filelock import FileLock

            if self.lock_file.is_dir():  # (filelock would fail with "Is a directory")
                raise UsageError(
                    f"{self.lock_file} is a directory, not the library's lock "
                    "file: no command can write the library until it is removed "
                    "(papers doctor --fix removes it when empty)"
                )
            self.lock_file.parent.mkdir(parents=True, exist_ok=True)
            self._lock = FileLock(str(self.lock_file))
        return self._lock

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """The write lock. If another process holds it, call ``on_wait`` once, then wait."""
        from filelock import Timeout

        lock = self._filelock()
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if self.on_wait is not None:
                self.on_wait()
            lock.acquire()
        try:
            if lock.lock_counter == 1:  # the first writer since a killed one cleans up
                self.clean_pending()
            yield
        finally:
            lock.release()

    @contextlib.contextmanager
    def try_lock(self) -> Iterator[bool]:
        """Take the write lock if it is free; yield whether it was taken."""
        from filelock import Timeout

        lock = self._filelock()
        try:
            lock.acquire(timeout=0)
        except Timeout:
            yield False
            return
        except OSError:  # a library one cannot write (read-only, or another user's)
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    def writable(self) -> bool:
        """Whether this process may write to the library (a read-only mount, a shared folder
        of another user's, a ``cp -a`` copy without write permission may not)."""
        return os.access(self.root, os.W_OK) and (
            not self.papers_dir.exists() or os.access(self.papers_dir, os.W_OK)
        )

    def read_only_view(self, folder: Path) -> Library:
        """This library's records, with its index, lock and other state kept in *folder*:
        how a library one cannot write is searched once its own index is out of date."""
        view = Library(self.root)
        view.index_dir = folder / "index"
        view.lock_file = folder / "lock"
        return view


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _key_line(text: str, key: str) -> int:
    m = re.search(rf"^{re.escape(key)}\s*:", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _with_line(message: str, where: str, text: str) -> str:
    """``x.yaml.year must be …`` → ``x.yaml line 5: year must be …`` (the line of the key)."""
    if "line " in message[len(where) : len(where) + 6] or not message.startswith(where):
        return message
    rest = message[len(where) :].lstrip(".:").strip()
    m = re.match(r"(\w+)", rest) if message[len(where)] == "." else None
    m = m or re.search(r"(?:unknown field|') ?'?(\w+)'", rest)
    line = _key_line(text, m.group(1)) if m else 1
    return f"{where} line {line}: {rest}"
