"""Exports checked by the tools that consume them: pybtex, bibtex, biber, markdown-it."""

from __future__ import annotations

import subprocess

import pytest

from papercli.export import render
from papercli.export.bibtex import DERIVED_NOTE, NO_AUTHOR_NOTE, UNENCODABLE_NOTE
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.filters import Filters
from papercli.search.questions.listing import list_papers
from papercli.store.record import Record
from testing import need_tools

HOSTILE_TITLE = r"Q&A: 100% of #1 a_b {x} ~y^z \Ours ∇-Net Πnet 3×3 [mask] | $O(T)$ @misc{"


@pytest.fixture(scope="module")
def records(seeded_template):
    from papercli.store.library import Library

    index = PaperIndex(Library(seeded_template)).open()
    return [h.record for h in list_papers(index, Filters())]


def hostile() -> Record:
    return Record(
        id="hostile-2026-x",
        citekey="hostile2026",
        title=HOSTILE_TITLE,
        short_name="∇-Net",
        venue="ICLR",
        year=2026,
        tags=["a|b"],
        abstract=r"We get 5\% and 7% with $K$ tokens, \emph{really} & more } { \( \|x\|^2 \).",
        summary_zh="提出 ∇-Net｜方法，提升 95%。",
        urls=["https://example.org/a_b#frag"],
        authors=HOSTILE_AUTHORS,
    )


def preprint() -> Record:
    """An arXiv preprint under a DBLP citation key (as a DBLP BibTeX file gives it)."""
    return Record(
        id="arxiv2021-lora",
        citekey="DBLP:journals/corr/abs-2106-09685",
        title="LoRA: Low-Rank Adaptation of Large Language Models",
        short_name="LoRA",
        venue="arXiv",
        year=2021,
        tags=["llm"],
        urls=["https://arxiv.org/abs/2106.09685"],
        authors=["Hu, Edward J.", "Shen, Yelong"],
    )


def article() -> Record:
    """A journal's article, as a BibTeX file says (@article, journal)."""
    return Record(
        id="jmlr2020-muon-journals",
        citekey="smith2020muon",
        title="Muon for Journals",
        venue="Journal of Machine Learning Research",
        year=2020,
        kind="article",
        authors=["Smith, Jane"],
    )


HOSTILE_AUTHORS = [
    "Ada Lovelace",
    "Barnes and Noble Lab",
    "Øystein Ødegård",
    "Smith, J. R.",
    "Q{uo}te % Person",
]


def authored(records: list[Record]) -> list[Record]:
    """The records as papers enrich leaves them: authors as OpenReview writes them."""
    import dataclasses

    return [
        dataclasses.replace(
            r,
            authors=["Grace Hopper", f"Ada {r.id.split('-')[1].title()}"],
            urls=[*r.urls, "https://openreview.net/forum?id=Xy_z-1"],
        )
        for r in records
    ]


def parse_bibtex(text):
    import pybtex.errors
    from pybtex.database import parse_string

    pybtex.errors.set_strict_mode(True)
    return parse_string(text, "bibtex")


# --- BibTeX ------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_whole_library_parses_strictly(records, fmt):
    text = render(fmt, records)
    db = parse_bibtex(text)
    assert list(db.entries) == [r.citekey for r in records]
    for record in records:
        entry = db.entries[record.citekey]
        assert entry.type == "inproceedings"
        assert not entry.persons  # no invented authors
        assert entry.fields["booktitle"] == "International Conference on Learning Representations"
        assert entry.fields["year"] == "2026"
        # what the tool says of an entry is a comment above it, never a printed field
        assert "note" not in entry.fields
        derived = [DERIVED_NOTE] if record.title is None else []
        said = "".join(f"% papers: {note}\n" for note in [*derived, NO_AUTHOR_NOTE])
        assert f"{said}@inproceedings{{{record.citekey}," in text
        assert ("annotation" in entry.fields) == (fmt == "biblatex" and bool(record.summary_zh))
    if fmt == "bibtex":
        assert text.isascii()


