"""papers in a person's real terminal (tmux): redirected stdout with stderr on the screen,
tables taller than the screen in the real pager, narrow and wide screens, Ctrl-C."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import BUNDLED
from tmux import BIN, Terminal

PAPERS = str(BIN / "papers")

pytestmark = pytest.mark.slow


@pytest.fixture
def library(tmp_path):
    """The bundled library as a fresh clone has it (records and sources), indexed once."""
    root = tmp_path / "lib"
    shutil.copytree(BUNDLED, root, ignore=shutil.ignore_patterns(".index", ".lock"))
    subprocess.run([PAPERS, "--library", str(root), "index"], check=True, capture_output=True)
    return root


def piped(library, *args: str) -> bytes:
    """What the command writes to a pipe, stderr a pipe as well."""
    return subprocess.run(
        [PAPERS, "--library", str(library), *args], capture_output=True, check=True
    ).stdout


# --- stdout carries only the command's output ---------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        "export --tag muon --format bibtex",
        "export --format json",
        "export --format markdown muon",
        "search muon",
        "list --tag federated-learning --json",
    ],
)
def test_redirected_output_is_byte_identical_whatever_stderr_is(library, tmp_path, args):
    expected = piped(library, *args.split())
    assert expected
    with Terminal(80, 24, tmp_path, {"PAPERS_LIBRARY": str(library)}) as term:
        for name, redirect in (("screen", ""), ("closed", "2>&-"), ("null", "2>/dev/null")):
            assert term.run(f"papers {args} > out-{name} {redirect}") == 0
            assert (tmp_path / f"out-{name}").read_bytes() == expected, name
        assert term.run(f"papers {args} | cat > out-pipe") == 0
        assert (tmp_path / "out-pipe").read_bytes() == expected
        screen = term.screen()
    assert screen.strip() == "$", screen  # nothing but the prompt reached the screen


def test_ids_piped_into_export_reach_the_file(library, tmp_path):
    expected = piped(library, "export", "--format", "biblatex", "--id", "iclr2026-ef21-muon",
                     "--id", "iclr2026-muonbp", "--id", "iclr2026-convergence-muon-newton-schulz",
                     "--id", "iclr2026-convergence-analysis-adaptive-optimizers-under")  # fmt: skip
    with Terminal(80, 24, tmp_path, {"PAPERS_LIBRARY": str(library)}) as term:
        code = term.run("papers search muon --ids | papers export --format biblatex - > x.bib")
        assert code == 0 and term.screen().strip() == "$"
    assert (tmp_path / "x.bib").read_bytes() == expected
