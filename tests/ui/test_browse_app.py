"""papers browse driven by its keys (Textual's pilot, no terminal): what the app shows
and what it writes."""

from __future__ import annotations

import asyncio
import gc
import shutil
import threading
from dataclasses import replace

import pytest
import yaml

from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.listing import similar
from papercli.search.questions.search import search
from papercli.store.library import Library
from papercli.tags.taxonomy import load_taxonomy
from papercli.ui import idle, lines, model
from papercli.ui.app import BrowseApp
from papercli.ui.dialogs import ExportDialog, TagDialog
from papercli.ui.results import ResultsList
from papercli.ui.widgets import PaperText, QueryBox
from testing import invoke, settle

MUON = [
    "iclr2026-convergence-muon-newton-schulz",
    "iclr2026-ef21-muon",
    "iclr2026-muonbp",
    "iclr2026-convergence-analysis-adaptive-optimizers-under",
]


def make_app(root, query="", folder=None, opener=lambda: None) -> BrowseApp:
    index = PaperIndex(Library(root)).open()
    browsing = model.Browsing(index, load_taxonomy(), folder=folder or root.parent)
    return BrowseApp(browsing, query, opener=opener)


def run(scenario, app: BrowseApp, size=(100, 30)):
    async def main():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot, app)

    asyncio.run(main())
    return app


def listed(app: BrowseApp) -> list[str]:
    return [h.id for h in app.query_one(ResultsList).hits]


def status(app: BrowseApp) -> str:
    return app.query_one("#status").message.plain.rstrip()


def test_typing_searches_and_the_keys_move_between_query_and_list(browse_template):
    async def scenario(pilot, app):
        assert len(listed(app)) == 63 and status(app) == "63 papers"
        assert isinstance(app.focused, QueryBox)
        await pilot.press(*"muon")
        await settle(pilot)
        assert listed(app) == MUON and status(app) == "4 papers match 'muon'"
        await pilot.press("down")
        assert isinstance(app.focused, ResultsList)
        assert app.query_one(PaperText).hit.id == MUON[0]
        await pilot.press("down", "down")
        assert app.query_one(PaperText).hit.id == MUON[2]
        await pilot.press("up", "up", "up")  # (up from the first paper: the query)
        assert isinstance(app.focused, QueryBox)
        await pilot.press("tab")
        assert isinstance(app.focused, ResultsList)
        await pilot.press(*"/ -adam")  # (the keys after / are the query's at once)
        await settle(pilot)
        assert app.query_one(QueryBox).value == "muon -adam"
        assert listed(app) == [h.id for h in search(app.browsing.index, "muon -adam")]
        assert len(listed(app)) == 2
        await pilot.press("enter")
        assert isinstance(app.focused, ResultsList)
        await pilot.press("enter")  # (the detail pane widened, and back)
        assert app.query_one("#main").has_class("-wide")
        await pilot.press("enter")
        assert not app.query_one("#main").has_class("-wide")

    run(scenario, make_app(browse_template))


def test_keys_typed_at_once_edit_the_query_in_the_order_typed(browse_template):
    """Keys that come in one read (a fast typist, a terminal over ssh): the editing keys act
    in order with the characters around them. Input's editing keys were its bindings, run
    once the key had gone up to the app: "adam", then Backspace and q read together, left
    "adam" (q was inserted first, then deleted)."""
    from textual import events

    async def burst(pilot, *keys: str) -> None:
        for key in keys:  # (queued together, as the driver queues one read's keys)
            char = key if len(key) == 1 else {"backspace": "\x7f", "space": " "}.get(key)
            pilot.app.post_message(events.Key(key, char))
        await settle(pilot)

    async def scenario(pilot, app):
        box = app.query_one(QueryBox)
        assert box.value == "adam"
        await burst(pilot, "backspace", "q")
        assert box.value == "adaq"
        await burst(pilot, "backspace", "backspace", "backspace", "backspace", "m", "u", "o", "n")
        assert box.value == "muon" and listed(app) == MUON
        await burst(pilot, "home", "x", "end", "y", "left", "left", "z")
        assert box.value == "xmuozny"
        await burst(pilot, "end", "ctrl+u", "a", "d", "a", "m")
        assert box.value == "adam" and status(app).endswith("match 'adam'")
        await pilot.press("down", "t")  # (the tag dialog's box, the export dialog's too)
        await settle(pilot)
        await burst(pilot, "r", "e", "x", "backspace", "a", "d")
        assert isinstance(app.screen, TagDialog) and app.screen.query_one("#tags").value == "read"

    run(scenario, make_app(browse_template, query="adam"))


