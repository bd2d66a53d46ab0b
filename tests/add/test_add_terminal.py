"""``papers add`` in a real terminal of 80x24 (tmux): a normal add, and a title that asks
which paper it is, answered at the prompt."""

from __future__ import annotations

import pytest

from add.services import paper, work
from papercli.store.library import Library
from tmux import Terminal

pytestmark = pytest.mark.slow


@pytest.fixture
def terminal(tmp_path, arxiv_api, crossref_api, openreview):
    env = {
        "PAPERS_ARXIV_API": arxiv_api.url,
        "PAPERS_CROSSREF_API": crossref_api.url,
        "PAPERS_OPENREVIEW_API": openreview.url,
        "PAPERS_LIBRARY": str(tmp_path / "lib"),
    }
    with Terminal(80, 24, tmp_path, env) as term:
        yield term


def lines(screen: str) -> list[str]:
    return [line.rstrip() for line in screen.rstrip("\n").splitlines()]


def settled(term: Terminal) -> list[str]:
    """The screen once the shell's prompt is back (it comes a moment after the command)."""
    return lines(term.wait_for(lambda s: lines(s)[-1:] == ["$"], 10))


def test_a_normal_add_on_a_terminal(terminal, arxiv_api, crossref_api, tmp_path):
    arxiv_api.add(
        paper(
            "2501.01234",
            title="Muon Is Scalable for LLM Training",
            authors=["Ada Lovelace", "Alan Turing"],
            journal_ref="ICLR 2026",
        )
    )
    crossref_api.add(
        work(
            "10.1109/CVPR.2016.90",
            title="Deep Residual Learning for Image Recognition",
            container="IEEE Conference on Computer Vision and Pattern Recognition",
            type="proceedings-article",
            year=2016,
        )
    )
    code = terminal.run("papers add 2501.01234 https://doi.org/10.1109/CVPR.2016.90")
    assert code == 0
    assert settled(terminal) == [
        "added  iclr2026-muon-scalable-llm-training",
        "       Muon Is Scalable for LLM Training (ICLR 2026; from arXiv)",
        "added  cvpr2016-deep-residual-learning-image-recognition",
        "       Deep Residual Learning for Image Recognition (CVPR 2016; from Crossref)",
        "papers: 2 papers: 2 added",
        "$",
    ]


def test_a_near_tie_asks_which_paper_on_a_terminal(terminal, arxiv_api, crossref_api, tmp_path):
    arxiv_api.add(
        paper(
            "1412.6980",
            title="Adam: A Method for Stochastic Optimization",
            authors=["Diederik P. Kingma", "Jimmy Ba"],
            journal_ref="ICLR 2015",
        ),
        paper(
            "2000.00002",
            title="Stochastic Optimization With Adam Revisited",
            authors=["Grace Hopper"],
            published="2020-01-01T00:00:00Z",
        ),
    )
    crossref_api.add(
        work(
            "10.1000/sgd",
            title="Stochastic Optimization: Adam and Friends",
            authors=[
                ("Alan", "Turing"),
                ("Ada", "Lovelace"),
                ("Grace", "Hopper"),
                ("Kurt", "Gödel"),
            ],
            container="Journal of Examples",
            year=2021,
        )
    )
    terminal.start("papers add 'adam stochastic optimization'; echo exit=$?")
    screen = terminal.wait_for(lambda s: "Which one?" in s, 30)
    listed = [
        "'adam stochastic optimization' could be any of these papers:",
        "  1  Adam: A Method for Stochastic Optimization",
        "     ICLR 2015 · from arXiv · Diederik P. Kingma, Jimmy Ba",
        "  2  Stochastic Optimization With Adam Revisited",
        "     arXiv 2020 · from arXiv · Grace Hopper",
        "  3  Stochastic Optimization: Adam and Friends",
        "     Journal of Examples 2021 · from Crossref · Alan Turing, Ada Lovelace, Gr…",
        "Which one? [1-3, Enter for none]",
    ]
    assert lines(screen) == listed
    assert not Library(tmp_path / "lib").root.exists()  # (nothing written while it asks)
    terminal.keys("1", "Enter")
    screen = terminal.wait_for(lambda s: "exit=" in s and lines(s)[-1] == "$", 30)
    assert lines(screen) == [
        *listed[:-1],
        "Which one? [1-3, Enter for none] 1",
        "added  iclr2015-adam",
        "       Adam: A Method for Stochastic Optimization (ICLR 2015; from arXiv)",
        "papers: 1 paper: 1 added",
        "exit=0",
        "$",
    ]
    assert Library(tmp_path / "lib").exists("iclr2015-adam")


