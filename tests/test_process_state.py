"""Library code changes nothing process-wide: importing any module of papers, or calling
it, leaves os.environ, the multiprocessing start method, logger levels, signal handlers
and the modules other code imports as they were. Only the ``papers`` entry point sets
process-wide things."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from testing import SEEDS

STATE = r"""
import importlib, logging, multiprocessing, os, signal, sys

def state():
    return {
        "environ": dict(os.environ),
        "start method": multiprocessing.get_start_method(allow_none=True),
        "logger levels": {n: l.level for n, l in logging.Logger.manager.loggerDict.items()
                          if isinstance(l, logging.Logger) and l.level},
        "SIGINT": repr(signal.getsignal(signal.SIGINT)),
        "excepthook": repr(sys.excepthook),
    }
"""


def run(code: str) -> dict:
    result = subprocess.run([sys.executable, "-c", STATE + code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_importing_every_module_changes_no_process_state():
    out = run(r"""
import json, pkgutil, papercli
before = state()
names = [m.name for m in pkgutil.walk_packages(papercli.__path__, "papercli.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"before": before, "after": state(), "modules": len(names)}))
""")
    assert out["modules"] > 50
    assert out["after"] == out["before"]


def test_using_the_library_changes_no_process_state(tmp_path):
    """An ingest large enough for the two indexing processes, a search and an export."""
    docs = tmp_path / "docs"
    subprocess.run(
        [sys.executable, "benchmarks/generate.py", "1100", str(docs)],
        check=True,
        capture_output=True,
        cwd=SEEDS[0].parent.parent,
    )
    out = run(rf"""
import json
from pathlib import Path
before = state()
from papercli.ingest import ingest
from papercli.search.questions.search import search
from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library
from papercli.export import render
library = Library(Path({str(tmp_path / "lib")!r}))
ingest(library, [*map(Path, {[str(p) for p in SEEDS]!r}), *sorted(Path({str(docs)!r}).glob("*.txt"))])
index = PaperIndex(library).open()
hits = search(index, "muon")
render("bibtex", [hit.record for hit in hits])
print(json.dumps({{"before": before, "after": state(), "hits": len(hits),
                  "default start method": multiprocessing.get_context().get_start_method()}}))
""")
    assert out["hits"] >= 4
    # Starting a fork server makes multiprocessing itself record the start method in use
    # (spawn.get_preparation_data asks for it): it stays the platform's default.
    assert out["before"].pop("start method") is None
    assert out["after"].pop("start method") == out["default start method"]
    assert out["after"] == out["before"]


def test_library_code_imports_whoosh_as_it_is():
    """Only the command line imports Whoosh without the modules it never uses: library
    code plants nothing in sys.modules, even for a moment."""
    out = run(r"""
import functools, json
import papercli.search.analysis, papercli.search.index.paper_index, papercli.search.questions.search
import whoosh.reading
print(json.dumps({"stand-in": whoosh.reading.cached_property is functools.cached_property}))
""")
    assert out == {"stand-in": False}


def test_after_a_command_other_code_gets_the_real_modules(seeded_library):
    """Whoosh is imported without urllib.request, asyncio, its morphology tables and
    OpenSSL's hashlib, yet nothing planted stays where other code (an HTTP client,
    Whoosh's Variations, a hash) looks, and Whoosh's hash tables hash as before."""
    papers = [sys.executable, "-m", "papercli", "--library", str(seeded_library.root)]
    subprocess.run([*papers, "search", "muon"], capture_output=True, check=True)  # (synced)
    out = run(rf"""
import json
sys.argv = ["papers", "--library", {str(seeded_library.root)!r}, "search", "muon"]
from papercli.cli import main
try:
    main()
except SystemExit:
    pass
skipped = [m for m in ("urllib.request", "asyncio", "whoosh.lang.morph_en", "httpx",
                     "papercli.enrich", "hashlib") if m in sys.modules]
import hashlib
from whoosh.filedb.filetables import md5_hash
same_hash = md5_hash(b"muon") == int(hashlib.md5(b"muon").hexdigest(), 16) & 0xFFFFFFFF
import urllib.request
real_request = getattr(urllib.request, "__file__", None) is not None
stable = urllib.request.Request is urllib.request.Request
import whoosh.lang.morph_en as morph
from whoosh.query.terms import variations
print(json.dumps({{"skipped": skipped, "real request": real_request, "stable": stable,
                   "real hashlib": hasattr(hashlib, "sha256"), "same hash": same_hash,
                   "real morph": getattr(morph, "__file__", None) is not None,
                   "variations": sorted(variations("running"))[:3]}}))
""")
    assert out == {
        "skipped": [],
        "real request": True,
        "stable": True,
        "real morph": True,
        "real hashlib": True,
        "same hash": True,
        "variations": ["ran", "run", "runner"],
    }


@pytest.mark.parametrize(
    ("argv", "lines"), [(["list"], 63), (["export", "--format", "bibtex"], None)]
)
def test_a_write_through_stdout_is_buffered_by_the_program(seeded_library, argv, lines):
    """With PYTHONUNBUFFERED (Docker images set it) stdout writes through: each line of a
    listing, each record of an export, was a write call (3,527 for a listing at 10k papers:
    58 instead of 43 us a hit into a pipe). ``main`` gives stdout a buffer again; what it
    writes is the same, and a listing still flushes its first lines one by one."""
    code = rf"""
import io, json, sys
class Counted(io.FileIO):
    calls = 0
    def write(self, data):
        Counted.calls += 1
        return super().write(data)
sys.stdout = io.TextIOWrapper(Counted(1, "w", closefd=False), encoding="utf-8",
                              write_through=True)
sys.argv = ["papers", "--library", {str(seeded_library.root)!r}, *{argv!r}]
from papercli.cli import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
print(json.dumps({{"calls": Counted.calls}}), file=sys.stderr)
"""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    plain = subprocess.run(
        [sys.executable, "-m", "papercli", "--library", str(seeded_library.root), *argv],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout == plain.stdout
    calls = json.loads(out.stderr.splitlines()[-1])["calls"]
    if lines:  # the first 20 flushed one by one, the rest together
        assert len(out.stdout.splitlines()) == lines and calls <= 22, calls
    else:  # a BibTeX record is ~10 lines: a write call each 8 KB, not each record
        assert out.stdout.count("@inproceedings{") == 63 and calls <= len(out.stdout) // 8192 + 2, (
            calls
        )
