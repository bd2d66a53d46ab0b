"""What the tests share, in one place (as papis's ``testing.py``): the real seed documents,
temporary libraries, an isolated environment, ways to run ``papers`` (through Typer's
runner, plain or as a terminal, or as a real process), and generated documents.

Fixtures are registered by ``conftest.py``; helpers are imported from here. A real
terminal (tmux) is in ``tmux.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from papercli.store.library import Library

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
DIGEST = DATA / "iclr2026-optimization-theory-digest.txt"
ABSTRACTS = DATA / "iclr2026-abstracts.txt"
SEEDS = [DIGEST, ABSTRACTS]  # the order the bundled library was ingested in
BUNDLED = DATA / "library"
TEST_DATA = ROOT / "tests" / "data"
PAPERS = Path(sys.executable).with_name("papers")  # the installed command
# `make soak` (PAPERS_SOAK=1): the fault and crash suites' long random matrices, every alias
# variant of the windowed tag search and every index file damaged; `make test` runs a fixed
# handful of their cases.
SOAK = os.environ.get("PAPERS_SOAK") == "1"


def built_once(tmp_path_factory, name: str, build) -> Path:
    """A folder that *build(folder)* fills once a session, however many xdist workers ask
    for it: the first builds it under a lock, the others wait and share it (read only).
    Generating and ingesting 1,500 papers took each worker 8 s."""
    import fcntl

    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # (one process: its own folder)
        folder = tmp_path_factory.mktemp(name)
        build(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent  # (the run's, shared by its workers)
    folder, done = root / name, root / f"{name}.built"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            done.touch()
    return folder


def soak_sample(items, every: int = 4) -> list:
    """*items* whole under ``make soak``; every *every*-th of them under ``make test``."""
    return list(items) if SOAK else list(items)[::every]


# --- running papers -----------------------------------------------------------------------------


def invoke(*args: str, env: dict | None = None, terminal: bool = False, stdin: str | None = None):
    """``papers ARGS`` through Typer's runner (in this process). *terminal*: output as a
    terminal would get it (tables, 120 columns; colour off unless *env* turns it on)."""
    from typer.testing import CliRunner

    from papercli.cli.app import app

    settings = {"FORCE_COLOR": "1", "COLUMNS": "120"} if terminal else {}
    return CliRunner(env={**settings, **(env or {})}).invoke(app, list(args), input=stdin)


def papers(*args: str, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    """``papers ARGS`` as a real process, output captured as text."""
    result = subprocess.run([str(PAPERS), *args], capture_output=True, text=True, **kwargs)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def generate_documents(size: int, folder: Path, seed: int = 2026) -> list[Path]:
    """Synthetic documents for *size* papers (``benchmarks/generate.py``, run as a program)."""
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "generate.py"),
            str(size),
            str(folder),
            "--seed",
            str(seed),
        ],
        check=True,
        capture_output=True,
    )
    return sorted(Path(folder).glob("*.txt"))


def processes_marked(mark: str) -> list[int]:
    """Live processes whose environment holds *mark*: the command and all it started."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if mark.encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def need_tools(*names: str) -> None:
    """Skip unless these programs are installed; in CI (PAPERS_REQUIRE_TOOLS) fail instead."""
    missing = [n for n in names if shutil.which(n) is None]
    if missing and os.environ.get("PAPERS_REQUIRE_TOOLS"):
        pytest.fail(f"required tools missing: {', '.join(missing)}")
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


async def settle(pilot) -> None:
    """papers browse under Textual's pilot: wait until the listing asked for last is on the
    screen and no worker runs (searches and writes run on threads of their own)."""
    app = pilot.app
    for _ in range(1000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.generation in app.drawn and not any(w.is_running for w in app.workers):
            return
    raise AssertionError("the listing never settled")


# --- fixtures (registered in conftest.py) -------------------------------------------------------


@pytest.fixture(autouse=True)
def isolated_env(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user's config or data folders, or asks arXiv or
    Crossref."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.delenv("PAPERS_LIBRARY", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    # Services nobody answers unless a test serves them (add/services.py): never the internet
    from stand_in import unused_port

    for var in ("PAPERS_ARXIV_API", "PAPERS_CROSSREF_API"):
        monkeypatch.setenv(var, f"http://127.0.0.1:{unused_port()}")
    monkeypatch.delenv("PAPERS_CONTACT_EMAIL", raising=False)


@pytest.fixture(scope="session")
def digest():
    """The bundled digest page, parsed."""
    from papercli.parsers import parse_file

    return parse_file(DIGEST)[0]


@pytest.fixture(scope="session")
def abstracts():
    """The bundled abstract list, parsed."""
    from papercli.parsers import parse_file

    return parse_file(ABSTRACTS)[0]


@pytest.fixture
def tmp_library(tmp_path) -> Library:
    """An empty library in a temporary folder."""
    return Library(tmp_path / "library")


@pytest.fixture(scope="session")
def seeded_template(tmp_path_factory) -> Path:
    """The seeds ingested once per session; tests get their own copy."""
    from papercli.ingest import ingest

    root = tmp_path_factory.mktemp("seeded") / "library"
    ingest(Library(root), SEEDS)
    return root


@pytest.fixture
def seeded_library(seeded_template, tmp_path) -> Library:
    """A library holding the two seed documents (63 papers), index included."""
    root = tmp_path / "seeded"
    shutil.copytree(seeded_template, root)
    return Library(root)


@pytest.fixture(scope="session")
def browse_template(seeded_template, tmp_path_factory) -> Path:
    """A copy of the seeded library, indexed once a session (a copy's new inodes make the
    first command re-index it), for the browser's tests that do not write the library."""
    from papercli.search.index.paper_index import PaperIndex

    root = tmp_path_factory.mktemp("browse") / "library"
    shutil.copytree(seeded_template, root)
    PaperIndex(Library(root)).open()
    return root


@pytest.fixture
def bundled_copy(tmp_path) -> Path:
    """data/library as a fresh clone has it: records and document copies, no index yet."""
    root = tmp_path / "bundled"
    shutil.copytree(BUNDLED, root, ignore=shutil.ignore_patterns(".index", ".lock"))
    return root
