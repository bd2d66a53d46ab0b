"""The library on disk: record files and the all-or-nothing transaction that writes them."""

from __future__ import annotations

import pytest

from papercli.store.library import TXN_DIR, Library
from papercli.store.record import Record


def _record(rid: str, title: str = "A title") -> Record:
    return Record(id=rid, title=title, venue="ICLR", year=2026)


def _files(library: Library) -> dict[str, bytes]:
    if not library.papers_dir.exists():
        return {}
    return {p.name: p.read_bytes() for p in sorted(library.papers_dir.iterdir())}


def test_save_stages_the_file_at_once_and_keeps_no_contents(tmp_library):
    with tmp_library.transaction() as txn:
        assert txn.save(_record("iclr2026-a"))
        staged = tmp_library.root / TXN_DIR / "new" / "iclr2026-a.yaml"
        assert staged.read_text("utf-8").startswith("id: iclr2026-a\n")
        assert list(txn.names) == ["iclr2026-a.yaml"]
        assert not hasattr(txn, "writes")  # names only: no bytes held for a big ingest
        assert _files(tmp_library) == {}  # nothing visible before the commit
    assert list(_files(tmp_library)) == ["iclr2026-a.yaml"]
    assert not (tmp_library.root / TXN_DIR).exists()


def test_a_failure_inside_the_block_writes_nothing_and_removes_the_stage(tmp_library):
    with tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a"))
    before = _files(tmp_library)
    with pytest.raises(RuntimeError), tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a", "Changed"))
        txn.save(_record("iclr2026-b"))
        raise RuntimeError("a later document was unusable")
    assert _files(tmp_library) == before
    assert not (tmp_library.root / TXN_DIR).exists()


def test_the_staged_stamp_is_the_committed_files_stamp(tmp_library):
    with tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a"))
        staged = txn.stamp("iclr2026-a")
    assert tmp_library.stamp("iclr2026-a") == staged  # a rename keeps inode, size and mtime


def test_unchanged_records_are_not_staged_and_a_revert_unstages(tmp_library):
    with tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a"))
    with tmp_library.transaction() as txn:
        assert not txn.save(_record("iclr2026-a"))
        assert txn.save(_record("iclr2026-a", "Changed"))
        assert not txn.save(_record("iclr2026-a"))  # back to what the file says
        assert txn.names == {}
        assert not (tmp_library.root / TXN_DIR / "new" / "iclr2026-a.yaml").exists()
    assert b"title: A title\n" in _files(tmp_library)["iclr2026-a.yaml"]


def test_a_stage_left_by_a_killed_process_is_discarded_before_staging(tmp_library):
    leftover = tmp_library.root / TXN_DIR / "new"
    leftover.mkdir(parents=True)
    (leftover / "iclr2026-ghost.yaml").write_text("id: iclr2026-ghost\n", "utf-8")
    with tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a"))
    assert list(_files(tmp_library)) == ["iclr2026-a.yaml"]  # no COMMIT: the ghost never was


KILLED_AT = """
import os, signal, sys
from pathlib import Path
from papercli.store import transaction
from papercli.store.library import Library
from papercli.store.record import Record

point = sys.argv[2]
if point == "after-commit":  # COMMIT written, no file renamed or unlinked yet
    transaction.Transaction._apply = lambda self, names: os.kill(os.getpid(), signal.SIGKILL)
else:  # killed while flushing the staged files, before COMMIT
    transaction.fsync_dir = lambda path: os.kill(os.getpid(), signal.SIGKILL)
library = Library(Path(sys.argv[1]))
with library.transaction() as txn:
    txn.save(Record(id="iclr2026-a", title="A merged", venue="ICLR", year=2026))
    txn.remove("iclr2026-b")
    txn.remove_source("sources/b-0123.txt")
"""


@pytest.mark.parametrize("point", ["before-commit", "after-commit"])
def test_a_removal_killed_lands_whole_or_not_at_all(tmp_library, point):
    """papers remove and merge: SIGKILL on either side of the commit point, and the next
    command finishes or discards the save, the removal and the copy's removal together."""
    import signal
    import subprocess
    import sys

    with tmp_library.transaction() as txn:
        txn.save(_record("iclr2026-a"))
        txn.save(_record("iclr2026-b"))
    tmp_library.sources_dir.mkdir()
    (tmp_library.sources_dir / "b-0123.txt").write_text("a copy", "utf-8")
    before = _files(tmp_library)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AT, str(tmp_library.root), point], capture_output=True
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _files(tmp_library) == before  # nothing visible yet, either way
    said = tmp_library.recover()
    copies = sorted(p.name for p in tmp_library.sources_dir.iterdir())
    if point == "after-commit":
        assert said == "finished an interrupted write of 1 record and the removal of 1"
        assert list(_files(tmp_library)) == ["iclr2026-a.yaml"] and copies == []
        assert b"title: A merged\n" in _files(tmp_library)["iclr2026-a.yaml"]
    else:
        assert said == "discarded an interrupted write that had not committed"
        assert _files(tmp_library) == before and copies == ["b-0123.txt"]
    assert not (tmp_library.root / TXN_DIR).exists()


def test_an_atomic_write_to_a_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path):
    """``papers export -o /dev/stdout`` (a symlink to a pipe or terminal): renaming a new
    file over it replaced /dev/stdout itself with a regular file (as root) and wrote
    nothing to the output."""
    import os
    import stat

    from papercli.store.files import atomic_write

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "stdout"
    link.symlink_to(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write(link, b"@article{a,}\n")
        assert os.read(reader, 100) == b"@article{a,}\n"
    finally:
        os.close(reader)
    assert link.is_symlink() and stat.S_ISFIFO(os.stat(link).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "stdout"]  # (no leftover)


def test_an_export_to_dev_stdout_redirected_to_a_file_fills_that_file(bundled_copy, tmp_path):
    """``papers export muon -o /dev/stdout > refs.bib``: /dev/stdout is then the regular
    file refs.bib; the entries go into it, and /dev/stdout stays the link it was."""
    import os
    import subprocess

    from testing import PAPERS

    out = tmp_path / "refs.bib"
    argv = [PAPERS, "--library", str(bundled_copy), "export", "muon"]
    with open(out, "wb") as handle:
        done = subprocess.run(
            [*argv, "-o", "/dev/stdout", "--format", "bibtex"],
            stdout=handle,
            stderr=subprocess.PIPE,
        )
    assert done.returncode == 0, done.stderr
    assert out.read_text("utf-8").count("@") == 4
    assert os.path.islink("/dev/stdout")
