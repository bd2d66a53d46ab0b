"""Several papers processes at once: writers take turns, readers never wait or fail."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from testing import PAPERS, ROOT, SEEDS, generate_documents


@pytest.mark.slow
def test_parallel_ingests_serialise_and_searches_keep_working(tmp_path):
    lib = tmp_path / "lib"
    subprocess.run([str(PAPERS), "--library", str(lib), "ingest", *map(str, SEEDS)], check=True)
    batches = []
    for seed in (1, 2, 3):
        folder = tmp_path / f"docs{seed}"
        generate_documents(150, folder, seed=seed)
        batches.append(sorted(map(str, folder.glob("*.txt"))))
    writers = [
        subprocess.Popen(
            [str(PAPERS), "--library", str(lib), "ingest", *docs],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for docs in batches
    ]
    searches, failed = [], []  # (what a failed search said, not just that it failed)
    while any(w.poll() is None for w in writers):
        start = time.perf_counter()
        result = subprocess.run(
            [str(PAPERS), "--library", str(lib), "search", "muon", "--ids"],
            capture_output=True,
            text=True,
        )
        searches.append((result.returncode, time.perf_counter() - start, result.stdout))
        failed += [result.stderr] if result.returncode else []
    results = [(w.returncode, *w.communicate()) for w in writers]
    assert [code for code, _out, _err in results] == [0, 0, 0]
    waited = [err for _code, _out, err in results if "waiting for another papers command" in err]
    assert waited, "no writer waited for the lock"
    assert searches and failed == []
    assert all("iclr2026-muonbp" in out for _code, _t, out in searches)  # the seeds stay visible
    # the same batches one after the other give the same papers (ids may differ in suffix
    # order when two generated papers collide, so compare the papers' texts)
    serial = tmp_path / "serial"
    subprocess.run([str(PAPERS), "--library", str(serial), "ingest", *map(str, SEEDS)], check=True)
    for docs in batches:
        subprocess.run([str(PAPERS), "--library", str(serial), "ingest", *docs], check=True)
    assert papers_in(lib) == papers_in(serial)
    assert len(papers_in(lib)) > 63 + 2 * 150
    assert not (lib / ".txn").exists()


def papers_in(lib: Path) -> list[tuple]:
    import json

    out = subprocess.run(
        [str(PAPERS), "--library", str(lib), "list", "--json"], capture_output=True, text=True
    ).stdout
    return sorted(
        (p["title"] or "", p["abstract"] or "", p["summary_zh"] or "") for p in json.loads(out)
    )


def test_a_killed_writer_leaves_no_lock(seeded_library):
    """The lock is an OS lock: a process that dies (here: exits holding it) releases it."""
    code = (
        f"import os, sys; sys.path.insert(0, {str(ROOT / 'src')!r})\n"
        "from papercli.store.library import Library\n"
        f"lib = Library({str(seeded_library.root)!r})\n"
        "lib.lock().__enter__()\n"
        "os._exit(9)\n"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 9
    with seeded_library.try_lock() as locked:
        assert locked
