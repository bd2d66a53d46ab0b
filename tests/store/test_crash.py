"""Crash consistency: SIGKILL an ingest, a retag or an export at many moments; the next
command heals the library, which then holds exactly the state before or after, never a
mix, and never loses a record or a user tag.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from testing import PAPERS, SEEDS, SOAK, built_once, generate_documents

# Kills per command: a handful by default, the long matrix under `make soak`.
KILL_POINTS = int(os.environ.get("PAPERS_KILL_POINTS", "24" if SOAK else "4"))


def papers(lib, *args, check=True):
    result = subprocess.run(
        [str(PAPERS), "--library", str(lib), *args], capture_output=True, text=True
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def snapshot(lib: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((lib / "papers").glob("*.yaml"))}


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """A library with the seeds and a user's tag edit, and a 300-paper batch to ingest."""

    def build(base: Path) -> None:
        lib = base / "before"
        papers(lib, "ingest", *map(str, SEEDS))
        papers(lib, "tag", "iclr2026-muonbp", "--add", "reading-list", "--remove", "llm")
        generate_documents(300, base / "docs", seed=7)
        record = (lib / "papers" / "iclr2026-muonbp.yaml").read_text()
        abstract = __import__("yaml").safe_load(record)["abstract"]
        # (merges into existing papers too, not only new ones)
        (base / "repeat.txt").write_text(f"ICLR 2026 论文列表\n\n{abstract}\n", encoding="utf-8")
        shutil.copytree(lib, base / "after")
        start = time.perf_counter()
        papers(base / "after", "ingest", *inputs_of(base))
        (base / "duration").write_text(repr(time.perf_counter() - start))

    base = built_once(tmp_path_factory, "crash-300", build)
    lib, after = base / "before", base / "after"
    duration = float((base / "duration").read_text())
    return lib, inputs_of(base), snapshot(lib), snapshot(after), duration


def inputs_of(base: Path) -> list[str]:
    return [*sorted(map(str, (base / "docs").glob("*.txt"))), str(base / "repeat.txt")]


def kill_at(delay: float, argv: list[str]) -> int:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    return proc.wait()


def heal_and_check(lib: Path) -> None:
    listed = papers(lib, "list", "--ids").stdout.split()  # the next command heals
    assert sorted(listed) == sorted(n[:-5] for n in snapshot(lib)), "index disagrees with records"
    doctor = papers(lib, "doctor", check=False)
    assert doctor.returncode == 0, doctor.stdout
    assert not (lib / ".txn").exists()


@pytest.mark.slow
def test_killed_ingest_leaves_before_or_after(setup, tmp_path):
    base, inputs, before, after, duration = setup
    rng = random.Random(2026)
    outcomes = {"before": 0, "after": 0}

    def kill_and_check(i: int, delay: float) -> None:
        lib = tmp_path / f"lib{i}"
        shutil.copytree(base, lib)
        kill_at(delay, [str(PAPERS), "--library", str(lib), "ingest", *inputs])
        heal_and_check(lib)
        state = snapshot(lib)
        assert state in (before, after), f"kill at {delay:.2f}s left a mixed library"
        outcomes["before" if state == before else "after"] += 1
        muonbp = state["iclr2026-muonbp.yaml"].decode()
        assert "reading-list" in muonbp and "- llm" not in muonbp.split("tag_edits")[0]

    for i in range(KILL_POINTS):
        # Half the kills spread over the whole run, half over its last fifth, where the
        # records commit and then the index (both sides of the commit point get hit).
        share = (i + rng.random()) / KILL_POINTS
        kill_and_check(i, duration * (share if i % 2 == 0 else 0.8 + 0.2 * share))
    # On a slow or busy machine the run may outlast its measured duration: move the kills
    # later (or earlier) until both sides were seen, as a kill past the end leaves "after".
    for j in range(KILL_POINTS):
        if outcomes["before"] and outcomes["after"]:
            break
        late = (j + 1) / KILL_POINTS
        share = 1.0 + late if not outcomes["after"] else 0.5 * (1 - late)
        kill_and_check(KILL_POINTS + j, duration * share)
    assert outcomes["before"] and outcomes["after"], outcomes  # both sides were exercised


@pytest.mark.slow
def test_killed_retag_leaves_before_or_after(setup, tmp_path):
    base, _inputs, before, _after, _duration = setup
    taxonomy = tmp_path / "config" / "papers" / "taxonomy.yaml"
    taxonomy.parent.mkdir(parents=True)
    taxonomy.write_text("version: 1\ntags:\n  optimizer:\n    en: [optimizer]\n    zh: [优化器]\n")
    env_cmd = ["env", f"XDG_CONFIG_HOME={tmp_path / 'config'}", str(PAPERS)]
    reference = tmp_path / "reference"
    shutil.copytree(base, reference)
    start = time.perf_counter()
    subprocess.run(
        [*env_cmd, "--library", str(reference), "retag"], check=True, capture_output=True
    )
    duration = time.perf_counter() - start
    retagged = snapshot(reference)
    assert retagged != before
    for i in range(KILL_POINTS // 2):
        lib = tmp_path / f"lib{i}"
        shutil.copytree(base, lib)
        kill_at(
            duration * (i + 0.5) / (KILL_POINTS // 2), [*env_cmd, "--library", str(lib), "retag"]
        )
        heal_and_check(lib)
        assert snapshot(lib) in (before, retagged)
        assert "reading-list" in snapshot(lib)["iclr2026-muonbp.yaml"].decode()


@pytest.mark.slow
def test_killed_export_leaves_the_old_file_or_the_new_one(setup, tmp_path):
    base, *_rest = setup
    out = tmp_path / "all.bib"
    out.write_text("% old\n")
    reference = tmp_path / "reference.bib"
    papers(base, "export", "-f", "bibtex", "-o", str(reference))
    for i in range(KILL_POINTS // 2):
        kill_at(
            0.05 + 0.1 * i,
            [str(PAPERS), "--library", str(base), "export", "-f", "bibtex", "-o", str(out)],
        )
        assert out.read_text() in ("% old\n", reference.read_text())