def test_title_protects_capitals_and_symbols(records):
    by_key = {r.citekey: r for r in records}
    db = parse_bibtex(render("bibtex", list(by_key.values())))
    assert db.entries["convergencemuon2026"].fields["title"] == (
        "{Convergence} of {Muon} with {Newton-Schulz}"
    )
    assert (
        db.entries["nablareasoner2026"]
        .fields["title"]
        .startswith(r"{{\ensuremath{\nabla}}-Reasoner:} {LLM} {Reasoning}")
    )
    untitled = db.entries["muonbp2026"].fields
    assert untitled["title"].startswith("{MuonBP:} {Gradient} orthogonalization is a simple")
    assert "note" not in untitled
    assert untitled["key"] == "MuonBP"


def test_authors_are_one_name_each_and_the_forum_is_the_url(records):
    db = parse_bibtex(render("bibtex", [*authored(records[:3]), hostile()]))
    entry = db.entries["hostile2026"]
    assert [str(p) for p in entry.persons["author"]] == [
        "Lovelace, Ada",
        "{Barnes and Noble Lab}",
        "{\\O}deg{\\r{a}}rd, {\\O}ystein",
        "Smith, J. R.",
        "Person, Quote \\%",
    ]  # fmt: skip (the braces of Q{uo}te read as LaTeX grouping)
    assert "note" not in entry.fields
    first = db.entries[records[0].citekey]
    assert [str(p) for p in first.persons["author"]] == [
        "Hopper, Grace",
        f"{records[0].id.split('-')[1].title()}, Ada",
    ]
    assert first.fields["url"] == "https://openreview.net/forum?id=Xy_z-1"
    assert "Anonymous" not in render("biblatex", records)


def test_hostile_text_is_escaped(records):
    text = render("bibtex", [hostile()])
    entry = parse_bibtex(text).entries["hostile2026"]
    assert entry.fields["title"] == (
        r"{Q\&A:} 100\% of \#1 a\_b x "
        r"\textasciitilde{}y\textasciicircum{}z {Ours} {{\ensuremath{\nabla}}-Net} "
        r"{{\ensuremath{\Pi}}net} 3{\texttimes}3 [mask] | {$O(T)$} @misc\textbraceleft{}"
    )
    assert entry.fields["abstract"] == (
        r"We get 5\% and 7\% with $K$ tokens, really \& more \textbraceright{} "
        r"\textbraceleft{} $\|x\|^2$."
    )
    utf8 = parse_bibtex(render("biblatex", [hostile()])).entries["hostile2026"]
    assert utf8.fields["annotation"] == r"提出 {\ensuremath{\nabla}}-Net｜方法，提升 95\%。"


