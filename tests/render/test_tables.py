"""Tables as a terminal gets them (render/tables.py), drawn into a fake Environment."""

from __future__ import annotations

import io
import json
import re

import pytest

from papercli.render import Environment, tables
from papercli.search.results.hits import Hit
from papercli.store.record import Record, Source


def env(width: int) -> Environment:
    return Environment(
        io.StringIO(), io.StringIO(), color="never", environ={"FORCE_COLOR": "1"}, size=(width, 50)
    )


def hit(authors: list[str]) -> Hit:
    record = Record(
        id="iclr2026-qzo",
        title="Quantized Zeroth-order Optimization",
        authors=authors,
        venue="ICLR",
        year=2026,
        tags=["zeroth-order"],
        sources=[Source("sources/a.txt", "a.txt", 1, "abstracts")],
    )
    return Hit(record.id, json.loads(json.dumps(record.to_dict())))


def paper_cells(terminal: Environment) -> list[str]:
    text = re.sub(r"\x1b\[[0-9;]*m", "", terminal.stdout.getvalue())  # (FORCE_COLOR: styles)
    return [row.split("│")[1].strip() for row in text.splitlines()[2:]]


@pytest.mark.parametrize(
    ("authors", "line"),
    [
        (["Ada Lovelace", "Alan Turing"], "Ada Lovelace, Alan Turing"),
        (["A One", "B Two", "C Three", "D Four"], "A One, B Two, C Three, D Four"),
        (["A One", "B Two", "C Three", "D Four", "E Five"], "A One, B Two, C Three, … (5 authors)"),
        # BibTeX's "Family, Given", which commas would make four names
        (["Kingma, Diederik P", "Ba, Jimmy"], "Diederik P Kingma, Jimmy Ba"),
        (["von Neumann, John", "King, Jr, Martin L."], "John von Neumann, Martin L. King Jr"),
    ],
)
def test_a_hit_shows_its_authors_under_the_title(authors, line):
    terminal = env(100)
    tables.hits(terminal, [hit(authors)], scores=False, footer=None)
    cells = paper_cells(terminal)
    assert cells[:3] == ["Quantized Zeroth-order Optimization", line, "iclr2026-qzo"]


def test_a_hit_without_authors_has_no_authors_line():
    terminal = env(100)
    tables.hits(terminal, [hit([])], scores=False, footer=None)
    cells = paper_cells(terminal)
    assert cells == ["Quantized Zeroth-order Optimization", "iclr2026-qzo"]
