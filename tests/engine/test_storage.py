"""Temporary files of the index's writers: each process's own, named by the writer that
made them, and what dead writers leave found and removed."""

from __future__ import annotations

import os

from whoosh.writing import SegmentWriter

from papercli.engine import storage
from papercli.engine.pool import install
from papercli.search.index.schema import make_schema


def _postings(k: int, n: int = 4000) -> list[tuple]:
    """Postings only process *k* adds: terms of its own, in docnum order."""
    return sorted(("abstract", f"t{k}-{i % 700}".encode(), i, 1.0, None) for i in range(n))


def _spill_then_read(ix, k: int, spilled: int, go: int) -> int:
    """In a forked child: add postings to a pool that spills, say so, wait for the other
    child to have spilled too, then read every posting back. 0 when they are its own."""
    writer = SegmentWriter(ix, _lk=False)  # (as an indexing process opens its writer)
    install(writer, 0.01)
    items = _postings(k)
    for item in items:
        writer.pool.add(item)
    os.write(spilled, b"x")
    os.read(go, 1)
    try:
        ok = list(writer.pool.iter_postings()) == items and writer.pool.written >= 3
        writer.pool.cleanup()
        writer.temp_storage().destroy()
    except Exception:
        ok = False
    return 0 if ok else 1


def test_processes_forked_alike_spill_into_runs_of_their_own(tmp_path):
    """Forked from one state, two processes make their pools at one address. Whoosh gave
    them one temporary folder, and the runs were named by that address: each overwrote,
    read and deleted the other's (the 10k ingest's "bad marshal data")."""
    ix = storage.create_index(tmp_path, make_schema())
    spilled_r, spilled_w = os.pipe()
    go_r, go_w = os.pipe()
    children = []
    for k in range(2):
        pid = os.fork()
        if pid == 0:  # (the child leaves by os._exit, whatever happens)
            code = 1
            try:
                code = _spill_then_read(ix, k, spilled_w, go_r)
            finally:
                os._exit(code)
        children.append(pid)
    assert len(os.read(spilled_r, 1) + os.read(spilled_r, 1)) == 2
    os.write(go_w, b"xx")
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]
    assert codes == [0, 0]
    assert not [name for name in storage.leftovers(tmp_path) if name.endswith(".tmp")]


def test_a_writer_keeps_its_temporary_files_in_a_folder_of_its_process(tmp_path):
    ix = storage.create_index(tmp_path, make_schema())
    writer = ix.writer()
    folder = writer.temp_storage().folder
    assert os.path.dirname(folder) == str(tmp_path)
    assert os.path.basename(folder).startswith(f"MAIN.{os.getpid()}.")
    assert not (tmp_path / "MAIN.tmp").exists()
    writer.cancel()
    assert not os.path.exists(folder)
    assert not [name for name in storage.leftovers(tmp_path) if name.endswith(".tmp")]


def test_leftovers_are_dead_writers_folders_and_uncommitted_segments(tmp_path):
    ix = storage.create_index(tmp_path, make_schema())
    with ix.writer() as writer:
        writer.add_document(id="a", title="kept")
    committed = sorted(p.name for p in tmp_path.iterdir())
    (tmp_path / "MAIN.4242.0badf00d.tmp").mkdir()
    (tmp_path / "MAIN.4242.0badf00d.tmp" / "0.1.postings").write_bytes(b"run")
    (tmp_path / "MAIN_deadsegment0001.trm").write_bytes(b"partial")
    (tmp_path / "_MAIN_0.toc").write_bytes(b"old")
    found = ["MAIN.4242.0badf00d.tmp", "MAIN_deadsegment0001.trm", "_MAIN_0.toc"]
    assert storage.leftovers(tmp_path) == found
    assert storage.discard_leftovers(tmp_path) == found
    assert sorted(p.name for p in tmp_path.iterdir()) == committed
    assert storage.open_index(tmp_path).doc_count() == 1
