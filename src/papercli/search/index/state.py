"""What the index was last synced with: ``.index/state.json`` (schema version, the
``papers/`` folder's stamp, invalid records, and the size and mtime of each of Whoosh's
files as committed) and ``.index/stamps.json`` (each record file's stamp). A file that
is missing, damaged or not a mapping reads as empty: the index is then brought up to
date from the records, never trusted.

``.index/writing.json`` is there while a write is under way (see ``begin_write``): found
by a process that holds the library's lock, it says the last write did not finish.

Whoosh does not notice a file of its index overwritten with other bytes of the same
length: it reads wrong numbers and scores silently. The stamps of its files do: one
``scandir`` of ``.index`` when the index is opened."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from ...store.files import atomic_write


def read(folder: Path, name: str) -> dict:
    try:
        data = json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def damaged(folder: Path, name: str) -> bool:
    """Whether *name* is there but not what ``write`` writes (a mapping as JSON)."""
    return (folder / name).exists() and not read(folder, name)


def write(folder: Path, name: str, data: dict) -> None:
    atomic_write(folder / name, json.dumps(data, ensure_ascii=False).encode("utf-8"))


WRITING = "writing.json"


def begin_write(folder: Path) -> None:
    """Mark a write of the index as under way (by this process, since when)."""
    write(folder, WRITING, {"pid": os.getpid(), "since": int(time.time())})


def end_write(folder: Path) -> None:
    """The write is done: the state written describes the index."""
    (folder / WRITING).unlink(missing_ok=True)


def unfinished(folder: Path) -> dict | None:
    """What ``begin_write`` said of the write that did not finish, if one did not (ask
    only under the library's lock: a write under way looks the same)."""
    if not (folder / WRITING).exists():
        return None
    return read(folder, WRITING) or {"pid": None}


OWN = ("state.json", "stamps.json", "words.json", WRITING)  # ours, not Whoosh's
_TOC_RE = re.compile(r"^_\w+_(\d+)\.toc$")


def files(folder: Path) -> dict:
    """What ``state.json`` keeps of Whoosh's files: the committed generation, and the
    [size, mtime_ns] of each file (not its lock, not ours)."""
    stamps = {}
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file() and entry.name not in OWN and not entry.name.endswith("LOCK"):
                try:
                    st = entry.stat()
                except FileNotFoundError:
                    # Gone since the listing: a writer at work (Whoosh renames its new
                    # table of contents into place, and removes what it replaced).
                    continue
                stamps[entry.name] = [st.st_size, st.st_mtime_ns]
    return {"generation": _generation(stamps), "files": stamps}


def changed(folder: Path, saved: dict) -> str | None:
    """Why the index cannot be trusted if a file Whoosh committed was replaced, cut or
    removed since (its bytes rewritten, say), naming the first; None if none was. When a
    newer generation has been committed since (a writer at work, or one killed before it
    updated ``state.json``) there is nothing to compare."""
    kept = saved.get("files")
    if not isinstance(kept, dict) or not isinstance(kept.get("files"), dict):
        return None
    # A writer removes the files it replaced only once its new table of contents is in
    # place; a listing taken as it commits can miss the new table and the old files both.
    # A second look, taken after, sees the new table: only what both looks find counts.
    for _look in range(2):
        now = files(folder)
        if now["generation"] != kept.get("generation"):
            return None
        differ = sorted(n for n, stamp in kept["files"].items() if now["files"].get(n) != stamp)
        if not differ:
            return None
    name = differ[0]
    if name in now["files"]:
        return f"had a damaged file ({name} changed since papers wrote it)"
    return f"was missing a file ({name})"


def _generation(stamps: dict) -> int | None:
    numbers = [int(m.group(1)) for name in stamps if (m := _TOC_RE.match(name))]
    return max(numbers, default=None)
