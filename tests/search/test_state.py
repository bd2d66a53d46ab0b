"""The stamps of the index's files, read while a writer commits beside the reader: a
file gone between the listing and its stat, a listing that missed the new table of
contents. Neither is a damaged index, and neither is an error."""

from __future__ import annotations

import contextlib
import os
import shutil

import pytest

from papercli.search.index import state


@pytest.fixture
def index_dir(seeded_template, tmp_path):
    """A copy of a real index's folder, and what ``state.json`` saved of it."""
    folder = tmp_path / "index"
    shutil.copytree(seeded_template / ".index", folder)
    saved = state.read(folder, "state.json")
    assert saved["files"] == state.files(folder)  # (the copy keeps size and mtime)
    return folder, saved


def listing_then(monkeypatch, act, hide=()):
    """``os.scandir`` as a reader racing a writer sees it: the folder listed, then *act*
    run (the writer's next step) before the entries are stat'ed; names in *hide* were
    not there yet when the listing was taken. Later listings are the real ones."""
    real = os.scandir
    calls = []

    @contextlib.contextmanager
    def racing(path):
        first = not calls
        with real(path) as entries:
            listed = [e for e in entries if not (first and e.name in hide)]
        if first:
            act()
        calls.append(path)
        yield iter(listed)

    monkeypatch.setattr(os, "scandir", racing)
    return calls


def test_a_file_gone_between_listing_and_stat_is_left_out(index_dir, monkeypatch):
    # CI caught it: `papers search` printed "No such file or directory: .../_MAIN_2.toc.
    # 1796409369.0986073" (Whoosh's table of contents being renamed into place)
    folder, saved = index_dir
    toc = next(folder.glob("_MAIN_*.toc"))
    temp = folder / f"{toc.name}.1796409369.0986073"
    shutil.copy(toc, temp)
    listing_then(monkeypatch, temp.unlink)
    assert state.files(folder) == saved["files"]


def test_a_listing_that_missed_a_writers_commit_is_not_a_changed_index(index_dir, monkeypatch):
    # The writer put generation 2's table of contents in place and removed a file of
    # generation 1; the reader's listing was taken before the first and stat'ed after
    # the second. Read as a changed index, it would have been rebuilt for nothing.
    folder, saved = index_dir
    generation = saved["files"]["generation"]
    newer = f"_MAIN_{generation + 1}.toc"
    shutil.copy(folder / f"_MAIN_{generation}.toc", folder / newer)
    segment = next(folder.glob("MAIN_*.trm"))
    calls = listing_then(monkeypatch, segment.unlink, hide={newer})
    assert state.changed(folder, saved) is None
    assert len(calls) == 2  # (a second look, after a difference)


def test_an_index_file_rewritten_in_place_is_still_a_changed_index(index_dir, monkeypatch):
    folder, saved = index_dir
    segment = next(folder.glob("MAIN_*.trm"))
    calls = listing_then(monkeypatch, lambda: None)
    assert state.changed(folder, saved) is None and len(calls) == 1
    segment.write_bytes(bytes(segment.stat().st_size))  # (same length, other bytes)
    assert state.changed(folder, saved) == (
        f"had a damaged file ({segment.name} changed since papers wrote it)"
    )
    assert len(calls) == 3  # (both looks found it)