def test_no_answer_leaves_the_title_out(terminal, arxiv_api, tmp_path):
    arxiv_api.add(
        paper("1412.6980", title="Adam: A Method for Stochastic Optimization"),
        paper("2000.00002", title="Stochastic Optimization With Adam Revisited"),
    )
    terminal.start("papers add 'adam stochastic optimization'; echo exit=$?")
    terminal.wait_for(lambda s: "Which one?" in s, 30)
    terminal.keys("9", "Enter")
    terminal.wait_for(lambda s: s.count("Which one?") == 2, 30)
    terminal.keys("Enter")
    screen = terminal.wait_for(lambda s: "exit=" in s and lines(s)[-1] == "$", 30)
    assert lines(screen)[-7:] == [
        "Which one? [1-2, Enter for none] 9",
        "papers: '9' is not a number from 1 to 2",
        "Which one? [1-2, Enter for none]",
        "papers: 'adam stochastic optimization' left out",
        "papers: nothing added; 1 left out",
        "exit=1",
        "$",
    ]
    assert not (tmp_path / "lib").exists()


def test_output_into_a_pipe_lists_the_candidates_without_asking(terminal, arxiv_api, tmp_path):
    """Typed at a terminal but piped on (``| cut``): the candidates go down the pipe."""
    arxiv_api.add(
        paper("1412.6980", title="Adam: A Method for Stochastic Optimization"),
        paper("2000.00002", title="Stochastic Optimization With Adam Revisited"),
    )
    code = terminal.run(
        "papers add 'adam stochastic optimization' | cut -f2,7; exit_=${PIPESTATUS[0]}; echo exit=$exit_",
        timeout=20,
    )
    assert code == 0
    assert settled(terminal)[-4:] == [
        "1\tAdam: A Method for Stochastic Optimization".expandtabs(),
        "2\tStochastic Optimization With Adam Revisited".expandtabs(),
        "exit=1",
        "$",
    ]
    assert not (tmp_path / "lib").exists()


def test_the_readme_shows_what_papers_add_prints(tmp_path, arxiv_api, crossref_api):
    """The README's "Add a paper" examples, run against the stand-ins they name, on a copy
    of the bundled library: a terminal 80 columns wide, then a pipe."""
    import os
    import re
    import shutil
    import subprocess

    from testing import BUNDLED, PAPERS, ROOT

    section = (ROOT / "README.md").read_text("utf-8").split("### Add a paper", 1)[1]
    section = section.split("\n### ", 1)[0]
    merged, asked = re.findall(r"```\n(.*?)```", section, re.S)[:2]
    arxiv_api.add(
        paper(
            "2503.11111",
            title="Convergence of Muon with Newton-Schulz",
            authors=["Ada Muon", "Alan Turing", "Grace Hopper"],
            summary="We prove that Muon with Newton-Schulz iterations converges to a stationary point.",
        ),
        paper(
            "1412.6980",
            title="Adam: A Method for Stochastic Optimization",
            authors=["Diederik P. Kingma", "Jimmy Ba"],
            journal_ref="ICLR 2015",
        ),
        paper(
            "2000.00002",
            title="Stochastic Optimization With Adam Revisited",
            authors=["Grace Hopper"],
            published="2020-01-01T00:00:00Z",
        ),
    )
    crossref_api.add(
        work(
            "10.1109/CVPR.2016.90",
            title="Deep Residual Learning for Image Recognition",
            authors=[("Kaiming", "He"), ("Xiangyu", "Zhang")],
            container="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            type="proceedings-article",
            year=2016,
        )
    )
    library = tmp_path / "library"
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    env = {
        "PAPERS_ARXIV_API": arxiv_api.url,
        "PAPERS_CROSSREF_API": crossref_api.url,
        "PAPERS_LIBRARY": str(library),
    }
    with Terminal(80, 24, tmp_path, env) as term:
        assert term.run("papers index >/dev/null 2>&1") == 0
        command, shown = merged.split("\n", 1)
        assert term.run(command.removeprefix("$ ")) == 0
        assert settled(term) == [*shown.splitlines(), "$"]
        ask, rest = asked.split("\n", 1)
        answered, piped = rest.split("\n$ ", 1)
        term.start(ask.removeprefix("$ "))
        term.wait_for(lambda s: "Which one?" in s, 30)
        term.keys(answered.split("Which one? [1-2, Enter for none] ")[1][0], "Enter")
        screen = term.wait_for(lambda s: "papers: 1 paper" in s and lines(s)[-1] == "$", 30)
        assert lines(screen)[:-1] == answered.splitlines()
    command, shown = piped.split("\n", 1)
    environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | env
    environ["PATH"] = f"{PAPERS.parent}{os.pathsep}{environ['PATH']}"
    result = subprocess.run(command, shell=True, capture_output=True, text=True, env=environ)
    assert result.stdout + result.stderr == shown
