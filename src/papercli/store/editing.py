"""``papers edit ID``: change a record in your editor; it is saved only if it validates.

The record is copied to a temporary file and opened with ``$VISUAL`` or ``$EDITOR``. When
the editor exits, the text is checked exactly as ``papers`` reads records; a record that
does not validate is not saved (you may edit again, and your attempt is kept in the
temporary file). A valid edit is written as you wrote it (papers does not reformat your
YAML), atomically, and re-indexed. If the file changed on disk while you were editing,
nothing is overwritten. The temporary file is removed unless it holds an edit that was not
saved, and then the error says where it is.
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
    """Edit one record; return what happened ("saved", "unchanged"), or raise UsageError.

    The temporary copy is removed, unless it holds an edit that was not saved: the error
    then says where it is."""
    path = library.record_path(rid)
    original = path.read_bytes()
    fd, name = tempfile.mkstemp(prefix=f"papers-{rid}-", suffix=".yaml")
    scratch = Path(name)
    with os.fdopen(fd, "wb") as handle:
        handle.write(original)
    try:
        edited = _edit(scratch, original, rid, run_editor, again)
        if edited is None:
            scratch.unlink()
            return "unchanged"
        _save(library, path, original, edited, scratch)
        return "saved"
    except BaseException:  # (a copy with an unsaved edit stays: the errors say where)
        if _read(scratch) in (original, None):
            scratch.unlink(missing_ok=True)
        raise


def _edit(scratch: Path, original: bytes, rid: str, run_editor, again) -> bytes | None:
    """The edit made in *scratch* once it validates (None: no change), asking *again*
    whether to edit again when it does not."""
    name = f"{rid}.yaml"
    command = editor_command()
    run_editor = run_editor or (lambda p: subprocess.call([*command, str(p)]))
    while True:
        try:
            status = run_editor(scratch)
        except OSError as exc:  # (no such program, not executable)
            raise UsageError(
                f"cannot run the editor {shlex.join(command)!r} "
                f"({exc.strerror}): set $VISUAL or $EDITOR; {name} is "
                "unchanged"
            ) from None
        edited = _read(scratch)
        if edited is None:
            raise UsageError(f"the editor removed the copy it was editing; {name} is unchanged")
        if status != 0:
            kept = "" if edited == original else f"; your edit is in {scratch}"
            raise UsageError(f"the editor exited with status {status}; {name} is unchanged" + kept)
        if edited == original:
            return None
        try:
            validate(edited.decode("utf-8"), rid, name)
        except (RecordError, UnicodeDecodeError) as exc:
            if again(str(exc)):
                continue
            raise UsageError(f"{exc}; not saved (your edit is in {scratch})") from None
        return edited


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _save(library: Library, path: Path, original: bytes, edited: bytes, scratch: Path) -> None:
    """Write *edited* over *path* unless the file changed meanwhile, and re-index it."""
    from ..search.index.paper_index import PaperIndex

    with library.lock():
        if path.read_bytes() != original:
            raise UsageError(
                f"{path.name} changed on disk while you were editing; not saved "
                f"(your edit is in {scratch})"
            )
        atomic_write(path, edited)
        scratch.unlink()
        PaperIndex(library).open()  # the folder changed: the index syncs this record
