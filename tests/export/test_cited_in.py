"""``papers export --cited-in``: exactly the entries a draft cites, under the keys it cites
them by, so that the draft compiles with no undefined citation (issue 43, item 5)."""

from __future__ import annotations

import subprocess

import pytest
from typer.testing import CliRunner

from papercli.cli.app import app
from testing import need_tools

DRAFT = r"""\documentclass{article}
PREAMBLE
\begin{document}
Muon \cite{muonbp2026}, routing \cite[p.~3]{iclr2026-rrnco}, % \cite{hiso2026}
and \cite{vip2026,ef21muon2026}.
BIBLIOGRAPHY
\end{document}
"""
BIBTEX = ("", "\\bibliographystyle{plain}\\bibliography{refs}")
BIBER = ("\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}", "\\printbibliography")


def draft(kind: tuple[str, str]) -> str:
    return DRAFT.replace("PREAMBLE", kind[0]).replace("BIBLIOGRAPHY", kind[1])


@pytest.fixture
def run(seeded_library):
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(app, ["--library", str(seeded_library.root), *args])

    return invoke


def entry_keys(text: str) -> list[str]:
    return [line.split("{", 1)[1].rstrip(",") for line in text.splitlines() if line.startswith("@")]


def test_exports_what_the_draft_cites_under_the_keys_it_uses(run, tmp_path):
    assert run("merge", "muonbp", "ef21-muon").exit_code == 0  # ef21muon2026: an alias now
    tex = tmp_path / "draft.tex"
    tex.write_text(draft(BIBER), "utf-8")
    result = run("export", "--cited-in", str(tex), "--format", "biblatex")
    assert result.exit_code == 0, result.stderr
    assert entry_keys(result.stdout) == [
        "muonbp2026",
        "iclr2026-rrnco",
        "vip2026",
        "ef21muon2026",
    ]


def test_an_unknown_key_is_named_with_the_closest_and_the_rest_is_written(run, tmp_path):
    md = tmp_path / "draft.md"
    md.write_text("See [@muonbp2026; @muonbp2025, p. 3].\n", "utf-8")
    out = tmp_path / "refs.bib"
    result = run("export", "--cited-in", str(md), "--format", "bibtex", "-o", str(out))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"papers: {md}:1: no paper has the key 'muonbp2025'; closest: muonbp2026, ef21muon2026"
    )
    assert entry_keys(out.read_text("ascii")) == ["muonbp2026"]


def test_nocite_star_exports_every_record_and_options_do_not_mix(run, tmp_path):
    aux = tmp_path / "all.aux"
    aux.write_text("\\relax\n\\citation{*}\n", "utf-8")
    result = run("export", "--cited-in", str(aux), "--format", "csl-json")
    assert result.exit_code == 0 and result.stdout.count('"citation-key"') == 63
    mixed = run("export", "--cited-in", str(aux), "--tag", "muon")
    assert (mixed.exit_code, mixed.stderr) == (
        2,
        "papers: --cited-in chooses the papers itself: give no query, --id, --tag, --venue "
        "or --year with it\n",
    )
    docx = run("export", "--cited-in", str(tmp_path / "draft.docx"))
    assert (docx.exit_code, docx.stderr) == (
        2,
        "papers: draft.docx: not a draft papers reads cited keys from "
        "(.aux, .bcf, .tex, .md, .qmd or .Rmd)\n",
    )


def _compile(folder, steps) -> str:
    for step in steps:
        done = subprocess.run(step, cwd=folder, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (step, done.stdout[-2000:])
    return (folder / "draft.log").read_text("latin-1")


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["bibtex", "biber"])
def test_the_draft_compiles_with_no_undefined_citation(run, tmp_path, tool):
    need_tools("pdflatex", tool)
    assert run("merge", "muonbp", "ef21-muon").exit_code == 0
    (tmp_path / "draft.tex").write_text(draft(BIBTEX if tool == "bibtex" else BIBER), "utf-8")
    pdf = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "draft.tex"]
    _compile(tmp_path, [pdf])  # (the .aux, or biber's .bcf, says what the draft cites)
    aux = tmp_path / ("draft.aux" if tool == "bibtex" else "draft.bcf")
    fmt = "bibtex" if tool == "bibtex" else "biblatex"
    out = tmp_path / "refs.bib"
    result = run("export", "--cited-in", str(aux), "--format", fmt, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    log = _compile(tmp_path, [[tool, "draft"], pdf, pdf])
    assert "undefined" not in log.lower(), log[-2000:]
    assert len(entry_keys(out.read_text("utf-8"))) == 4


def test_the_format_is_bibtex_for_a_draft_or_the_one_the_output_file_names(
    run, tmp_path, monkeypatch
):
    """``--cited-in draft.tex -o refs.bib`` wrote Markdown into refs.bib: a draft's papers
    are BibTeX, and an output file's suffix names its format, unless --format says."""
    monkeypatch.delenv("PAPERS_EXPORT_FORMAT", raising=False)
    tex = tmp_path / "draft.tex"
    tex.write_text(draft(BIBTEX), "utf-8")
    plain = run("export", "--cited-in", str(tex))
    assert (plain.exit_code, entry_keys(plain.stdout)[:1]) == (0, ["muonbp2026"])
    for name, starts in (
        ("refs.bib", "% papers: "),
        ("papers.md", "# Papers (4)"),
        ("papers.yaml", "---\nid: iclr2026-muonbp\n"),
        ("papers.json", '[\n  {\n    "id": "iclr2026-muonbp"'),
    ):
        result = run("export", "--cited-in", str(tex), "-o", str(tmp_path / name))
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / name).read_text("utf-8").startswith(starts), name
    assert entry_keys((tmp_path / "refs.bib").read_text("utf-8"))[0] == "muonbp2026"
    said = run("export", "--cited-in", str(tex), "-o", str(tmp_path / "x.bib"), "-f", "markdown")
    assert (tmp_path / "x.bib").read_text("utf-8").startswith("# Papers (4)"), said.stderr
    monkeypatch.setenv("PAPERS_EXPORT_FORMAT", "biblatex")  # (a .bib of the user's family)
    assert run("export", "--cited-in", str(tex), "-o", str(tmp_path / "y.bib")).exit_code == 0
    assert "\\" not in (tmp_path / "y.bib").read_text("utf-8").split("title", 1)[1][:40]
    listed = run("export", "muon")  # (no draft, no file: the setting, biblatex)
    assert listed.stdout.startswith("% papers: authors unknown")
    monkeypatch.setenv("PAPERS_EXPORT_FORMAT", "csl-json")
    assert run("export", "--cited-in", str(tex)).stdout.startswith('[\n  {\n    "id"')
