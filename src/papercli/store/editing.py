"""``papers edit ID``: change a record in your editor; it is saved only if it validates.

The record is copied to a temporary file and opened with ``$VISUAL`` or ``$EDITOR``. When
the editor exits, the text is checked exactly as ``papers`` reads records; a record that
does not validate is not saved (you may edit again, and your attempt is kept in the
temporary file). A valid edit is written as you wrote it (papers does not reformat your
YAML), atomically, and re-indexed. If the file changed on disk while you were editing,
nothing is overwritten.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..errors import RecordError, UsageError
from .files import atomic_write
from .library import Library
from .record import Record
from .yamlio import load_yaml


def editor_command() -> list[str]:
    return shlex.split(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi")


def validate(text: str, rid: str, where: str) -> Record:
    record = Record.from_dict(load_yaml(text, where), where)
    if record.id != rid:
        raise RecordError(f"{where}: the id cannot change here ({rid} → {record.id})")
    return record


def edit_record(
    library: Library,
    rid: str,
    run_editor: Callable[[Path], int] | None = None,
    again: Callable[[str], bool] = lambda message: False,
) -> str:
    """Edit one record; return what happened ("saved", "unchanged"), or raise UsageError."""
    from ..search.index import PaperIndex

    path = library.record_path(rid)
    original = path.read_bytes()
    run_editor = run_editor or (lambda p: subprocess.call([*editor_command(), str(p)]))
    fd, name = tempfile.mkstemp(prefix=f"papers-{rid}-", suffix=".yaml")
    scratch = Path(name)
    with os.fdopen(fd, "wb") as handle:
        handle.write(original)
    while True:
        status = run_editor(scratch)
        if status != 0:
            raise UsageError(f"the editor exited with status {status}; {path.name} is unchanged")
        edited = scratch.read_bytes()
        if edited == original:
            scratch.unlink()
            return "unchanged"
        try:
            validate(edited.decode("utf-8"), rid, path.name)
        except (RecordError, UnicodeDecodeError) as exc:
            if again(str(exc)):
                continue
            raise UsageError(f"{exc}; not saved (your edit is in {scratch})") from None
        break
    with library.lock():
        if path.read_bytes() != original:
            raise UsageError(
                f"{path.name} changed on disk while you were editing; not saved "
                f"(your edit is in {scratch})"
            )
        atomic_write(path, edited)
        PaperIndex(library).open()  # the folder changed: the index syncs this record
    scratch.unlink()
    return "saved"
