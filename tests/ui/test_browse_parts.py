"""The browser's plain parts, without a screen: its listings (the search's own), the tags
and exports its keys write, the link opener, and the lines it draws."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
import yaml
from rich.cells import cell_len
from rich.text import Text

from papercli.errors import UsageError
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.listing import similar
from papercli.search.questions.search import search
from papercli.search.results.hits import Hit
from papercli.store.library import Library
from papercli.tags.taxonomy import load_taxonomy
from papercli.ui import actions, lines, model

MUON = [
    "iclr2026-convergence-muon-newton-schulz",
    "iclr2026-ef21-muon",
    "iclr2026-muonbp",
    "iclr2026-convergence-analysis-adaptive-optimizers-under",
]


@pytest.fixture(scope="module")
def browsing(browse_template):
    return model.Browsing(PaperIndex(Library(browse_template)).open(), load_taxonomy())


def ids(hits) -> list[str]:
    return [h.id for h in hits]


# --- listings ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["muon", "联邦学习", "大语言模型", "large language model"])
def test_a_query_lists_what_search_lists_in_its_order(browsing, text):
    found = model.find(browsing, text)
    expected = search(browsing.index, text, limit=model.LIMIT, resolve_tag=browsing.resolve_tag)
    assert ids(found.hits) == ids(expected) and found.hits
    assert [h.passing for h in found.hits] == [h.passing for h in expected]


@pytest.mark.parametrize(
    "text", ["muon", "大语言模型", "large language model", "优化/理论", "muon 优化/理论", "Adam"]
)
def test_snippets_made_when_shown_are_those_search_makes(browsing, text):
    """A listing's first paper has its snippet (it is highlighted); the others' are made
    when the detail pane shows them, as ``papers search`` makes them: the words it marks,
    "found through" the glossary, a category, "only in passing"."""
    found = model.find(browsing, text)
    expected = search(browsing.index, text, limit=model.LIMIT, resolve_tag=browsing.resolve_tag)
    assert len(found.hits) > 1 and [h.pending for h in found.hits] == [False] + [True] * (
        len(found.hits) - 1
    )
    for hit in found.hits:
        model.passage(browsing, found, hit)
    made = [(h.id, h.snippet, h.passing, h.terms, h.pending) for h in found.hits]
    assert made == [(h.id, h.snippet, h.passing, h.terms, False) for h in expected]


def test_what_a_listing_says(browsing):
    assert model.find(browsing, "muon").what == "4 papers match 'muon'"
    assert model.find(browsing, "zephyrine").what == "no paper matches 'zephyrine'"
    everything = model.find(browsing, "")
    assert (everything.what, len(everything.hits)) == ("63 papers", 63)
    browsing.limit = 10
    try:
        first = model.find(browsing, "")
        assert (first.what, len(first.hits), first.more) == (
            "first 10 papers; refine the query for the rest",
            10,
            True,
        )
    finally:
        browsing.limit = model.LIMIT


def test_a_query_half_typed_is_said_and_lists_nothing(browsing):
    found = model.find(browsing, '"vehicle')
    assert (found.hits, found.error) == ([], "unbalanced quote in '\"vehicle'")


def test_a_listing_given_up_when_a_newer_query_is_typed(browsing):
    asked = []
    assert model.find(browsing, "muon", lambda: asked.append(1) or len(asked) > 2) is None
    assert len(asked) == 3  # (asked before each hit: it stopped at the third)


def test_the_filters_and_the_similar_papers(browsing_tagged):
    b = browsing_tagged
    assert ids(model.find(b, "").hits) == ["iclr2026-muonbp"]
    assert model.find(b, "").what == "1 paper (tag reading-list)"


@pytest.fixture
def browsing_tagged(browse_template, tmp_path):
    root = tmp_path / "lib"
    shutil.copytree(browse_template, root)
    b = model.Browsing(PaperIndex(Library(root)).open(), load_taxonomy(), folder=tmp_path)
    actions.add_tags(b, ["iclr2026-muonbp"], "reading-list")
    b.filters.tags = ("reading-list",)
    return b


def test_similar_lists_what_papers_similar_lists(browsing):
    hit = browsing.index.get("iclr2026-muonbp")
    found = model.similar(browsing, hit)
    assert ids(found.hits) == ids(similar(browsing.index, hit.id, model.LIMIT)[1])
    assert found.what == f"{len(found.hits)} papers closest to iclr2026-muonbp"


# --- tags -------------------------------------------------------------------------------------


def test_tags_complete_from_tags_and_aliases_in_both_languages(browsing):
    choices = actions.tag_choices(browsing)
    assert {"federated-learning", "联邦学习", "federated learning"} <= set(choices)
    assert actions.complete("联邦", choices) == "联邦学习"
    assert actions.complete("reading-list, Feder", choices) == "reading-list, federated-learning"
    assert actions.complete("muon, ", choices) is None
    assert actions.complete("zzz", choices) is None


def test_adding_tags_writes_the_records_and_the_index(browse_template, tmp_path):
    root = tmp_path / "lib"
    shutil.copytree(browse_template, root)
    b = model.Browsing(PaperIndex(Library(root)).open(), load_taxonomy())
    said = actions.add_tags(b, ["iclr2026-muonbp", "iclr2026-ef21-muon"], "reading-list, 联邦学习")
    assert said == "added reading-list, federated-learning to 2 papers"
    record = yaml.safe_load((root / "papers" / "iclr2026-muonbp.yaml").read_text())
    assert {"reading-list", "federated-learning"} <= set(record["tags"])
    assert record["tag_edits"]["added"] == ["federated-learning", "reading-list"]
    assert ids(model.find(b, "tag:reading-list").hits) == ["iclr2026-ef21-muon", "iclr2026-muonbp"]
    again = actions.add_tags(b, ["iclr2026-muonbp", "iclr2026-qzo"], "reading-list")
    assert again == "added reading-list to 1 of 2 papers (the others had it)"
    assert actions.add_tags(b, ["iclr2026-qzo"], "reading-list") == (
        "the paper has reading-list already"
    )
    with pytest.raises(UsageError, match="is not a tag"):
        actions.add_tags(b, ["iclr2026-qzo"], "what?!")
    with pytest.raises(UsageError, match="type a tag"):
        actions.add_tags(b, ["iclr2026-qzo"], " , ")


# --- exports ----------------------------------------------------------------------------------


def test_an_export_writes_the_papers_ordered_by_id_and_says_where(browsing, tmp_path):
    browsing = model.Browsing(browsing.index, browsing.taxonomy, folder=tmp_path)
    said = actions.export(browsing, [MUON[2], MUON[0]], "bibtex", "papers.bib")
    assert said == [
        f"wrote 2 papers to {tmp_path / 'papers.bib'}",
        "2 of 2 entries name no authors: papers enrich can fill them in",
    ]
    text = (tmp_path / "papers.bib").read_text()
    assert [line.split("{")[1] for line in text.splitlines() if line.startswith("@")] == [
        "convergencemuon2026,",
        "muonbp2026,",
    ]
    assert actions.export(browsing, [MUON[1]], "markdown", "out/list.md")[0] == (
        f"wrote 1 paper to {tmp_path / 'out' / 'list.md'}"
    )
    with pytest.raises(UsageError, match=f"{tmp_path / 'out'} is a folder: type a file name"):
        actions.export(browsing, [MUON[1]], "bibtex", "out")
    with pytest.raises(UsageError, match="type a file name"):
        actions.export(browsing, [MUON[1]], "bibtex", "  ")
    assert [actions.default_name(f) for f in ("bibtex", "markdown", "csl-json", "yaml")] == [
        "papers.bib",
        "papers.md",
        "papers.json",
        "papers.yaml",
    ]


# --- links ------------------------------------------------------------------------------------


def test_the_link_opener_is_the_systems_and_none_without_a_display():
    assert actions.opener({}, "darwin") == ["open"]
    assert actions.opener({}, "linux") is None  # (a console, or ssh without X forwarding)
    found = shutil.which("xdg-open")
    assert actions.opener({"DISPLAY": ":0"}, "linux") == ([found] if found else None)


def test_a_link_is_opened_by_the_opener_or_shown(tmp_path):
    seen = tmp_path / "opened"
    script = tmp_path / "opener"
    script.write_text(f'#!/bin/sh\nprintf %s "$1" > {seen}\n')
    script.chmod(0o755)
    url = "https://openreview.net/forum?id=abc"
    assert actions.open_link(url, [str(script)]) == f"opened {url}"
    for _ in range(100):
        if seen.exists() and seen.read_text():
            break
        subprocess.run(["sleep", "0.05"])
    assert seen.read_text() == url
    assert actions.open_link(url, None) == f"link: {url}"
    # a record's "link" that is no web link is never handed to a program (--help, a path)
    assert actions.open_link("--help", [str(script)]) == "link: --help"


# --- lines ------------------------------------------------------------------------------------

HOSTILE = {
    "title": "[bold]Bold[/bold] \x1b[31mred\x1b[0m [mask] 联邦学习\u202e框架",
    "authors": ["[link=x]Eve[/link]"],
    "venue": "ICLR",
    "year": 2026,
    "tags": ["[red]tag"],
    "abstract": "We use [mask] tokens and \x07 a bell.",
    "summary_zh": "提出[mask]方法。",
    "urls": ["https://example.org/[x]"],
}


def hostile() -> Hit:
    return Hit("hostile-2026", dict(HOSTILE), terms=frozenset({"mask"}))


def test_record_text_is_shown_as_written_never_as_markup_or_escapes():
    hit = hostile()
    row = lines.row(hit, 80, True, lines.columns([hit], 80)).plain
    assert row.startswith("* [bold]Bold[/bold] red [mask] 联邦学习<U+202E>框架")
    shown = "\n".join(t.plain for t in lines.detail(hit, 60))
    assert "[bold]Bold[/bold] red [mask] 联邦学习<U+202E>框架" in shown
    assert "[link=x]Eve[/link]" in shown and "[red]tag" in shown
    assert "We use [mask] tokens and a bell." in shown  # (controls dropped, as in snippets)
    assert "\x1b" not in shown and "\x07" not in shown


def test_matched_words_are_marked_in_the_summary_and_the_abstract():
    detail = lines.detail(hostile(), 60)
    marked = {
        t.plain[span.start : span.end]
        for t in detail
        for span in t.spans
        if span.style == lines.MATCH
    }
    assert marked == {"mask"}


@pytest.mark.parametrize("width", [20, 41, 80])
def test_lines_fit_their_width_and_never_cut_a_chinese_character(browsing, width):
    hits = model.find(browsing, "联邦学习").hits
    widths = lines.columns(hits, width)
    for hit in hits:
        row = lines.row(hit, width, False, widths)
        assert cell_len(row.plain) == width  # (``ResultsList`` draws it as *width* cells)
        assert all(
            isinstance(t, Text) and cell_len(t.plain) <= width for t in lines.detail(hit, width)
        )
    summary = "".join(t.plain for t in lines.detail(hits[0], width))
    assert hits[0].data["summary_zh"].replace(" ", "") in summary.replace(" ", "")


@pytest.mark.parametrize(("given", "drawn"), [(None, 240), ("30", 30)])
def test_the_papers_program_lets_textual_draw_240_times_a_second(given, drawn):
    """Textual's screen clock (``TEXTUAL_FPS``, read when Textual is first imported), set by
    the program (importing papers changes no process state): a listing is drawn within
    4-8 ms of being found, not 17-33 ms as at Textual's 60; the user's own setting wins."""
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    if given:
        env["TEXTUAL_FPS"] = given
    program = (
        "import sys; sys.argv = ['papers', '--version']\n"
        "from papercli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import textual.constants as c; print(c.MAX_FPS)"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split()[-1:] == [str(drawn)]
