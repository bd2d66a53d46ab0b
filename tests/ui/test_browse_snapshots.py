"""papers browse's screens at 80x24 and 200x50, English and Chinese queries, with and
without colour: SVG snapshots (pytest-textual-snapshot; ``--snapshot-update`` writes
them again, to be looked at before they are committed).

To look at one as a picture, give librsvg ``xml:space="preserve"``: without it,
rsvg-convert drops the no-break space a text run starts or ends with, and the footer
reads "spacemark" where the terminal shows "space mark":

    sed 's/<svg /<svg xml:space="preserve" /' SNAPSHOT.svg | rsvg-convert > screen.png
"""

from __future__ import annotations

from pathlib import Path

import pytest

from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library
from papercli.tags.taxonomy import load_taxonomy
from papercli.ui import model
from papercli.ui.app import BrowseApp
from papercli.ui.widgets import QueryBox
from testing import settle

SMALL, LARGE = (80, 24), (200, 50)


def snapshot(snap_compare, root: Path, query: str, size, keys=()) -> bool:
    index = PaperIndex(Library(root)).open()
    # (an export's folder as the dialog shows it: a fixed one, never written to)
    browsing = model.Browsing(index, load_taxonomy(), folder=Path("/home/reader/thesis"))
    app = BrowseApp(browsing, query, opener=lambda: None)

    async def ready(pilot) -> None:
        pilot.app.query_one(QueryBox).cursor_blink = False
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)

    return snap_compare(app, terminal_size=size, run_before=ready)


@pytest.mark.parametrize(
    ("query", "size", "keys", "colour"),
    [
        ("muon", SMALL, ["down"], True),
        ("联邦学习", SMALL, ["down", "down"], False),
        ("muon", LARGE, ["down", "space", "down", "down", "space"], False),
        ("大语言模型", LARGE, ["down", "down"], True),
        ("muon", SMALL, ["down", "space", "down", "space", "e"], False),
    ],
    ids=[
        "80x24-muon",
        "80x24-联邦学习-no-color",
        "200x50-muon-marked-no-color",
        "200x50-大语言模型",
        "80x24-export",
    ],
)
def test_screens(snap_compare, browse_template, monkeypatch, query, size, keys, colour):
    if colour:
        monkeypatch.delenv("NO_COLOR")
    assert snapshot(snap_compare, browse_template, query, size, keys)