def test_a_new_query_starts_at_its_best_paper(browse_template):
    async def scenario(pilot, app):
        assert app.query_one(ResultsList).hit.id == MUON[3]  # (first by title)
        app.query_one(QueryBox).value = "muon"  # (typed in one go: one search)
        await settle(pilot)
        assert app.query_one(ResultsList).highlighted == 0
        await pilot.press("down", "down", "down")
        app.check_library()  # (read again: nothing changed, and the highlight stays)
        app._behind = True
        app.check_library()
        await settle(pilot)
        assert app.query_one(ResultsList).hit.id == MUON[2]

    run(scenario, make_app(browse_template))


def test_a_listing_lays_out_the_rows_on_the_screen_and_the_rest_when_shown(
    browse_template, monkeypatch
):
    laid = []
    row = lines.row
    monkeypatch.setattr(lines, "row", lambda hit, *args: laid.append(hit.id) or row(hit, *args))

    async def scenario(pilot, app):
        shown = app.query_one(ResultsList).scrollable_content_region.height
        assert len(listed(app)) == 63 and 0 < shown < 63
        assert laid == listed(app)[:shown]
        await pilot.press("down", "end")
        await pilot.pause()
        assert laid[-1] == listed(app)[-1] and len(laid) == 2 * shown

    run(scenario, make_app(browse_template))


def _cells(strip) -> list[tuple[str, object]]:
    """A drawn line, a character at a time with what the terminal is told of its look (the
    mouse's and selection's meta left out)."""
    return [(ch, s.clear_meta_and_links()) for text, s, _c in strip for ch in text]


def test_rows_are_drawn_as_the_option_list_draws_them(browse_template):
    """``ResultsList`` draws its rows itself: the same characters and looks as a compact
    ``OptionList`` of the same rows, of the same size, draws them (Textual's own widget,
    on a screen of its own): highlighted, marked, under the mouse, focused or not, in
    English and Chinese. A click lands on its row."""
    from textual.screen import Screen
    from textual.widgets import OptionList

    class Theirs(Screen):
        def __init__(self, size) -> None:
            super().__init__()
            self.list_size = size

        def compose(self):
            theirs = OptionList(compact=True, id="theirs")
            theirs.styles.width, theirs.styles.height = self.list_size
            theirs.styles.scrollbar_gutter = "stable"
            yield theirs

    async def same(pilot, app, hover: int | None = None) -> None:
        results = app.query_one(ResultsList)
        width, height = results.size
        ours = [results.render_line(y) for y in range(height)]
        rows = [
            results._row(i, results.scrollable_content_region.width).text
            for i in range(len(results.hits))
        ]
        focused = app.focused is results
        screen = Theirs((width, height))
        await app.push_screen(screen)
        theirs = screen.query_one(OptionList)
        theirs.add_options(rows)
        theirs.highlighted = results.highlighted
        if focused:
            theirs.focus()
        else:
            screen.set_focus(None)
        await pilot.pause()
        if hover is not None:
            await pilot.hover(OptionList, offset=(3, hover))
            await pilot.pause()
        for y in range(height):
            assert _cells(ours[y]) == _cells(theirs.render_line(y)), y
            if y < len(rows):
                assert {s.meta.get("option") for _t, s, _c in ours[y]} == {y}
        app.pop_screen()
        await pilot.pause()

    async def scenario(pilot, app):
        results = app.query_one(ResultsList)
        for query in ("大语言模型", "large language model"):
            app.query_one(QueryBox).value = query
            await settle(pilot)
            await same(pilot, app)
            await pilot.press("down", "space", "down", "down")  # (in the list; one marked)
            await settle(pilot)
            await same(pilot, app)
            await pilot.hover(ResultsList, offset=(3, 1))
            await pilot.pause()
            await same(pilot, app, hover=1)
            await pilot.press("slash")
            await pilot.pause()
            await same(pilot, app)  # (the list not focused)
        await pilot.click(ResultsList, offset=(3, 2))
        await pilot.pause()
        assert results.highlighted == 2 and app.query_one("#main").has_class("-wide")

    run(scenario, make_app(browse_template), size=(200, 50))
    run(scenario, make_app(browse_template), size=(80, 24))


