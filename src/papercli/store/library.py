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
from dataclasses import dataclass
from pathlib import Path

from ..errors import RecordError, UsageError
from .record import ID_RE, Record

ENV_VAR = "PAPERS_LIBRARY"


def default_location() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("papers", appauthor=False))


def resolve_location(option: str | os.PathLike | None) -> Path:
    """``--library`` wins, then ``$PAPERS_LIBRARY``, then the platform's user data folder."""
    if option:
        return Path(option).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_location()


# --- YAML --------------------------------------------------------------------------------


def _yaml():
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml, loader, dumper


def dump_yaml(data: dict) -> str:
    yaml, _loader, dumper = _yaml()
    return yaml.dump(
        data,
        Dumper=dumper,
        allow_unicode=True,
        sort_keys=False,
        default_flow_style=False,
        width=100,
    )


def load_yaml(text: str, where: str):
    yaml, loader, _dumper = _yaml()
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise RecordError(f"{where}{line}: {problem}") from None


# --- atomic files ------------------------------------------------------------------------


def atomic_write(path: Path, data: bytes) -> None:
    """Write *data* to *path* so that readers see the old or the new file, never a mix."""
    with atomic_writer(path) as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator:
    """A binary file handle whose content replaces *path* only when the block completes:
    written to a temporary file beside it, flushed to disk, then renamed over it.

    The file gets the permissions a shell redirect would give it (0666 less the umask),
    or keeps those of the file it replaces (``tempfile.mkstemp`` would make it 0600)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _new_temporary(path)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.fchmod(fd, os.stat(path).st_mode & 0o7777)
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _new_temporary(path: Path) -> tuple[int, str]:
    """A new file beside *path*, created with mode 0666 so that the umask applies."""
    import secrets  # (imported here: a search never writes a file)

    for _attempt in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


# --- transactions ------------------------------------------------------------------------

TXN_DIR = ".txn"
PENDING = "sources/.pending"  # sources/.pending/<pid>/: copies written before the write lock
SYNC_EACH_FILE_UP_TO = 64  # larger batches flush with one os.sync() instead of an fsync each


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Transaction:
    """All-or-nothing writes of record files, in the manner of a database journal.

    1. every record saved is written at once into ``.txn/new/`` (so a 100,000-paper ingest
       holds no file contents in memory);
    2. on commit the staged files are flushed to disk, then ``.txn/COMMIT`` (the list of
       files) is written and flushed: the commit point;
    3. each file is renamed into ``papers/``; then ``.txn`` is removed.

    A failure inside the ``with`` block removes ``.txn``. A process killed before step 2
    leaves a ``.txn`` without ``COMMIT``: the next command deletes it (nothing happened).
    Killed after step 2: the next command finishes the renames (everything happened).
    Readers never see a half-written record file. A rename keeps a file's inode, size and
    mtime, so ``stamp`` tells, before the commit, the stamp the record file will have.
    """

    def __init__(self, library: Library) -> None:
        self.library = library
        self.dir = library.root / TXN_DIR
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
            for name in names:
                fd = os.open(self.staged / name, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        else:
            os.sync()
        _fsync_dir(self.staged)
        if self.sources:
            _fsync_dir(self.staged_sources)
        names = self.sources + names  # the copies first: a record never cites a missing one
        atomic_write(self.dir / "COMMIT", "\n".join(names).encode("utf-8"))
        self._apply(names)
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
            copy = name.startswith("sources/")
            if copy:
                sources.mkdir(exist_ok=True)
            staged = self.staged_sources / name[8:] if copy else self.staged / name
            if staged.exists():
                os.replace(staged, (sources / name[8:]) if copy else (papers / name))
        _fsync_dir(papers)
        if any(name.startswith("sources/") for name in names):
            _fsync_dir(sources)
        import shutil

        shutil.rmtree(self.dir)

    def recover(self) -> str:
        marker = self.dir / "COMMIT"
        if marker.exists():
            names = [n for n in marker.read_text("utf-8").split("\n") if _journal_name(n)]
            self._apply(names)
            records = sum(not n.startswith("sources/") for n in names)
            return f"finished an interrupted write of {records} records"
        import shutil

        shutil.rmtree(self.dir)
        return "discarded an interrupted write that had not committed"


def _journal_name(name: str) -> bool:
    """A line of ``COMMIT`` that names a file of ours: never a path elsewhere."""
    if name.startswith("sources/"):
        return safe_file_name(name[8:]) == name[8:]
    return name.endswith(".yaml") and ID_RE.match(name[: -len(".yaml")]) is not None


# --- the library -------------------------------------------------------------------------


@dataclass(frozen=True)
class Stamp:
    """What identifies one version of a record file without reading it."""

    mtime_ns: int
    size: int
    inode: int

    @classmethod
    def of(cls, st: os.stat_result) -> Stamp:
        return cls(st.st_mtime_ns, st.st_size, st.st_ino)

    def as_list(self) -> list[int]:
        return [self.mtime_ns, self.size, self.inode]


class Library:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.papers_dir = self.root / "papers"
        self.sources_dir = self.root / "sources"
        self.index_dir = self.root / ".index"
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
        return Transaction(self)

    def recover(self) -> str | None:
        """Finish or undo a transaction a killed process left behind; say which, if any.

        Also removes document copies a killed ingest left pending (``stage_source``).
        Costs two ``stat`` calls when there is nothing to do. Runs only when no other
        process holds the write lock (a live writer's transaction is not an orphan).
        """
        if not (self.root / TXN_DIR).exists() and not (self.root / PENDING).exists():
            return None
        with self.try_lock() as locked:
            if not locked:
                return None
            done = [Transaction(self).recover()] if (self.root / TXN_DIR).exists() else []
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

            self.root.mkdir(parents=True, exist_ok=True)
            self._lock = FileLock(str(self.root / ".lock"))
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
        try:
            yield True
        finally:
            lock.release()


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


def safe_file_name(name: str) -> str:
    """A file name made from untrusted text: no directories, no dots in front, no controls."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = re.sub(r"[^\w.\-+]+", "-", base, flags=re.ASCII).strip(".-")
    return base[:80] or "document"
