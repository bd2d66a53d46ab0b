"""Every command through Typer's runner (exact output) and through real `papers` processes."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from papercli import __version__
from papercli.cli.app import app
from papercli.errors import UsageError
from papercli.store.record import FIELDS
from testing import ABSTRACTS, DIGEST, PAPERS, SEEDS

MUON_LINES = [
    "iclr2026-convergence-muon-newton-schulz",
    "iclr2026-muonbp",
    "iclr2026-ef21-muon",
    "iclr2026-convergence-analysis-adaptive-optimizers-under",
]


@pytest.fixture
def run(seeded_library):
    runner = CliRunner()

    def invoke(*args, library=seeded_library.root, stdin=None):
        return runner.invoke(app, ["--library", str(library), *args], input=stdin)

    return invoke


def lines(text):
    return text.splitlines()


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"papers {__version__}\n")


def test_search_plain_output_has_stable_columns(run):
    result = run("search", "muon")
    assert result.exit_code == 0
    rows = [line.split("\t") for line in lines(result.stdout)]
    assert sorted(r[0] for r in rows) == sorted(MUON_LINES)
    assert all(len(r) == 7 and r[2:4] == ["ICLR", "2026"] for r in rows)
    by_id = {r[0]: r for r in rows}
    assert by_id["iclr2026-convergence-muon-newton-schulz"][5] == (
        "Convergence of Muon with Newton-Schulz"
    )
    assert by_id["iclr2026-muonbp"][5].startswith("(untitled) MuonBP — Gradient orthogonalization")
    assert "Muon" in by_id["iclr2026-muonbp"][6]  # the snippet shows why it matched


def test_search_json_is_complete_records_with_score(run):
    result = run("search", "muon", "--json")
    data = json.loads(result.stdout)
    assert len(data) == 4
    assert all(list(d) == [*(f for f in FIELDS if f in d), "score", "snippet"] for d in data)
    assert all(d["venue"] == "ICLR" and d["year"] == 2026 for d in data)
    assert {d["id"] for d in data} == set(MUON_LINES)


def test_search_limit(run):
    result = run("search", "muon", "--limit", "2")
    assert len(lines(result.stdout)) == 2


def test_nothing_found_exits_1_with_a_message(run):
    result = run("search", "zzzzqqq")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "papers: no paper matches 'zzzzqqq'\n"
    result = run("search", "federatd", "--tag", "federated-learning", "--ids")
    assert result.exit_code == 0 and result.stdout  # (clearly federated: run)
    assert result.stderr == "papers: no paper matches 'federatd'; showing results for 'federated'\n"
    result = run("search", "loqer")  # (lower or loser: asked)
    assert (result.exit_code, result.stderr) == (
        1,
        "papers: no paper matches 'loqer'. Did you mean: lower?\n",
    )
    result = run("search", "zzzzqqq", "--json")
    assert (result.exit_code, result.stdout) == (1, "[]\n")
    pasted = " ".join(f"zzq{n}word" for n in range(40))  # (a pasted passage, cut short, with
    result = run("search", pasted)  # no 40-word "Did you mean")
    assert result.stderr == f"papers: no paper matches {pasted[:59] + '…'!r}\n"
    result = run("list", "--tag", "muon", "--year", "1999")
    assert result.stderr == "papers: no paper to list (filters: tag muon, year 1999)\n"


def test_a_minus_word_typed_unquoted_excludes_as_the_help_says(run):
    """`papers search muon -adam`, as typed in web search: Click read -adam as options
    (-a -d -a -m: "No such option: -a", exit 2), and -noise as -n with the value "oise"."""
    quoted = run("search", "muon -adam", "--ids")
    assert quoted.exit_code == 0 and quoted.stdout
    for args in (
        ["muon", "-adam", "--ids"],
        ["-adam", "--ids", "muon"],
        ["muon", "--limit", "9", "-adam", "--ids"],
        ["muon", "-n9", "-adam", "--ids"],
    ):
        result = run("search", *args)
        assert (result.exit_code, result.stdout, result.stderr) == (0, quoted.stdout, ""), args
    noise = run("search", "muon", "-noise", "--ids")
    assert noise.exit_code == 0 and noise.stdout == run("search", "muon -noise", "--ids").stdout
    shown = run("search", "muon", "-h")  # (-h is help still)
    assert shown.exit_code == 0 and "papers search [OPTIONS]" in shown.stdout
    exported = run("export", "muon", "-adam", "-f", "bibtex")  # (export takes a query too)
    assert exported.exit_code == 0
    assert exported.stdout == run("export", "muon -adam", "-f", "bibtex").stdout


def test_nothing_found_names_the_word_to_leave_out(run):
    result = run("search", "how to reduce communication in distributed training")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "papers: no paper matches 'how to reduce communication in distributed training'; "
        "without 'reduce', 3 papers match: papers search communication distributed training\n"
    )
    one = run("search", "convergence muon newton-schulz quantum")
    assert one.stderr == (
        "papers: no paper matches 'convergence muon newton-schulz quantum'; "
        "without 'quantum', 1 paper matches: papers search convergence muon newton-schulz\n"
    )
    two = run("search", "GRPO variants")  # (the topic stays, though 3 papers say variants)
    assert (two.exit_code, two.stderr) == (
        1,
        "papers: no paper matches 'GRPO variants'; without 'variants', 4 papers match: "
        "papers search GRPO\n",
    )


@pytest.mark.parametrize("query", ["MoE", "mixture of experts", "混合专家", "MoE muon"])
def test_a_concept_no_paper_speaks_of_is_named_and_not_corrected(run, query):
    """The glossary knows MoE; no bundled paper speaks of it. That is the answer, not
    "Did you mean: more?" (MoE) or "mixture of exerts" (a word one edit away)."""
    result = run("search", query)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"papers: no paper matches {query!r}: no paper here speaks of "
        "mixture of experts (混合专家)\n"
    )


def test_the_year_option_takes_what_year_takes_in_a_query(run):
    between = run("list", "--tag", "muon", "--year", "2025..2026", "--ids")
    assert sorted(between.stdout.split()) == sorted(MUON_LINES)
    since = run("search", "muon", "--year", ">=2026", "--ids")
    assert sorted(since.stdout.split()) == sorted(MUON_LINES)
    before = run("list", "--year", "..2025")
    assert (before.exit_code, before.stderr) == (
        1,
        "papers: no paper to list (filters: year ..2025)\n",
    )
    backwards = run("search", "muon", "--year", "2026..2025")
    assert (backwards.exit_code, backwards.stderr) == (
        2,
        "papers: --year 2026..2025 runs backwards and matches nothing; did you mean "
        "--year 2025..2026?\n",
    )
    assert run("list", "--year", "26").stderr == (
        "papers: --year 26 is not a year; write --year 2026, --year 2025..2026 or --year >=2025\n"
    )


@pytest.mark.parametrize("command", [["search", "muon"], ["list", "--tag", "muon"]])
def test_json_and_ids_together_is_a_usage_error(run, command):
    result = run(*command, "--json", "--ids")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "papers: --json and --ids cannot go together: choose one\n"


def test_list_by_tag_accepts_aliases_in_both_languages(run):
    english = run("list", "--tag", "federated-learning")
    chinese = run("list", "--tag", "联邦学习")
    assert english.exit_code == 0 and english.stdout == chinese.stdout
    listed = {line.split("\t")[0] for line in lines(english.stdout)}
    assert {"iclr2026-feddag", "iclr2026-deepafl"} <= listed


def test_list_json_is_a_complete_array(run):
    data = json.loads(run("list", "--json").stdout)
    assert len(data) == 63
    assert all("score" not in d and d["sources"] for d in data)


def test_tags_lists_counts(run):
    result = run("tags")
    rows = [line.split("\t") for line in lines(result.stdout)]
    assert rows and all(len(r) == 2 and int(r[1]) > 0 for r in rows)
    counts = [int(r[1]) for r in rows]
    assert counts == sorted(counts, reverse=True)
    data = json.loads(run("tags", "--json").stdout)
    assert [[d["tag"], str(d["count"])] for d in data] == rows


def test_show_plain(run):
    result = run("show", "iclr2026-rrnco")
    assert result.exit_code == 0
    out = lines(result.stdout)
    assert (
        out[0] == "title: RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization"
    )
    assert (
        "source: iclr2026-optimization-theory-digest.txt:107 (digest: title, short_name, summary_zh)"
        in out
    )
    assert "source: iclr2026-abstracts.txt:7 (abstracts: short_name, abstract)" in out
    assert out[-1].startswith("summary_zh: 提出 RRNCO 架构")


def test_show_a_bibtex_article_by_its_arxiv_link(tmp_path):
    """What BibTeX says (its entry type, a preprint's link) shows, and finds the paper."""
    (tmp_path / "a.bib").write_text(
        "@article{smith2020muon, title={Muon for Journals}, author={Smith, Jane},\n"
        "  journal={Journal of Machine Learning Research}, year=2020, eprint={2001.00001},\n"
        "  archiveprefix={arXiv}}\n",
        "utf-8",
    )
    runner, library = CliRunner(), str(tmp_path / "lib")
    assert (
        runner.invoke(app, ["--library", library, "ingest", str(tmp_path / "a.bib")]).exit_code == 0
    )
    result = runner.invoke(app, ["--library", library, "show", "arXiv:2001.00001"])
    assert lines(result.stdout) == [
        "title: Muon for Journals",
        "id: jmlr2020-muon-journals",
        "citekey: smith2020muon",
        "authors: Smith, Jane",
        "venue: Journal of Machine Learning Research 2020",
        "kind: article",
        "tags: muon",
        "urls: https://arxiv.org/abs/2001.00001",
        "source: a.bib:1 (bibtex: title, authors, urls)",
    ]


LATEX_ABSTRACT = (
    r"We propose \textsc{Lumina}, a method that trains {\em some words} models, e.g. Qwen2.5,"
    r" by 2.7\%. It beats \textsc{FooBar}."
)


def test_latex_numbers_and_abbreviations_read_right_in_show_and_every_export(tmp_path):
    """Issue 45: {\\em some words} read as "em some words", a label ended at "e.g.", and
    \\textsc{Lumina} gave no short name. An untitled entry: its label is its short name and
    its abstract's first sentence, in show, Markdown, BibTeX and CSL-JSON."""
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@misc{lumina2025, author={Smith, Jane}, year={2025}, booktitle={ICML},\n"
        f"  abstract={{{LATEX_ABSTRACT}}}}}\n",
        "utf-8",
    )
    runner, library = CliRunner(), str(tmp_path / "lib")

    def papers(*args):
        result = runner.invoke(app, ["--library", library, *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    papers("ingest", str(bib))
    first = "We propose Lumina, a method that trains some words models, e.g. Qwen2.5, by 2.7%."
    abstract, label = f"{first} It beats FooBar.", f"Lumina — {first}"
    assert lines(papers("show", "lumina2025")) == [
        f"title: (untitled) {label}",
        "id: icml2025-lumina",
        "citekey: lumina2025",
        "short name: Lumina",
        "authors: Smith, Jane",
        "venue: ICML 2025",
        "kind: misc",
        "tags: llm",
        "source: a.bib:1 (bibtex: authors, short_name, abstract)",
        f"abstract: {abstract}",
    ]
    markdown = lines(papers("export", "-f", "markdown"))
    derived = f"*{label}* (untitled: label derived from the abstract)"
    assert f"| Lumina | [{derived}](#icml2025-lumina) | ICML | 2025 | llm |" in markdown
    assert [f"## {derived}", f"**Abstract.** {abstract}"] == [markdown[-5], markdown[-1]]
    for fmt in ("bibtex", "biblatex"):
        entry = lines(papers("export", "-f", fmt))
        assert entry[2] == (
            "  title = {{Lumina:} {We} propose {Lumina,} a method that trains some words "
            r"models, e.g. {Qwen2.5,} by 2.7\%.},"
        )
        assert entry[6] == "  abstract = {" + abstract.replace("%", r"\%") + "},"
        assert entry[-2:] == ["  shorthand = {Lumina}", "}"]
    [item] = json.loads(papers("export", "-f", "csl-json"))
    assert item["title"] == f'<span class="nocase">Lumina: {first}</span>'
    assert (item["title-short"], item["abstract"]) == ("Lumina", abstract)
    for fmt in ("json", "yaml"):
        text = papers("export", "-f", fmt)
        assert "short_name: Lumina" in text or '"short_name": "Lumina"' in text
        assert abstract in text and "em some" not in text and "textsc" not in text


def test_show_json_and_unknown_id(run):
    data = json.loads(run("show", "iclr2026-qzo", "--json").stdout)
    assert data["short_name"] == "QZO" and data["title"] is None
    result = run("show", "nope")
    assert (result.exit_code, result.stderr) == (
        2,
        "papers: no paper with id, short name, citation key, link or title 'nope'\n",
    )


def test_export_to_file_and_stdout(run, tmp_path):
    out = tmp_path / "muon.bib"
    result = run("export", "--tag", "muon", "--format", "bibtex", "--output", str(out))
    assert result.exit_code == 0, result.stderr
    text = out.read_text()
    assert result.stderr == (
        f"papers: wrote 4 papers to {out}\n"
        "papers: 4 of 4 entries name no authors: papers enrich can fill them in\n"
    )
    assert text.count("@inproceedings{") == 4 and "@inproceedings{muonbp2026," in text
    stdout = run("export", "muon", "--format", "bibtex").stdout
    assert stdout.count("@inproceedings{") == 4


@pytest.mark.parametrize("fmt", ["bibtex", "biblatex"])
def test_export_advice_goes_to_stderr_once_never_into_an_entry(run, fmt):
    """A style prints a note under the reference, in the user's paper: the tool's advice is
    one line on stderr with a count, and a % comment above the entry."""
    result = run("export", "--format", fmt)
    assert result.exit_code == 0, result.stderr
    n = result.stdout.count("@inproceedings{")
    assert result.stderr == (
        f"papers: {n} of {n} entries name no authors: papers enrich can fill them in\n"
    )
    assert "enrich" not in result.stdout and "note =" not in result.stdout
    assert result.stdout.count("% papers: authors unknown: no source names them\n@") == n
    one = run("export", "--format", fmt, "iclr2026-muonbp")
    assert one.stderr == "papers: the entry names no authors: papers enrich can fill them in\n"
    assert run("export", "--format", "markdown").stderr == ""


def test_export_ids_from_stdin(run):
    result = run("export", "-", "--format", "json", stdin="iclr2026-qzo\niclr2026-rrnco\n")
    assert [d["id"] for d in json.loads(result.stdout)] == ["iclr2026-qzo", "iclr2026-rrnco"]


def test_tag_ids_from_stdin_as_search_ids_writes_them(run):
    muon = run("search", "muon", "--ids").stdout
    result = run("tag", "-", "--add", "to-read", stdin=muon)
    assert (result.exit_code, result.stderr) == (0, "")
    assert [line.split(":")[0] for line in lines(result.stdout)] == lines(muon)
    assert lines(run("list", "--tag", "to-read", "--ids").stdout) == sorted(lines(muon))
    empty = run("tag", "-", "--add", "to-read", stdin="")
    assert (empty.exit_code, empty.stderr) == (
        2,
        "papers: no paper ids on standard input: "
        "papers search muon --ids | papers tag - --add TAG\n",
    )


def test_ingest_reads_a_document_piped_in(tmp_path):
    """A page copied from the browser and piped in: its records name it stdin."""
    runner, library = CliRunner(), str(tmp_path / "lib")
    result = runner.invoke(
        app, ["--library", library, "ingest", "-"], input=ABSTRACTS.read_text("utf-8")
    )
    assert (result.exit_code, result.stderr) == (0, "")
    assert (
        result.stdout
        == "ingested 1 document, 19 entries: 19 new, 0 merged, 0 unchanged, 0 warnings\n"
    )
    shown = runner.invoke(app, ["--library", library, "show", "iclr2026-rrnco"]).stdout
    assert "source: stdin:7 (abstracts: short_name, abstract)" in lines(shown)
    twice = runner.invoke(app, ["--library", library, "ingest", "-", "-"], input="x")
    assert (twice.exit_code, twice.stderr) == (
        2,
        "papers: '-' reads the document piped in, which can be read once\n",
    )
    junk = runner.invoke(app, ["--library", library, "ingest", "-"], input="hello\n")
    assert (junk.exit_code, junk.stderr) == (
        2,
        "papers: stdin: not a digest page, abstract list, BibTeX file or papers JSON/YAML "
        "export (see docs/formats.md)\n",
    )


def test_ids_are_not_read_from_a_terminal(seeded_library):
    """``papers tag - --add x`` typed at a terminal is an error at once, not a silent wait."""
    from papercli.cli.app import Session
    from papercli.render import Environment

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    session = Session()
    session.env = Environment(io.StringIO(), io.StringIO(), stdin=Terminal("iclr2026-qzo\n"))
    with pytest.raises(UsageError, match=r"^'-' reads paper ids piped in, and none are: "):
        session.piped_ids("papers search muon --ids | papers tag - --add TAG")
    from pathlib import Path

    from papercli.cli.library import _piped_document

    with pytest.raises(UsageError, match=r"^'-' reads a document piped in, and none is: "):
        _piped_document(session, [Path("-")])


def test_export_takes_the_venue_and_year_filters_list_takes(run):
    by_list = run(
        "list", "--tag", "muon", "--venue", "iclr", "--year", "2025..2026", "--ids"
    ).stdout
    result = run("export", "--tag", "muon", "--venue", "iclr", "--year", "2025..2026", "-f", "json")
    assert sorted(d["id"] for d in json.loads(result.stdout)) == sorted(lines(by_list))
    assert len(lines(by_list)) == 4
    none = run("export", "--year", "..2020")
    assert (none.exit_code, none.stderr) == (
        1,
        "papers: no paper to export (filters: year ..2020)\n",
    )


def test_an_export_that_selects_nothing_says_what_it_looked_for(run):
    words = run("export", "zzqxvjk")
    assert (words.exit_code, words.stdout) == (1, "")
    assert words.stderr == "papers: no paper matches 'zzqxvjk'\n"
    both = run("export", "muon", "--tag", "no-such-tag")
    assert both.stderr == "papers: no paper matches 'muon' (filters: tag no-such-tag)\n"
    tag = run("export", "--tag", "no-such-tag")
    assert tag.stderr == "papers: no paper to export (filters: tag no-such-tag)\n"


def test_export_bad_format(run):
    result = run("export", "--format", "docx")
    assert result.exit_code == 2
    assert (
        result.stderr
        == "papers: unknown format 'docx' (choose markdown|bibtex|biblatex|csl-json|json|yaml)\n"
    )


def test_ingest_reports_and_is_idempotent(tmp_path):
    runner = CliRunner()
    lib = str(tmp_path / "lib")
    first = runner.invoke(app, ["--library", lib, "ingest", *map(str, SEEDS)])
    assert first.exit_code == 0
    assert first.stdout == (
        "ingested 2 documents, 64 entries: 63 new, 1 merged, 0 unchanged, 0 warnings\n"
    )
    again = runner.invoke(app, ["--library", lib, "ingest", str(DIGEST)])
    assert again.stdout == (
        "ingested 1 document, 45 entries: 0 new, 0 merged, 45 unchanged, 0 warnings\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "papers: {path}: no such file\n"),
        (b"", "papers: {path}: the document is empty\n"),
        (
            b"\x89PNG\r\n\x1a\n\x00\x00",
            "papers: {path}: looks like a binary file, not a text document\n",
        ),
        (
            b"hello\nworld\n",
            "papers: {path}: not a digest page, abstract list, BibTeX file or papers JSON/YAML export (see docs/formats.md)\n",
        ),
    ],
)
def test_unusable_input_is_one_line_exit_2_and_touches_nothing(tmp_path, content, message):
    path = tmp_path / "doc.txt"
    if content is not None:
        path.write_bytes(content)
    lib = tmp_path / "lib"
    result = CliRunner().invoke(app, ["--library", str(lib), "ingest", str(path)])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", message.format(path=path))
    assert not (lib / "papers").exists()


def test_index_command(run):
    result = run("index")
    assert result.exit_code == 0
    assert result.stdout.startswith("index: 63 papers (")
    again = run("index")  # (nothing to do: the index as it was, the next command too)
    assert again.stdout == "index: 63 papers (0 added, 0 updated, 0 removed, 0 invalid)\n"
    after = run("search", "muon")
    assert (after.exit_code, after.stderr) == (0, "")  # (no "…: rebuilt it (63 papers)")
    rebuilt = run("index", "--rebuild")
    assert rebuilt.stdout == "index: 63 papers (63 added, 0 updated, 0 removed, 0 invalid)\n"


def test_library_from_environment(seeded_library, monkeypatch):
    monkeypatch.setenv("PAPERS_LIBRARY", str(seeded_library.root))
    result = CliRunner().invoke(app, ["search", "QZO"])
    assert lines(result.stdout)[0].startswith("iclr2026-qzo\t")


# --- real processes ------------------------------------------------------------------------


def papers(*args, cwd=None, env=None, stdin=None):
    return subprocess.run(
        [str(PAPERS), *args], capture_output=True, text=True, cwd=cwd, env=env, input=stdin
    )


@pytest.mark.slow
def test_end_to_end_as_a_user_types_it(tmp_path):
    lib = str(tmp_path / "lib")
    ingest = papers("--library", lib, "ingest", str(DIGEST), str(ABSTRACTS))
    assert ingest.returncode == 0, ingest.stderr
    search = papers("--library", lib, "search", "muon")
    assert search.returncode == 0 and search.stderr == ""
    assert sorted(line.split("\t")[0] for line in search.stdout.splitlines()) == sorted(MUON_LINES)
    ids = papers("--library", lib, "search", "muon", "--ids")
    assert sorted(ids.stdout.split()) == sorted(MUON_LINES)
    bib = papers("--library", lib, "export", "-", "--format", "bibtex", stdin=ids.stdout)
    assert bib.returncode == 0 and bib.stdout.count("@inproceedings{") == 4
    missing = papers("--library", lib, "show", "iclr2026-nothing")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        "papers: no paper with id, short name, citation key, link or title 'iclr2026-nothing'\n"
    )
    assert "Traceback" not in missing.stderr


def test_similar_command(run):
    result = run("similar", "iclr2026-muonbp", "--limit", "3")
    assert result.exit_code == 0
    assert lines(result.stdout)[0].split("\t")[0] == "iclr2026-ef21-muon"
    data = json.loads(run("similar", "iclr2026-muonbp", "--json").stdout)
    assert len(data) == 10 and all("score" in d for d in data)


def test_malformed_query_is_one_line_exit_2(run):
    result = run("search", "muon AND")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "papers: AND needs a word on its right in 'muon AND'\n"


def test_terminal_output_is_a_table_with_highlighted_snippets(seeded_library):
    """Rich's forced terminal: a table, with the matched words highlighted."""
    import re

    result = CliRunner(env={"FORCE_COLOR": "1", "COLUMNS": "120", "NO_COLOR": None}).invoke(
        app, ["--library", str(seeded_library.root), "search", "联邦学习"], color=True
    )
    assert result.exit_code == 0
    screen = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
    assert screen.startswith("# ┃ paper (id)")
    assert "iclr2026-feddag" in screen and "\t" not in screen
    assert "\x1b[1;33m联邦学习\x1b[0m" in result.stdout  # the match, bold yellow


def test_list_several_tags_all_or_any(run):
    def listed(*args):
        return {line.split("\t")[0] for line in lines(run("list", *args).stdout)}

    muon, fed = listed("--tag", "muon"), listed("--tag", "federated-learning")
    assert (
        listed("--tag", "muon", "--tag", "optimizer") == muon
    )  # every muon paper is an optimizer one
    assert listed("--tag", "muon", "--tag", "federated-learning") == set()
    assert listed("--tag", "muon", "--tag", "联邦学习", "--any") == muon | fed


@pytest.mark.slow
def test_the_readme_shows_what_make_run_prints_today(tmp_path):
    """The README's `make run` output is the tool's own, not an old capture."""
    import shutil

    from testing import BUNDLED, ROOT

    readme = (ROOT / "README.md").read_text("utf-8")
    block = readme.split("$ make run\n", 1)[1].split("```", 1)[0]
    command, shown = block.split("\n", 1)
    assert command == ".venv/bin/papers --library data/library search muon"
    library = tmp_path / "library"
    # as a fresh clone has it: records and sources, no index yet
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    result = subprocess.run(
        [str(PAPERS), "--library", str(library), "search", "muon"],
        capture_output=True,
        text=True,
        env={k: v for k, v in __import__("os").environ.items() if k != "COLUMNS"},
    )
    assert result.returncode == 0, result.stderr
    assert shown == result.stdout


def _readme_examples() -> list[tuple[str, str]]:
    """The blocks of the README and docs/ that show a search of the bundled library as a
    pipe or a script sees it (``$ papers search …`` or ``$ papers similar …``, then what it
    printed): command, output. A table drawn for a terminal is left to the eye."""
    import re

    from testing import ROOT

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    readme = "\n".join(page.read_text("utf-8") for page in pages)
    blocks = re.findall(r"```\n\$ (papers (?:search|similar) [^\n]*)\n(.*?)```", readme, re.S)
    return [(command, shown) for command, shown in blocks if "# a terminal" not in command]


@pytest.fixture(scope="module")
def bundled_copy(tmp_path_factory):
    import shutil

    from testing import BUNDLED

    library = tmp_path_factory.mktemp("readme") / "library"
    shutil.copytree(BUNDLED, library, ignore=shutil.ignore_patterns(".index", ".lock"))
    subprocess.run(
        [str(PAPERS), "--library", str(library), "index"], check=True, capture_output=True
    )
    return library


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "shown"), [pytest.param(*example, id=example[0]) for example in _readme_examples()]
)
def test_the_readme_examples_show_what_papers_prints_today(bundled_copy, command, shown):
    """Each search the README shows, run on the bundled library as the README runs it (a
    pipe; ``| cut`` as a shell would), prints what the README says, messages included."""
    import os

    bin_dir = str(PAPERS.parent)
    environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    environ.update(PAPERS_LIBRARY=str(bundled_copy), PATH=bin_dir + os.pathsep + environ["PATH"])
    result = subprocess.run(command, shell=True, capture_output=True, text=True, env=environ)
    assert result.stdout + result.stderr == shown