def test_the_detail_pane_is_drawn_as_textual_draws_its_text(browse_template):
    """``PaperText`` draws the lines on the screen itself: the same characters and looks
    as Textual's drawing of its whole text (``Content``), in English and Chinese, marked
    or in passing, side by side and one above the other, from its top and scrolled."""
    from rich.text import Text
    from textual.strip import Strip
    from textual.visual import Visual, visualize

    async def scenario(pilot, app):
        paper = app.query_one(PaperText)
        for query in ("muon", "训练加速", ""):
            app.query_one(QueryBox).value = query
            await settle(pilot)
            await pilot.press("down", "space", "down")  # (a marked paper, then the next)
            await settle(pilot)
            for _ in range(2):
                for scrolled in (0, 1):
                    await pilot.press(*["pagedown"] * scrolled)
                    await settle(pilot)
                    width, height = paper.scrollable_content_region.size
                    text = Text("\n").join(paper._lines())
                    whole = Visual.to_strips(
                        paper, visualize(paper, text), width, None, paper.visual_style
                    )
                    top = paper.scroll_offset.y
                    assert len(whole) > 3 and (top > 0) == (len(whole) > height) * scrolled
                    blank = Strip.blank(width, paper.visual_style.rich_style)
                    for y in range(height):
                        want = whole[top + y] if top + y < len(whole) else blank
                        assert _cells(paper.render_line(y)) == _cells(want), (query, y)
                await pilot.press("up")
                await settle(pilot)
            await pilot.press("slash")

    run(scenario, make_app(browse_template), size=(200, 50))
    run(scenario, make_app(browse_template), size=(80, 24))


def test_a_paper_of_the_same_height_replaces_the_last_on_the_screen(browse_template):
    """The screen is laid out again only when the detail pane's (or the status line's)
    height changes: a paper as tall as the last one is drawn in its place all the same."""
    import html
    import re

    def on_screen(app) -> str:
        svg = app.export_screenshot()
        return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")

    async def scenario(pilot, app):
        paper = app.query_one(PaperText)
        await pilot.press("down")  # (into the list of all 63)
        same = 0
        for _ in range(12):
            before = len(paper._lines())
            await pilot.press("down")
            await settle(pilot)
            same += len(paper._lines()) == before
            shown = on_screen(app)
            assert f"id  {paper.hit.id}" in shown
            assert shown.count("id  iclr2026-") == 1
        assert same >= 2  # (papers as tall as the one before them were shown)

    run(scenario, make_app(browse_template), size=(200, 50))


def test_a_shorter_listing_or_paper_leaves_nothing_of_the_longer_one(browse_template):
    """Only the lines a listing or a paper covers (or its predecessor covered) are drawn
    again: a shorter one after a longer one leaves none of its lines on the screen."""
    import html
    import re

    def screen_lines(app) -> list[str]:
        svg = app.export_screenshot()
        rows = re.findall(r'<text class="[^"]*" x="[^"]*" y="([^"]*)"[^>]*>(.*?)</text>', svg)
        by_y: dict[float, str] = {}
        for y, text in rows:
            by_y[float(y)] = by_y.get(float(y), "") + html.unescape(text)
        return [line.replace("\xa0", " ") for _y, line in sorted(by_y.items())]

    async def scenario(pilot, app):
        results, paper = app.query_one(ResultsList), app.query_one(PaperText)
        await settle(pilot)  # (all 63 papers)
        await pilot.press("down")
        for _ in range(40):  # (down to a paper with a long abstract)
            tall = len(paper._lines())
            if tall > 20:
                break
            await pilot.press("down")
            await settle(pilot)
        await pilot.press("slash")
        app.query_one(QueryBox).value = "muon"
        await settle(pilot)
        shown = screen_lines(app)
        assert sum(" ICLR 2026 " in line for line in shown) == len(results.hits) == 4
        assert sum(line.count("id  iclr2026-") for line in shown) == 1
        short = len(paper._lines())
        assert short < tall  # (the paper shown last was taller)

    run(scenario, make_app(browse_template), size=(200, 50))


def test_a_paper_longer_than_the_pane_is_laid_out_beside_its_scrollbar(browse_template):
    """A paper with more lines than the pane holds is laid out in the room its scrollbar
    leaves: no line runs under the scrollbar, and no horizontal one takes the last line;
    a short one has the whole width."""

    async def scenario(pilot, app):
        paper = app.query_one(PaperText)
        for query, scrolls in (("orthogonalization", True), ("muon", False)):
            app.query_one(QueryBox).value = query
            await settle(pilot)
            room = paper.scrollable_content_region
            assert paper.show_vertical_scrollbar == scrolls
            assert not paper.show_horizontal_scrollbar and room.height == paper.size.height
            drawn = [paper.render_line(y) for y in range(room.height)]
            assert max(line.cell_length for line in drawn) <= room.width
            assert max(line.cell_length for line in drawn) > room.width - 6  # (filled)

    run(scenario, make_app(browse_template), size=(80, 24))


