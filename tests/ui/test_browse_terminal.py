"""The real ``papers browse`` in a real terminal (tmux): a library without an index is
indexed first; two papers marked and exported compile under biber; quitting leaves the
shell's screen clean."""

from __future__ import annotations

import subprocess

import pytest

from testing import need_tools
from tmux import Terminal


@pytest.mark.slow
def test_search_mark_two_export_and_quit_in_tmux(bundled_copy, tmp_path):
    need_tools("pdflatex", "biber")
    work = tmp_path / "thesis"
    work.mkdir()
    with Terminal(80, 24, work) as term:
        term.type(f"clear; papers --library {bundled_copy} browse; echo exit=$?")
        term.wait_for(lambda s: "\n 63 papers" in s and "results" in s, 60)  # (the app's)
        term.keys("-l", "muon")
        term.wait_for(lambda s: "4 papers match 'muon'" in s, 10)
        term.keys("Down", "Space", "Down", "Space")
        term.wait_for(lambda s: "2 marked" in s, 10)
        term.keys("e")
        term.wait_for(lambda s: "Export the 2 marked papers" in s and "papers.bib" in s, 10)
        term.keys("Enter")
        term.wait_for(lambda s: "wrote 2 papers to /" in s, 10)  # (the path: after it ends)
        term.keys("q")
        screen = term.wait_for(lambda s: "exit=" in s, 10)
    # the app's screen is gone; what it wrote is said again under the command
    said = "papers: wrote 2 papers to"
    rows = [line for line in screen.splitlines() if line.strip() not in ("", "$")]
    assert rows[0] == "papers: the library had no index: built it (63 papers)"
    # (folded before the path, which the terminal wraps at 80 columns: no space in it)
    assert rows[1].startswith(said)
    path = [rows[1].removeprefix(said), *rows[2:-2]]
    assert "".join(part.strip() for part in path) == str(work / "papers.bib")
    assert rows[-2:] == [
        "papers: 2 of 2 entries name no authors: papers enrich can fill them in",
        "exit=0",
    ]
    bib = (work / "papers.bib").read_text()
    assert [line.split("{")[1] for line in bib.splitlines() if line.startswith("@")] == [
        "convergencemuon2026,",
        "ef21muon2026,",
    ]
    tex = (
        "\\documentclass{article}\\usepackage[backend=biber]{biblatex}"
        "\\addbibresource{papers.bib}"
        "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n"
    )
    (work / "main.tex").write_text(tex)
    pdf = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
    for step in (pdf, ["biber", "main"], pdf):
        result = subprocess.run(step, cwd=work, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, (step, result.stdout[-3000:])
    bbl = (work / "main.bbl").read_text()
    assert bbl.count("\\entry{") == 2
    assert "\\entry{convergencemuon2026}" in bbl and "\\entry{ef21muon2026}" in bbl


@pytest.mark.slow
def test_with_stdout_redirected_the_app_fills_the_terminal_and_keeps_fast_keys(
    bundled_copy, tmp_path
):
    """stdout to a file, the app on the terminal (it writes nothing to stdout): Textual took
    the terminal's size from stdout and drew 80x24 on a 200x50 terminal. Keys sent in one
    burst, Backspaces among them, edit the query in order."""
    with Terminal(200, 50, tmp_path) as term:
        term.type(f"clear; papers --library {bundled_copy} browse > out.txt; echo exit=$?")
        term.wait_for(lambda s: "\n 63 papers" in s, 60)
        term.keys("-l", "muxx")
        term.wait_for(lambda s: "no paper matches 'muxx'" in s, 10)
        term.keys("BSpace", "BSpace", "o", "n")  # (one send: read together)
        screen = term.wait_for(lambda s: "4 papers match 'muon'" in s, 10)
        rows = screen.splitlines()
        assert len(rows) == 50 and "quit" in rows[-1]  # (the footer, on the last line)
        assert max(len(row) for row in rows) > 150  # (the list and the paper side by side)
        term.keys("C-c")
        term.wait_for(lambda s: "exit=0" in s, 10)
    assert (tmp_path / "out.txt").read_text() == ""


@pytest.mark.slow
def test_the_readme_shows_the_screen_papers_browse_draws(bundled_copy, tmp_path):
    """The README's screen of ``papers browse muon``, Down, Space at 80x24 is the app's."""
    import re

    from testing import ROOT

    readme = (ROOT / "README.md").read_text("utf-8")
    [shown] = re.findall(
        r"after `papers browse muon`, Down and\nSpace.*?```\n(.*?)```", readme, re.S
    )
    with Terminal(80, 24, tmp_path) as term:
        term.type(f"clear; papers --library {bundled_copy} browse muon")
        term.wait_for(lambda s: "4 papers match 'muon'" in s and "key " in s, 60)
        term.keys("Down", "Space")
        screen = term.wait_for(lambda s: "1 marked" in s, 10)
        term.keys("q")
    assert [row.rstrip() for row in screen.splitlines()] == shown.splitlines()