def test_the_readme_has_search_examples_to_check():
    assert len(_readme_examples()) >= 7


ADD = "papers ingest FILE… (or papers ingest --sample for two example documents)"


@pytest.mark.parametrize(
    "args",
    [
        ["search", "muon"],
        ["list"],
        ["show", "x"],
        ["similar", "x"],
        ["tags"],
        ["stats"],
        ["export"],
        ["index"],
        ["doctor"],
        ["tag", "x", "--add", "y"],
        ["retag"],
        ["edit", "x"],
    ],
)
def test_a_library_that_does_not_exist_is_an_error_and_is_not_created(tmp_path, args):
    missing = tmp_path / "paprs"
    result = CliRunner().invoke(app, ["--library", str(missing), *args])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"papers: no library at {missing}: it does not exist; create one with {ADD}\n"
    )
    assert not missing.exists()


@pytest.mark.parametrize("inside", [False, True])
def test_a_file_where_a_new_library_would_go_is_an_error_not_a_failed_mkdir(tmp_path, inside):
    afile = tmp_path / "notes.txt"
    afile.write_text("mine\n")
    root = afile / "lib" if inside else afile
    result = CliRunner().invoke(app, ["--library", str(root), "ingest", str(SEEDS[0])])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"papers: cannot make a library at {root}: {afile} is a file\n"
    assert afile.read_text() == "mine\n"