def latex(tmp_path, tex, steps):
    (tmp_path / "main.tex").write_text(tex)
    for step in steps:
        result = subprocess.run(step, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert result.returncode in (0, 1) if step[0] == "bibtex" else result.returncode == 0, (
            step,
            result.stdout[-3000:],
        )
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("enriched", [False, True], ids=["as-ingested", "enriched"])
def test_compiles_with_pdflatex_and_classic_bibtex(records, tmp_path, enriched):
    need_tools("pdflatex", "bibtex")
    records = authored(records) if enriched else records
    (tmp_path / "lib.bib").write_text(
        render("bibtex", [*records, hostile(), preprint(), article()]), encoding="ascii"
    )
    tex = "\\documentclass{article}\\begin{document}\\nocite{*}\\bibliographystyle{plain}\\bibliography{lib}\\end{document}\n"
    pdf = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
    latex(tmp_path, tex, [pdf, ["bibtex", "main"], pdf, pdf])
    blg = (tmp_path / "main.blg").read_text()
    assert "error message" not in blg
    bbl = (tmp_path / "main.bbl").read_text()
    assert bbl.count("\\bibitem") == len(records) + 3
    assert "no source names" not in bbl and "derived" not in bbl  # (printed under a reference)
    assert "{\\em Journal of Machine Learning Research}" in bbl  # (plain sets a journal so)
    assert "\\bibitem{DBLP:journals/corr/abs-2106-09685}" in bbl
    assert "arXiv preprint arXiv:2106.09685" in " ".join(bbl.split())
    assert (tmp_path / "main.pdf").exists()


@pytest.mark.slow
@pytest.mark.parametrize("enriched", [False, True], ids=["as-ingested", "enriched"])
def test_compiles_with_pdflatex_biblatex_and_biber(records, tmp_path, enriched):
    need_tools("pdflatex", "biber")
    records = authored(records) if enriched else records
    (tmp_path / "lib.bib").write_text(
        render("biblatex", [*records, hostile(), preprint(), article()]), encoding="utf-8"
    )
    tex = (
        "\\documentclass{article}\\usepackage[utf8]{inputenc}"
        "\\usepackage[backend=biber]{biblatex}\\addbibresource{lib.bib}"
        "\\begin{document}\\nocite{*}\\printbibliography\\end{document}\n"
    )
    pdf = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"]
    latex(tmp_path, tex, [pdf, ["biber", "main"], pdf])
    assert "ERROR" not in (tmp_path / "main.blg").read_text()
    bbl = (tmp_path / "main.bbl").read_text()
    entry = bbl[bbl.index("\\entry{DBLP:journals/corr/abs-2106-09685}{misc}") :]
    entry = entry[: entry.index("\\endentry")]
    assert "\\field{eprinttype}{arxiv}" in entry and "\\verb 2106.09685" in entry
    assert "\\entry{smith2020muon}{article}" in bbl
    assert "\\field{journaltitle}{Journal of Machine Learning Research}" in bbl
    assert "\\field{note}" not in bbl  # (the tool's words, printed under a reference)
    assert (tmp_path / "main.pdf").exists()


# --- Markdown ----------------------------------------------------------------------------


def table_cells(markdown: str) -> list[list[str]]:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows, row, inside = [], None, False
    for tok in tokens:
        if tok.type == "tr_open":
            row = []
        elif tok.type in ("td_open", "th_open"):
            inside = True
        elif tok.type == "inline" and inside:
            row.append(
                "".join(c.content for c in tok.children if c.type in ("text", "code_inline"))
            )
        elif tok.type in ("td_close", "th_close"):
            inside = False
        elif tok.type == "tr_close":
            rows.append(row)
    return rows


def test_markdown_table_matches_records_cell_by_cell(records):
    rows = table_cells(render("markdown", records))
    assert rows[0] == ["Name", "Title", "Venue", "Year", "Tags"]
    assert len(rows) == len(records) + 1
    for record, row in zip(records, rows[1:], strict=True):
        assert row[0] == (record.short_name or "")
        assert row[1] == (
            record.title or f"{record.label} (untitled: label derived from the abstract)"
        )
        assert row[2:] == [record.venue, str(record.year), ", ".join(record.tags)]


def test_markdown_keeps_hostile_text_in_its_cell():
    rows = table_cells(render("markdown", [hostile()]))
    assert len(rows[1]) == 5
    assert rows[1][4] == "a|b"
    assert rows[1][1].startswith("Q&A: 100% of #1 a_b x ~y^z Ours ∇-Net Πnet 3×3 [mask] | ")


def test_markdown_math_becomes_dollars():
    text = render("markdown", [hostile()])
    assert r"$\|x\|^2$" in text and "\\(" not in text
    assert "**摘要.** 提出 ∇-Net｜方法，提升 95%。" in text


# --- CSL-JSON ----------------------------------------------------------------------------


def test_csl_json_items(records):
    import json

    items = json.loads(render("csl-json", [*records, hostile()]))
    assert [i["id"] for i in items] == [r.citekey for r in records] + ["hostile2026"]
    by_id = {i["id"]: i for i in items}
    muon = by_id["convergencemuon2026"]
    assert muon["type"] == "paper-conference"
    assert muon["title"] == '<span class="nocase">Convergence of Muon with Newton-Schulz</span>'
    assert muon["container-title"] == "International Conference on Learning Representations"
    assert muon["issued"] == {"date-parts": [[2026]]}
    assert "author" not in muon and muon["annote"].startswith("首次为实际使用的 Muon 优化器")
    assert by_id["muonbp2026"]["note"] == DERIVED_NOTE
    (lora,) = json.loads(render("csl-json", [preprint()]))
    assert {k: lora[k] for k in ("type", "publisher", "number")} == {
        "type": "article",
        "publisher": "arXiv",
        "number": "arXiv:2106.09685",
    }
    assert "container-title" not in lora and "event-title" not in lora
    (journal,) = json.loads(render("csl-json", [article()]))
    assert (journal["type"], journal["container-title"]) == (
        "article-journal",
        "Journal of Machine Learning Research",
    )
    assert "event-title" not in journal
    assert (
        by_id["hostile2026"]["abstract"] == "We get 5% and 7% with K tokens, really & more } { x^2."
    )


@pytest.mark.slow
def test_csl_json_renders_with_pandoc_citeproc(records, tmp_path):
    need_tools("pandoc")
    (tmp_path / "lib.json").write_text(render("csl-json", [*records, hostile()]), encoding="utf-8")
    (tmp_path / "doc.md").write_text("---\nnocite: '@*'\n...\n", encoding="utf-8")
    result = subprocess.run(
        [
            "pandoc",
            "--citeproc",
            "--bibliography",
            "lib.json",
            "-t",
            "plain",
            "--wrap=none",
            "doc.md",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    out = result.stdout.replace("\u200b", "")
    assert "Convergence of Muon with Newton-Schulz" in out  # printed as written
    assert "Q&A: 100% of #1 a_b x ~y^z Ours ∇-Net Πnet 3×3 [mask] | O(T) @misc{" in out
    assert out.count("International Conference on Learning Representations") == len(records) + 1


# --- records round trip, keys, --output ------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_export_then_ingest_gives_identical_records(seeded_template, tmp_path, fmt):
    from papercli.ingest import ingest
    from papercli.store.library import Library

    source = Library(seeded_template)
    index = PaperIndex(source).open()
    dump = tmp_path / f"all.{fmt}"
    dump.write_text(render(fmt, [h.record for h in list_papers(index, Filters())]), "utf-8")
    fresh = Library(tmp_path / "fresh")
    report = ingest(fresh, [dump])
    assert (len(report.new), report.warnings) == (63, [])
    for path in source.papers_dir.glob("*.yaml"):
        assert (fresh.papers_dir / path.name).read_bytes() == path.read_bytes()
    assert ingest(fresh, [dump]).unchanged == 63  # and again: nothing changes


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_a_journal_article_exports_as_an_article_and_reads_back_as_one(tmp_path, fmt):
    from papercli.ingest import ingest
    from papercli.store.library import Library

    text = render(fmt, [article()])
    assert text.startswith("@article{smith2020muon,")
    assert "  journal = {Journal of Machine Learning Research}," in text
    (tmp_path / "a.bib").write_text(text, "utf-8")
    fresh = Library(tmp_path / "fresh")
    report = ingest(fresh, [tmp_path / "a.bib"])
    assert (len(report.new), report.warnings) == (1, [])
    got = fresh.load(report.new[0])
    assert (got.kind, got.venue, got.citekey) == ("article", article().venue, "smith2020muon")


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_an_arxiv_preprint_exported_as_bibtex_reads_back_as_it_was(tmp_path, fmt):
    from papercli.ingest import ingest
    from papercli.store.library import Library

    text = render(fmt, [preprint()])
    assert text.startswith("@misc{DBLP:journals/corr/abs-2106-09685,") and "booktitle" not in text
    assert ("howpublished = {arXiv preprint arXiv:2106.09685}" in text) == (fmt == "bibtex")
    assert ("eprint = {2106.09685}" in text) == (fmt == "biblatex")
    (tmp_path / "lora.bib").write_text(text, "utf-8")
    fresh = Library(tmp_path / "fresh")
    report = ingest(fresh, [tmp_path / "lora.bib"])
    assert (report.new, report.warnings) == (["arxiv2021-lora"], [])
    got = fresh.load("arxiv2021-lora")
    want = preprint()
    assert (got.citekey, got.venue, got.year, got.urls, got.title, got.authors) == (
        want.citekey,
        want.venue,
        want.year,
        want.urls,
        want.title,
        want.authors,
    )


def test_keys_are_the_same_in_any_subset(records):
    full = parse_bibtex(render("bibtex", records)).entries
    subset = [r for r in records if "muon" in r.tags]
    assert list(parse_bibtex(render("bibtex", subset)).entries) == [r.citekey for r in subset]
    assert set(parse_bibtex(render("bibtex", subset)).entries) <= set(full)


def test_user_set_citekey_is_kept(seeded_library):
    from papercli.ingest import ingest
    from testing import SEEDS

    path = seeded_library.record_path("iclr2026-qzo")
    path.write_text(path.read_text("utf-8").replace("citekey: qzo2026", "citekey: Smith:QZO"))
    ingest(seeded_library, SEEDS)
    assert seeded_library.load("iclr2026-qzo").citekey == "Smith:QZO"
    hit = PaperIndex(seeded_library).open().get("iclr2026-qzo")
    assert "\n@inproceedings{Smith:QZO,\n" in render("bibtex", [hit.record])


def test_output_is_written_atomically_and_left_alone_on_failure(seeded_library, tmp_path):
    from typer.testing import CliRunner

    from papercli.cli.app import app

    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "refs.bib"
    out.write_text("% my old file\n")
    lib = ["--library", str(seeded_library.root)]
    failed = CliRunner().invoke(app, [*lib, "export", "zzzqqq", "-f", "bibtex", "-o", str(out)])
    assert failed.exit_code == 1 and out.read_text() == "% my old file\n"
    ok = CliRunner().invoke(app, [*lib, "export", "muon", "-f", "bibtex", "-o", str(out)])
    assert ok.exit_code == 0 and out.read_text().count("@inproceedings") == 4
    assert sorted(p.name for p in folder.iterdir()) == ["refs.bib"]  # no temporary left
    missing = CliRunner().invoke(
        app, [*lib, "export", "muon", "-o", str(tmp_path / "no" / "such" / "dir" / "x.md")]
    )
    assert missing.exit_code == 0  # the folder is created
    into_folder = CliRunner().invoke(app, [*lib, "export", "muon", "-o", str(folder)])
    assert into_folder.exit_code == 2
    assert into_folder.stderr == f"papers: {folder} is a folder: --output takes a file name\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "seeded") == ["no", "out"]


def test_markdown_links_urls_and_survives_newlines():
    record = hostile()
    record.title = "Line one\nline | two"
    text = render("markdown", [record])
    assert "<https://example.org/a_b#frag>" in text
    rows = table_cells(text)
    assert rows[1][1] == "Line one line | two"


CONTROLS = (
    "\x1b[2J\x1b[H"  # clear the screen
    "\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07"  # an OSC 8 hyperlink
    "\x1b]52;c;ZWNobyBwd25lZA==\x07"  # OSC 52: write to the clipboard
    "bell\x07 nul\x00 bs\x08 del\x7f c1\x85\x9b "
    "evil\u202etxt.exe"  # a right-to-left override
)


def control_record() -> Record:
    from papercli.store.record import Source

    return Record(
        id="iclr2026-controls",
        citekey="controls2026",
        title=f"Title {CONTROLS}",
        venue="ICLR",
        year=2026,
        abstract=f"Abstract {CONTROLS} end.",
        summary_zh=f"摘要 {CONTROLS}。",
        authors=[f"Doe{CONTROLS}, Jane"],
        sources=[Source("sources/x.txt", "x.txt", 1, "digest", ["title"])],
    )


@pytest.mark.parametrize("fmt", ["markdown", "bibtex", "biblatex", "csl-json", "json", "yaml"])
def test_no_control_character_reaches_an_export(fmt):
    import re

    text = render(fmt, [control_record()])
    raw = re.findall(
        r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", text
    )
    assert raw == [], f"{fmt}: {sorted(set(raw))}"
    if fmt in ("json", "yaml"):  # whole records: escaped, and read back exactly
        assert ("\\u202e" if fmt == "json" else "\\u202E") in text
    else:  # a citation or a page: the override is shown (as each format escapes "<"),
        shown = text.replace("\\", "").replace("\u200b", "")  # the rest dropped
        assert "<U+202E>" in shown and "evil.example" not in text


@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_a_whole_record_export_reads_back_with_its_controls(tmp_path, fmt):
    from papercli.ingest import ingest
    from papercli.store.library import Library

    path = tmp_path / f"backup.{fmt}"
    path.write_text(render(fmt, [control_record()]), "utf-8")
    library = Library(tmp_path / "lib")
    ingest(library, [path])
    assert library.load("iclr2026-controls").title == f"Title {CONTROLS}"


def test_a_chinese_title_in_bibtex_is_noted_once_and_logs_nothing(caplog):
    from papercli.store.record import Source

    record = Record(
        id="iclr2026-zh",
        citekey="zh2026",
        title="联邦学习的新方法",
        venue="ICLR",
        year=2026,
        sources=[Source("sources/a.txt", "a.txt", 1, "digest", ["title"])],
    )
    with caplog.at_level("DEBUG"):
        text = render("bibtex", [record])
    assert caplog.records == []  # pylatexenc warned for every character, twice
    assert text.startswith(
        f"% papers: {UNENCODABLE_NOTE.format('title')}\n% papers: {NO_AUTHOR_NOTE}\n@"
    )
    assert "note =" not in text
