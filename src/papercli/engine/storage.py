"""Where an index's writers keep their temporary files: a folder of each process's own.

Whoosh gives every writer of an index the one folder ``MAIN.tmp``, and each writer that
finishes empties and removes it. The indexing processes of one write then shared it:
their posting pools wrote, read and deleted each other's runs (an ingest of 10,000 papers
failed 5 times in 13). Here a process's writers use ``MAIN.<pid>.<token>.tmp``, and every
file in it is named by the writer that made it (pool runs, batches of documents).

Only one process writes an index at a time (the library's lock), so once the lock is
taken every temporary folder in the index is a dead writer's: ``discard_leftovers``
removes them with the segment files no committed table of contents names.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from whoosh.filedb.filestore import FileStorage

INDEX_NAME = "MAIN"  # (Whoosh's default)
_TOKENS: dict[int, str] = {}  # pid -> this process's token (a forked child makes its own)


def process_token() -> str:
    """A token of this process: with the pid, it names the process's temporary folder."""
    return _TOKENS.setdefault(os.getpid(), os.urandom(4).hex())


class IndexStorage(FileStorage):
    """Whoosh's ``FileStorage``, whose temporary storage is private to the process."""

    def temp_storage(self, name=None):
        base = (name or INDEX_NAME).removesuffix(".tmp")
        folder = os.path.join(self.folder, f"{base}.{os.getpid()}.{process_token()}.tmp")
        return FileStorage(folder).create()


def open_index(folder: Path):
    """The index in *folder* (``whoosh.index.open_dir``, with ``IndexStorage``)."""
    return IndexStorage(str(folder)).open_index(INDEX_NAME)


def create_index(folder: Path, schema):
    """A new, empty index in *folder* (``whoosh.index.create_in``, with ``IndexStorage``)."""
    return IndexStorage(str(folder)).create_index(schema, INDEX_NAME)


def leftovers(folder: Path, own: bool = False) -> list[str]:
    """What dead writers left in the index *folder* (names, sorted): temporary folders, and
    the files of segments and tables of contents the committed one does not name (as
    Whoosh's ``clean_files`` judges them). Only meaningful under the library's lock: a
    live writer's files look the same. This process's own folder is one only if *own*
    (its writer has ended: cancelled, say)."""
    from whoosh.index import TOC

    mine = f"{INDEX_NAME}.{os.getpid()}.{process_token()}.tmp"  # (this process's: in use)
    found = [p.name for p in folder.glob("*.tmp") if p.is_dir() and (own or p.name != mine)]
    storage = IndexStorage(str(folder))
    try:
        toc = TOC.read(storage, INDEX_NAME)
    except Exception:  # (no readable table of contents: its files cannot be judged)
        return sorted(found)
    live = {segment.segment_id() for segment in toc.segments}
    tocs, segments = TOC._pattern(INDEX_NAME), TOC._segment_pattern(INDEX_NAME)
    for name in storage:
        if ((m := tocs.match(name)) and int(m.group(1)) != toc.generation) or (
            (m := segments.match(name)) and m.group(1) not in live
        ):
            found.append(name)
    return sorted(found)


def discard_leftovers(folder: Path, own: bool = False) -> list[str]:
    """Remove ``leftovers(folder, own)``; return their names. Under the library's lock."""
    found = leftovers(folder, own)
    for name in found:
        path = folder / name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return found
