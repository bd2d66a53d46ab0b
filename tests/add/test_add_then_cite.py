"""Issue 43, end to end: papers added by arXiv id and DOI, then exactly what a LaTeX draft
cites exported, and the draft compiled with bibtex and with biber: no undefined citation."""

from __future__ import annotations

import subprocess

import pytest

from add.services import paper, work
from papercli.store.library import Library
from testing import invoke, need_tools

DRAFT = r"""\documentclass{article}
PREAMBLE
\begin{document}
Sparse kernels \cite{KEY1} and residual learning \cite{KEY2}.
BIBLIOGRAPHY
\end{document}
"""
TOOLS = {
    "bibtex": ("", "\\bibliographystyle{plain}\\bibliography{refs}", "draft.aux", "bibtex"),
    "biber": (
        "\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}",
        "\\printbibliography",
        "draft.bcf",
        "biblatex",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["bibtex", "biber"])
def test_add_then_export_what_the_draft_cites_and_compile(
    arxiv_api, crossref_api, openreview, tmp_path, monkeypatch, tool
):
    need_tools("pdflatex", tool)
    monkeypatch.setattr("papercli.remote.arxiv.INTERVAL", 0.0)
    arxiv_api.add(paper("2501.00001", title="Sparse Kernels for Fast Attention"))
    crossref_api.add(
        work(
            "10.1109/CVPR.2016.90",
            title="Deep Residual Learning for Image Recognition",
            type="proceedings-article",
            container="Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition",
            year=2016,
        )
    )
    env = {
        "PAPERS_ARXIV_API": arxiv_api.url,
        "PAPERS_CROSSREF_API": crossref_api.url,
        "PAPERS_OPENREVIEW_API": openreview.url,
    }
    lib = tmp_path / "lib"
    added = invoke("--library", str(lib), "add", "2501.00001", "doi:10.1109/CVPR.2016.90", env=env)
    assert added.exit_code == 0, added.stderr
    library = Library(lib)
    keys = sorted(library.load_path(p).citekey for p in library.papers_dir.glob("*.yaml"))
    assert len(keys) == 2
    preamble, bibliography, aux, fmt = TOOLS[tool]
    tex = DRAFT.replace("PREAMBLE", preamble).replace("BIBLIOGRAPHY", bibliography)
    (tmp_path / "draft.tex").write_text(tex.replace("KEY1", keys[0]).replace("KEY2", keys[1]))
    pdf = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "draft.tex"]
    subprocess.run(pdf, cwd=tmp_path, capture_output=True, check=True, timeout=300)
    out = tmp_path / "refs.bib"
    exported = invoke(
        "--library",
        str(lib),
        "export",
        "--cited-in",
        str(tmp_path / aux),
        "-f",
        fmt,
        "-o",
        str(out),
    )
    assert exported.exit_code == 0, exported.stderr
    for step in ([tool, "draft"], pdf, pdf):
        done = subprocess.run(step, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (step, done.stdout[-2000:])
    log = (tmp_path / "draft.log").read_text("latin-1")
    assert "undefined" not in log.lower(), log[-2000:]
    bbl = " ".join(
        (tmp_path / "draft.bbl").read_text("utf-8").replace("{", "").replace("}", "").split()
    )
    assert "Deep Residual Learning" in bbl and "Sparse Kernels" in bbl