def test_an_empty_library_says_where_it_is_and_how_to_add_papers(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in (["list"], ["search", "muon"], ["tags"]):
        result = CliRunner().invoke(app, ["--library", str(empty), *args])
        assert (result.exit_code, result.stdout) == (1, "")
        assert (
            result.stderr
            == f"papers: the library at {empty} has no papers yet; add some with {ADD}\n"
        )
    doctor = CliRunner().invoke(app, ["--library", str(empty), "doctor"])
    assert (doctor.exit_code, doctor.stdout) == (0, f"{empty}: no problems found\n")


def test_a_folder_that_is_not_a_library_is_an_error_and_is_left_alone(tmp_path):
    """A mistyped --library naming some other folder (a project, the home folder) was
    searched as an empty library and left holding .index and .lock."""
    other = tmp_path / "thesis"
    other.mkdir()
    (other / "thesis.tex").write_text("\\documentclass{article}\n")
    for args in (["list"], ["search", "muon"], ["tags"], ["doctor"]):
        result = CliRunner().invoke(app, ["--library", str(other), *args])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            f"papers: no library at {other}: the folder holds other files and no papers/; "
            "--library names a library's folder\n"
        )
    assert sorted(p.name for p in other.iterdir()) == ["thesis.tex"]


LATE_SIGNAL = r"""
import os, signal, sys, time
from papercli.cli import main

class Late:
    # Torn down with the modules, once the command has ended and Python has put back the
    # default handlers of the signals it handled: the last moment a signal can arrive.
    def __del__(self, kill=os.kill, pid=os.getpid(), signum=int(sys.argv[1]),
                sleep=time.sleep):
        kill(pid, signum)
        sleep(0.2)

late = Late()
sys.argv = ["papers", "--library", sys.argv[2], "list", "--ids", "--tag", "muon"]
main()
"""


