"""The list's and the detail pane's scrollable size, set with no layout of the screen
(``ui.scrolling``): each pane and its scrollbar as a layout of the screen leaves them."""

from __future__ import annotations

import asyncio

import pytest
from textual.screen import Screen

from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library
from papercli.tags.taxonomy import load_taxonomy
from papercli.ui import model
from papercli.ui.app import BrowseApp
from papercli.ui.results import ResultsList
from papercli.ui.widgets import PaperText, QueryBox
from testing import settle

# Listings that show, hide and keep each pane's scrollbar: all 63 papers, four, one
# paper taller than the pane, none.
QUERIES = ["", "muon", "orthogonalization", "", "zzzqqq", "muon", "federated", ""]


def make_app(root) -> BrowseApp:
    index = PaperIndex(Library(root)).open()
    return BrowseApp(model.Browsing(index, load_taxonomy(), folder=root.parent))


def state(pane) -> dict:
    """What scrolling a pane depends on, and what its scrollbar shows."""
    shown = pane.show_vertical_scrollbar
    bar = pane.vertical_scrollbar if shown else None
    return {
        "virtual": pane.virtual_size,
        "shown": (shown, pane.show_horizontal_scrollbar, bar and bar.display),
        "bar": bar and (bar.window_virtual_size, bar.window_size, bar.position),
        "scroll": (pane.scroll_y, pane.max_scroll_y),
        "room": pane.scrollable_content_region,
    }


def _visit(app, before=lambda: None, still=None):
    """Each listing of ``QUERIES``, and the first papers of each, named as they come;
    *before* is called just before each, once focus has moved and *still* has been
    awaited (a move lays the footer out: its keys change)."""

    async def steps(pilot):
        wait = still or pilot.pause
        for query in QUERIES:
            await wait()
            before()
            app.query_one(QueryBox).value = query
            await settle(pilot)
            yield f"{query!r}"
            if app.query_one(ResultsList).hits:
                app.action_focus_results()
                await wait()
                for n in range(3):  # (papers of other heights, under the same scrollbar)
                    before()
                    await pilot.press("down")
                    await settle(pilot)
                    yield f"{query!r}, paper {n + 2}"
                app.action_focus_query()

    return steps


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_each_pane_and_its_scrollbar_are_as_a_layout_of_the_screen_leaves_them(
    browse_template, size
):
    """After each listing and paper: the panes' state and the screen, then the same after
    Textual has laid the whole screen out again (its own way of setting them)."""
    app = make_app(browse_template)
    checked = []

    async def main():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            async for what in _visit(app)(pilot):
                panes = [app.query_one(ResultsList), app.query_one(PaperText)]
                ours = [state(pane) for pane in panes], app.export_screenshot()
                app.screen.refresh(layout=True)
                await pilot.pause()
                await pilot.pause()
                theirs = [state(pane) for pane in panes], app.export_screenshot()
                assert ours[0] == theirs[0], what
                assert ours[1] == theirs[1], what
                checked.append(ours[0])

    asyncio.run(main())
    # (each scrollbar came and went: the list's always, the detail pane's where it is short)
    assert {s[0]["shown"][0] for s in checked} == {True, False}
    assert {s[1]["shown"][0] for s in checked} == ({True, False} if size[1] < 30 else {False})


def test_a_new_listing_or_paper_lays_the_screen_out_only_when_a_scrollbar_comes_or_goes(
    browse_template, monkeypatch
):
    """The panes are as large whatever they show: a listing or a paper whose scrollbar
    stays as it was is drawn without a layout of the screen; one whose scrollbar comes or
    goes, with one."""
    layouts = []
    original = Screen._refresh_layout

    def counted(self, *args, **kwargs):
        layouts.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app = make_app(browse_template)
    steps = []

    async def main():  # (each step's layouts, and whether its scrollbars changed)
        async with app.run_test(size=(200, 50)) as pilot:
            await settle(pilot)

            async def still():  # (until no layout comes: the footer's, after a focus move)
                for _ in range(100):
                    layouts.clear()
                    await pilot.pause(0.05)
                    if not layouts:
                        return

            panes = [app.query_one(ResultsList), app.query_one(PaperText)]
            before = [pane.show_vertical_scrollbar for pane in panes]
            sizes_before = [pane.virtual_size for pane in panes]
            async for what in _visit(app, layouts.clear, still)(pilot):
                after = [pane.show_vertical_scrollbar for pane in panes]
                sizes = [pane.virtual_size for pane in panes]
                steps.append((what, after != before, sizes != sizes_before, len(layouts)))
                before, sizes_before = after, sizes

    asyncio.run(main())
    assert any(resized and not flipped for _w, flipped, resized, _n in steps)
    assert any(flipped for _w, flipped, _r, _n in steps)
    for what, flipped, _resized, n in steps:
        assert n == (1 if flipped else 0), f"{what}: laid out {n} times"