def test_full_garbage_collections_wait_while_the_app_runs(browse_template):
    before = gc.get_threshold()

    async def scenario(pilot, app):
        assert gc.get_threshold() == (*before[:2], idle.FULL_AFTER)
        assert gc.get_freeze_count() > 0  # (what the first listing left stays)

    run(scenario, make_app(browse_template))
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_a_space_after_the_query_lists_what_is_shown_without_searching(
    browse_template, monkeypatch
):
    searched, laid = [], []
    find, row = model.find, lines.row
    monkeypatch.setattr(
        model, "find", lambda b, text, *a: searched.append(text) or find(b, text, *a)
    )
    monkeypatch.setattr(lines, "row", lambda hit, *args: laid.append(hit.id) or row(hit, *args))

    async def scenario(pilot, app):
        await pilot.press(*"muon")
        await settle(pilot)
        assert searched[-1] == "muon" and listed(app) == MUON
        searched.clear(), laid.clear()
        await pilot.press("space")
        await settle(pilot)
        assert (searched, laid) == ([], [])  # (neither searched nor drawn again)
        assert listed(app) == MUON and status(app) == "4 papers match 'muon'"
        app._behind = True  # (read again, as after another command's write: searched)
        app.check_library()
        await settle(pilot)
        assert searched == ["muon "] and listed(app) == MUON
        assert laid == []  # (the same rows: not drawn again)

    run(scenario, make_app(browse_template))


def test_the_detail_pane_makes_the_snippet_of_a_paper_listed_without_it(browse_template):
    async def scenario(pilot, app):
        app.query_one(QueryBox).value = "大语言模型"
        await settle(pilot)
        hits = app.query_one(ResultsList).hits
        assert [h.pending for h in hits[:3]] == [False, True, True]
        await pilot.press("down", "down")
        paper = app.query_one(PaperText)
        shown = "\n".join(line.plain for line in paper._lines())
        assert paper.hit is hits[1] and not hits[1].pending and hits[2].pending
        assert "found through 大语言模型 → LLM" in shown

    run(scenario, make_app(browse_template))


def test_a_query_half_typed_keeps_the_listing_and_says_why(browse_template):
    async def scenario(pilot, app):
        await pilot.press(*'"vehicle')
        await settle(pilot)
        assert status(app) == "unbalanced quote in '\"vehicle'"
        assert len(listed(app)) == 63
        await pilot.press(*' routing"')
        await settle(pilot)
        assert status(app) == "3 papers match '\"vehicle routing\"'"

    run(scenario, make_app(browse_template))


def test_marked_papers_are_exported_to_papers_bib(browse_template, tmp_path):
    async def scenario(pilot, app):
        await pilot.press("down", "space", "down", "space")
        assert set(app.marks) == set(MUON[:2])
        assert status(app) == "4 papers match 'muon'" and app.query_one("#status").marked == 2
        drawn = [app.query_one(ResultsList).render_line(y).text for y in range(4)]
        assert [line[:2] for line in drawn] == [
            "* ",
            "* ",
            "  ",
            "  ",
        ]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("enter")
        await settle(pilot)
        said = f"wrote 2 papers to {tmp_path / 'papers.bib'}"
        assert status(app).startswith(said) and app.log_lines[0] == said
        await pilot.press("a")  # every paper listed, then none
        assert set(app.marks) == set(MUON)
        await pilot.press("a")
        assert app.marks == {}
        await pilot.press("down", "e")  # (none marked: the highlighted one)
        await pilot.pause()
        await pilot.press("ctrl+u", *"one.md", "enter")
        await settle(pilot)
        assert app.log_lines[-2] == f"wrote 1 paper to {tmp_path / 'one.md'}"

    run(scenario, make_app(browse_template, "muon", folder=tmp_path))
    entries = (tmp_path / "papers.bib").read_text().count("\n@")
    assert entries + (tmp_path / "papers.bib").read_text().startswith("@") == 2
    assert "convergencemuon2026" in (tmp_path / "papers.bib").read_text()
    assert "# EF21-Muon" not in (tmp_path / "one.md").read_text()
    assert "MuonBP" in (tmp_path / "one.md").read_text()