@pytest.mark.parametrize("signum", [2, 15], ids=["SIGINT", "SIGTERM"])
def test_a_signal_after_the_command_has_ended_changes_nothing(seeded_library, signum):
    """A Ctrl-C or SIGTERM that arrives while Python shuts down, after the command's work
    is done and printed, neither kills the process with the default action nor hides its
    exit status (CI once saw a finished ingest end as -15, silently)."""
    result = subprocess.run(
        [sys.executable, "-c", LATE_SIGNAL, str(signum), str(seeded_library.root)],
        capture_output=True,
        text=True,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert "iclr2026-muonbp" in result.stdout.splitlines()


FROZEN = """
import atexit, gc, sys
atexit.register(lambda: print(gc.get_freeze_count() > 10_000, gc.isenabled()))
sys.argv = ["papers", "--version"]
from papercli.cli import main
main()
"""


def test_what_the_commands_imported_is_kept_out_of_the_collectors_scans():
    """A mechanism, not a timing: the objects importing Typer and the commands made are
    frozen (a piped listing's full collections walked them all), and the collector is on."""
    result = subprocess.run([sys.executable, "-c", FROZEN], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "True True"


SIGNAL_IN_A_FINALIZER = """
import os, signal, sys, time
from papercli.cli import _interrupted

signal.signal(int(sys.argv[1]), _interrupted)

class Lock:
    # As Whoosh's file lock does, a __del__ that runs while the command works.
    def __del__(self):
        os.kill(os.getpid(), int(sys.argv[1]))
        time.sleep(0.2)

try:
    Lock()
    sys.stdout.write("went on\\n")  # (one call: print writes its line end apart)
    time.sleep(5)
    print("not interrupted")
except KeyboardInterrupt as exc:
    print(type(exc).__name__)
"""


@pytest.mark.parametrize(
    ("signum", "raised"), [(2, "KeyboardInterrupt"), (15, "Terminated")], ids=["SIGINT", "SIGTERM"]
)
def test_a_signal_that_lands_in_a_finalizer_still_interrupts_the_command(signum, raised):
    """Python drops an exception raised in a __del__ (printing "Exception ignored in"), so a
    SIGTERM that landed in one let an ingest run on and end 0 with a traceback on stderr
    (seen in CI). The interruption is raised once the __del__ has returned."""
    result = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_A_FINALIZER, str(signum)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (result.stdout, result.stderr) == (f"went on\n{raised}\n", "")


SIGNAL_IN_A_WEAKREF_CALLBACK = """
import signal, sys, time
from papercli.cli import _interrupted

# The frame of the callback by which a WeakValueDictionary drops an entry (weakref.py's
# remove): an exception raised there is printed and dropped, as in a __del__
code = compile("def remove(wr):\\n    return sys._getframe()\\n", "/usr/lib/weakref.py", "exec")
namespace = {"sys": sys}
exec(code, namespace)
try:
    _interrupted(int(sys.argv[1]), namespace["remove"](None))  # (as the signal module calls it)
    sys.stdout.write("went on\\n")
    time.sleep(5)
    print("not interrupted")
except KeyboardInterrupt as exc:
    print(type(exc).__name__)
"""


@pytest.mark.parametrize(
    ("signum", "raised"), [(2, "KeyboardInterrupt"), (15, "Terminated")], ids=["SIGINT", "SIGTERM"]
)
def test_a_signal_that_lands_in_a_weakref_callback_still_interrupts_the_command(signum, raised):
    """CI saw a SIGTERM land in WeakValueDictionary's callback at the end of an ingest: the
    Terminated raised there was printed as "Exception ignored in" with its traceback, and
    the ingest ended 0. It is raised once the callback has returned, as from a __del__."""
    result = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_A_WEAKREF_CALLBACK, str(signum)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (result.stdout, result.stderr) == (f"went on\n{raised}\n", "")


CLEAN_UP_INTERRUPTED = """
import os, shutil, signal, sys
from papercli.cli import main

real_rmtree = shutil.rmtree
signum = int(sys.argv[1])

def rmtree(path, *args, **kwargs):
    # CPython's own rmtree closes a directory, notes it closed on the next line, and closes
    # it again in a finally: this is that, with the signal landing in between.
    if not str(path).endswith(".txn"):
        return real_rmtree(path, *args, **kwargs)
    shutil.rmtree = real_rmtree
    fd = os.open(path, os.O_RDONLY)
    closed = False
    try:
        os.close(fd)
        os.kill(os.getpid(), signum)
        closed = True
    finally:
        if not closed:
            os.close(fd)

shutil.rmtree = rmtree
sys.argv = ["papers", *sys.argv[2:]]
main()
"""


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [(2, 130, "papers: interrupted"), (15, 143, "papers: terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_an_error_of_the_clean_up_a_signal_started_ends_as_that_signal(
    tmp_path, signum, code, line
):
    """A signal that landed inside shutil.rmtree, as an ingest removed its finished
    transaction, made rmtree close a directory twice: the command ended with "papers: Bad
    file descriptor", exit 2 (once in CI), and left the transaction's folder half removed.
    It ends as the signal it was, past the commit point with every record written."""
    library = tmp_path / "lib"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            CLEAN_UP_INTERRUPTED,
            str(signum),
            "--library",
            str(library),
            "ingest",
            str(DIGEST),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stderr.splitlines()[-1:]) == (code, [line])
    assert not (library / ".txn").exists()
    reference = tmp_path / "reference"
    subprocess.run(
        [str(PAPERS), "--library", str(reference), "ingest", str(DIGEST)],
        capture_output=True,
        check=True,
    )
    records = sorted(p.name for p in (library / "papers").glob("*.yaml"))
    assert records == sorted(p.name for p in (reference / "papers").glob("*.yaml"))
    assert len(records) == 45


SIGNAL_SWALLOWED = """
import os, signal, sys
from papercli.cli import main
from papercli.store.library import Library

real_clean_pending = Library.clean_pending
signum, later = int(sys.argv[1]), sys.argv[2]

def clean_pending(self, folders=None):
    if folders is None:  # (when a command starts)
        return real_clean_pending(self, folders)
    # The end of an ingest. A signal lands between a close and the note that it was
    # closed; the clean-up closes the descriptor again, and a caller's `except OSError`
    # swallows that "Bad file descriptor", the signal with it. Then, "fails": a file whose
    # descriptor was closed twice fails; "goes on": nothing else goes wrong.
    fd = os.open(os.devnull, os.O_RDONLY)
    try:
        try:
            os.close(fd)
            os.kill(os.getpid(), signum)
        finally:
            os.close(fd)
    except OSError:
        pass
    removed = real_clean_pending(self, folders)
    if later == "fails":
        raise OSError(9, "Bad file descriptor")
    return removed

Library.clean_pending = clean_pending
sys.argv = ["papers", *sys.argv[3:]]
main()
"""


@pytest.mark.parametrize("later", ["fails", "goes on"])
@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [(2, 130, "papers: interrupted"), (15, 143, "papers: terminated")],
    ids=["SIGINT", "SIGTERM"],
)
def test_a_signal_swallowed_by_a_clean_up_still_ends_the_command(
    tmp_path, signum, code, line, later
):
    """A SIGTERM ended an ingest with "papers: Bad file descriptor", exit 2 (CI, seed
    3213), with no sign of the signal in the error: the "Bad file descriptor" a signal
    causes in a double close can be swallowed by an ``except OSError``, and the signal
    with it. The command ends as the signal all the same, its records whole."""
    library = tmp_path / "lib"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            SIGNAL_SWALLOWED,
            str(signum),
            later,
            "--library",
            str(library),
            "ingest",
            str(DIGEST),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (result.returncode, result.stderr.splitlines()) == (code, [line])
    assert len(list((library / "papers").glob("*.yaml"))) == 45  # (past the commit point)
    assert not (library / ".txn").exists()


def test_show_takes_a_short_name_and_lists_what_several_papers_fit(run):
    shown = run("show", "Scaf-GRPO")
    assert shown.exit_code == 0 and "id: iclr2026-scaf-grpo\n" in shown.stdout
    several = run("show", "muon")
    assert (several.exit_code, several.stdout) == (2, "")
    assert several.stderr.splitlines() == [
        "papers: 'muon' fits several papers (part of an id); give the id:",
        "  iclr2026-ef21-muon  EF21-Muon — Recent optimizers like Muon, Scion, and Glu…",
        "  iclr2026-muonbp  MuonBP — Gradient orthogonalization is a simple strategy t…",
    ]


def test_venue_filter_takes_every_name_the_parser_accepts(run, tmp_path):
    """The parser reads NIPS and the full name as NeurIPS: so does --venue (issue 45)."""
    refs = tmp_path / "refs.bib"
    refs.write_text(
        "@inproceedings{a, title={Muon Is Scalable}, year={2025},\n"
        "  booktitle={Advances in Neural Information Processing Systems}}\n",
        "utf-8",
    )
    library = tmp_path / "lib"
    assert run("ingest", str(refs), library=library).exit_code == 0
    for venue in ("NeurIPS", "neurips", "NIPS", "Neural Information Processing Systems"):
        result = run("list", "--venue", venue, "--ids", library=library)
        assert (result.exit_code, result.stdout) == (0, "neurips2025-muon-scalable\n"), venue
        exported = run("export", "--venue", venue, "--format", "json", library=library)
        assert exported.exit_code == 0 and '"neurips2025-muon-scalable"' in exported.stdout
    assert run("list", "--venue", "ICLR", "--ids", library=library).exit_code == 1
    found = run("search", "muon venue:NIPS", "--ids", library=library)
    assert (found.exit_code, found.stdout) == (0, "neurips2025-muon-scalable\n")
    excluded = run("search", "muon -venue:NIPS", "--ids", library=library)
    assert (excluded.exit_code, excluded.stdout) == (1, "")
    assert excluded.stderr == "papers: no paper matches 'muon -venue:NIPS'\n"


# Digest pages whose headings name a concept, in either language: two papers under 强化学习
# and one under "Reinforcement Learning" whose texts never say either (nor give a tag rule
# a cue); one under 优化/理论 whose title and summary do.
CATEGORY_PAGES = {
    "rl.txt": "🎮 强化学习¶\n🔬 ICLR2026 · 2 篇论文解读\n"
    "- Options Discovery via Successor Features\n-\n"
    "提出一种基于后继特征的选项发现方法，在迷宫任务中提升效率。\n"
    "- Planning with Learned World Models for Robotic Manipulation\n-\n"
    "提出一种基于世界模型的规划方法，用于机器人操作任务。\n",
    "rl-en.txt": "🎮 Reinforcement Learning¶\n🔬 NeurIPS2025 · 1 篇论文解读\n"
    "- Potential Functions Without Regret\n-\n提出一种无悔势函数构造方法，保证最优解不变。\n",
    "theory.txt": "📐 优化/理论¶\n🔬 ICLR2026 · 1 篇论文解读\n"
    "- Sample Complexity of Reinforcement Learning with Linear Critics\n-\n"
    "给出线性评论家强化学习的样本复杂度上界。\n",
}
SAYS_IT = "iclr2026-sample-complexity-reinforcement-learning-linear"
UNDER_IT = {
    "iclr2026-options-discovery-successor-features": "category: 强化学习 (reinforcement learning)",
    "iclr2026-planning-learned-world-models-robotic": "category: 强化学习 (reinforcement learning)",
    "neurips2025-potential-functions-without-regret": "category: Reinforcement Learning (强化学习)",
}


def test_a_category_is_found_in_both_languages_and_says_so(tmp_path):
    """强化学习 found the papers a digest page heads 强化学习 (by the field, not their
    text), "reinforcement learning" none of them, and neither "Reinforcement Learning";
    a paper listed only for its category showed no passage."""
    for name, text in CATEGORY_PAGES.items():
        (tmp_path / name).write_text(text, "utf-8")
    lib = tmp_path / "lib"
    runner = CliRunner()
    pages = [str(tmp_path / name) for name in CATEGORY_PAGES]
    assert runner.invoke(app, ["--library", str(lib), "ingest", *pages]).exit_code == 0

    def search(*args):
        result = runner.invoke(app, ["--library", str(lib), "search", *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    # The paper that says the words first, with its own passage (none: the title says them);
    # then those under the category in either language, each saying so.
    summary = "给出线性评论家强化学习的样本复杂度上界。"
    for query, passage in (
        ("reinforcement learning", None),
        ("强化学习", summary),
        ("RL", f"RL → 强化学习: {summary}"),
    ):
        found = json.loads(search(query, "--json"))
        assert [(h["id"], h["snippet"]) for h in found] == [
            (SAYS_IT, passage),
            *UNDER_IT.items(),
        ], query
        assert search(query, "--ids").split() == [SAYS_IT, *UNDER_IT]  # (export: the same)
    narrowed = json.loads(search("reinforcement learning", "--venue", "NeurIPS", "--json"))
    assert [(h["id"], h["snippet"]) for h in narrowed] == list(UNDER_IT.items())[2:]
    for query in ("category:强化学习", 'category:"reinforcement learning"', "category:RL"):
        assert search(query, "--ids").split() == [*UNDER_IT], query
    assert search("强化学习", "--exact", "--ids").split() == [
        SAYS_IT,
        *list(UNDER_IT)[:2],
    ]  # (--exact: the words and the category written so, no concept in the other language)
    theory = json.loads(search("优化/理论", "--json"))
    assert [(h["id"], h["snippet"]) for h in theory] == [(SAYS_IT, "category: 优化/理论")]
