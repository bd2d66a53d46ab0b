"""Files that are whole or absent: atomic writes, stamps of a file's version, and file
names made from untrusted text."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


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
    if _stream(path):  # (-o /dev/stdout, a pipe: no file to keep whole; a rename would
        with open(path, "wb") as handle:  # put a file in the place of /dev/stdout)
            yield handle
        return
    path = Path(os.path.realpath(path))  # (a link to a file stays a link: its file replaced)
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


def _stream(path: Path) -> bool:
    """Whether *path* is a stream rather than a file: a pipe, a terminal, a device, or a
    name of the process's own descriptors (/dev/stdout, /dev/fd/1, /proc/self/fd/1)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return True
    except FileNotFoundError:
        return False
    return str(path.absolute()).startswith(("/dev/", "/proc/"))


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


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


def safe_file_name(name: str) -> str:
    """A file name made from untrusted text: no directories, no dots in front, no controls."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = re.sub(r"[^\w.\-+]+", "-", base, flags=re.ASCII).strip(".-")
    return base[:80] or "document"