def test_tags_are_added_to_the_highlighted_paper_completing_aliases(browse_template, tmp_path):
    root = tmp_path / "lib"
    shutil.copytree(browse_template, root)

    async def scenario(pilot, app):
        await pilot.press("down", "down", "t")
        await pilot.pause()
        assert isinstance(app.screen, TagDialog)
        await pilot.press(*"联邦", "tab", *", reading-list", "enter")
        await settle(pilot)
        assert status(app) == "added federated-learning, reading-list to 1 paper"
        row = app.query_one(PaperText).hit
        assert row.id == MUON[1] and "reading-list" in row.data["tags"]
        app.check_library()  # (the app's look at the library, a second later: our write)
        await settle(pilot)
        assert status(app) == "added federated-learning, reading-list to 1 paper"

    run(scenario, make_app(root, "muon"))
    record = yaml.safe_load((root / "papers" / f"{MUON[1]}.yaml").read_text())
    assert record["tag_edits"]["added"] == ["federated-learning", "reading-list"]


def test_open_copy_and_similar_act_on_the_highlighted_paper(browse_template):
    async def scenario(pilot, app):
        await pilot.press("down", "o")
        assert status(app) == f"{MUON[0]} has no link"
        await pilot.press("y")
        assert app.clipboard == MUON[0]
        assert status(app) == f"copied {MUON[0]} (through the terminal: OSC 52)"
        await pilot.press("s")
        await settle(pilot)
        index = app.browsing.index
        assert listed(app) == [h.id for h in similar(index, MUON[0], model.LIMIT)[1]]

    run(scenario, make_app(browse_template, "muon"))


def test_o_opens_the_link_with_the_system_opener_or_shows_it(browse_template, tmp_path):
    async def scenario(pilot, app):
        await pilot.press("down", "o")
        assert status(app) == "opened https://github.com/callsys/GMPO"
        app.opener = lambda: None  # (ssh, a console: no opener to reach)
        await pilot.press("o")
        assert status(app) == "link: https://github.com/callsys/GMPO"

    seen = tmp_path / "opened"
    script = tmp_path / "opener"
    script.write_text(f'#!/bin/sh\nprintf %s "$1" > {seen}\n')
    script.chmod(0o755)
    run(scenario, make_app(browse_template, "gmpo", opener=lambda: [str(script)]))


@pytest.mark.parametrize("keys", [["ctrl+c"], ["down", "q"], ["down", "escape"], ["escape", "q"]])
def test_q_escape_in_the_list_and_ctrl_c_quit_with_exit_code_0(browse_template, keys):
    async def scenario(pilot, app):
        await pilot.press(*keys)
        await pilot.pause()
        assert app.return_code == 0

    app = run(scenario, make_app(browse_template, "muon"))
    assert app.return_value == 0


def test_typing_while_a_search_runs_never_runs_the_stale_ones(browse_template, monkeypatch):
    """The first search is held; the five keys typed meanwhile start one search, the
    last, and the held one's listing is never shown."""
    release, ran = threading.Event(), []
    find = model.find

    def held(browsing, text, stale):
        ran.append(text)
        if text == "m":
            release.wait(10)
        return find(browsing, text, stale)

    monkeypatch.setattr(model, "find", held)

    async def scenario(pilot, app):
        await pilot.press("m")
        await pilot.pause()
        await pilot.press(*"uon -")
        await pilot.press("backspace")
        await pilot.pause()
        release.set()
        await settle(pilot)
        assert ran == ["", "m", "muon "]
        assert listed(app) == MUON and status(app) == "4 papers match 'muon'"

    run(scenario, make_app(browse_template))


def test_a_write_by_another_command_is_shown_once_committed(browse_template, tmp_path):
    root = tmp_path / "lib"
    shutil.copytree(browse_template, root)
    other = Library(root)  # (another command: its own lock, as another process has)
    new = replace(other.load(MUON[2]), id="iclr2026-muon-again", title="Muon Again", citekey=None)

    async def scenario(pilot, app):
        with other.lock():
            with other.transaction() as txn:
                txn.save(new)
            app.check_library()  # (as its timer does)
            await settle(pilot)
            assert listed(app) == MUON  # the record is written; the index is not yet
        app.check_library()
        await settle(pilot)
        assert listed(app) == ["iclr2026-muon-again", *MUON]

    app = make_app(root, "muon")
    run(scenario, app)


def test_browse_needs_a_terminal_and_says_so_in_one_line(browse_template):
    result = invoke("--library", str(browse_template), "browse", "muon")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "papers: papers browse needs a terminal; papers search works in pipes\n"
    listed_commands = invoke("--help").stdout
    assert (
        listed_commands.index(" search ")
        < listed_commands.index(" browse ")
        < (listed_commands.index(" similar "))
    )
