"""The results list: the papers found, one line each (the marker of a marked paper,
title, venue and year, tags), one highlighted. The keys act on the highlighted paper, or
on the marked ones (the app's actions).

It draws its rows itself (Textual's line API), each laid out by ``lines.row`` when it
first comes on the screen. It looks as a compact ``OptionList`` of the same rows
(``test_browse_app`` compares the two line by line); as one, a new listing made an
object a paper, measured each, and laid the screen out again up to twice.
"""

from __future__ import annotations

from functools import cached_property
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style

from ..search.results.hits import Hit
from . import lines
from .draw import pieces, visual_style
from .scrolling import set_virtual_size


class ResultsList(ScrollView, can_focus=True):
    """The papers found; the highlighted one is shown in the detail pane."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "app.mark", "mark"),
        Binding("a", "app.mark_all", "all"),
        Binding("t", "app.tag", "tag"),
        Binding("e", "app.export", "export"),
        Binding("o", "app.open_link", "open"),
        Binding("y", "app.copy_id", "copy"),
        Binding("s", "app.similar", "similar"),
        Binding("enter", "app.widen", "wide"),
        Binding("q", "app.quit", "quit"),
        Binding("escape,ctrl+c", "app.quit", "quit", show=False),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("home", "move(-1_000_000)", show=False),
        Binding("end", "move(1_000_000)", show=False),
        Binding("pagedown", "app.scroll_detail(1)", "detail", show=False),
        Binding("pageup", "app.scroll_detail(-1)", "detail", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "results--row",
        "results--row-highlighted",
        "results--row-hover",
    }
    # (a compact OptionList's looks, as Textual 8.2 styles them)
    DEFAULT_CSS = """
    ResultsList {
        color: $foreground;
        overflow-x: hidden;
        background: $surface;
        & > .results--row-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus {
            background-tint: $foreground 5%;
            & > .results--row-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .results--row-hover {
            background: $block-hover-background;
        }
    }
    """

    class Highlighted(Message):
        """Another paper was highlighted by a key or the mouse."""

    class Chosen(Message):
        """A paper was clicked (or Enter pressed on it: the app's ``widen``)."""

    def __init__(self) -> None:
        super().__init__(id="results")
        self.hits: list[Hit] = []
        self.marks: set[str] = set()
        self.highlighted: int | None = None
        self._rows: list[Row | None] = []
        self._widths: tuple[int, int] = (0, 0)
        self._hover: int | None = None  # the row under the mouse

    @property
    def hit(self) -> Hit | None:
        """The highlighted paper."""
        if self.highlighted is None or not 0 <= self.highlighted < len(self.hits):
            return None
        return self.hits[self.highlighted]

    def _width(self) -> int:
        return max(20, self.scrollable_content_region.width or self.app.size.width)

    def show(self, hits: list[Hit], marks: set[str], keep: str | None = None) -> None:
        """List *hits* from the top; the paper *keep* stays highlighted if it is among them
        (else the first). Rows the same as those listed (the same papers, marked the same)
        are not laid out again. No ``Highlighted`` message: the app shows the paper."""
        before = len(self.hits)
        if not self._same_rows(hits, marks):
            self.hits, self.marks = hits, marks
            self._lay_out()
        self.hits = hits
        self.scroll_to(y=0, animate=False)  # (scrolled: all drawn again)
        at = next((i for i, h in enumerate(hits) if h.id == keep), 0)
        self.highlighted = at if hits else None
        self._scroll_to_highlight()
        # Only the rows either listing covers are drawn again: those under both stay blank.
        self.refresh(Region(0, 0, self.scrollable_content_region.width, max(before, len(hits))))

    def _same_rows(self, hits: list[Hit], marks: set[str]) -> bool:
        """Whether *hits* make the rows listed: a row is drawn from its paper's record
        and readings, the query's words, whether it is marked or named in passing."""
        old = self.hits
        return (
            bool(hits)
            and len(hits) == len(old)
            and all(
                (h.id, h.terms, h.passing, h.id in marks, h.data, h.plain)
                == (o.id, o.terms, o.passing, o.id in self.marks, o.data, o.plain)
                for h, o in zip(hits, old, strict=True)
            )
        )

    def _lay_out(self) -> None:
        """The rows to draw (each laid out when first drawn) for the list's width."""
        width = self._width()
        self._widths = lines.columns(self.hits, width)
        self._rows = [None] * len(self.hits)
        set_virtual_size(self, Size(width, len(self.hits)))

    def redraw(self, indexes: list[int] | None = None) -> None:
        """Draw the rows again (all, or those at *indexes*): marks changed."""
        for i in range(len(self.hits)) if indexes is None else indexes:
            self._rows[i] = None
        self.refresh()

    def _row(self, index: int, width: int) -> Row:
        row = self._rows[index]
        if row is None or row.width != width:
            hit = self.hits[index]
            text = lines.row(hit, width, hit.id in self.marks, self._widths)
            row = self._rows[index] = Row(text, width, self.app.console)
        return row

    def render_line(self, y: int) -> Strip:
        index, width = self.scroll_offset.y + y, self.scrollable_content_region.width
        if not 0 <= index < len(self.hits):
            return Strip.blank(width, self.get_visual_style("results--row").rich_style)
        look = (
            "results--row-highlighted"
            if index == self.highlighted
            else "results--row-hover"
            if index == self._hover
            else None
        )
        style = self.get_visual_style("results--row", *([look] if look else []))
        return self._row(index, width).strip(style, index)

    # -- the highlight ---------------------------------------------------------------------

    def highlight(self, index: int) -> None:
        """Highlight the paper at *index* (kept within the list), and say so."""
        if not self.hits:
            return
        index = max(0, min(index, len(self.hits) - 1))
        if index != self.highlighted:
            self.highlighted = index
            self._scroll_to_highlight()
            self.refresh()
            self.post_message(self.Highlighted())

    def _scroll_to_highlight(self) -> None:
        if self.highlighted is not None:
            self.scroll_to_region(
                Region(0, self.highlighted, 1, 1), animate=False, force=True, immediate=True
            )

    def action_move(self, by: int) -> None:
        """Down, Up, Home, End: the highlight moves (it stops at either end)."""
        self.highlight((self.highlighted or 0) + by)

    # -- the mouse ---------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("option")  # (the row clicked: ``Row.strip``)
        if index is not None:
            self.highlight(index)
            self.post_message(self.Chosen())

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = event.style.meta.get("option")
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_resize(self) -> None:
        if self.hits:
            self._lay_out()
            self.refresh()


class Row:
    """A paper's line in the list, *width* cells wide, drawn once a look (the list's,
    highlighted, under the mouse): as Textual draws a ``Text`` (``Content``), marked with
    its index for the mouse (as ``OptionList`` marks an option)."""

    def __init__(self, text: Text, width: int, console) -> None:
        self.text, self.width, self._console = text, width, console
        self._strips: dict[Style, Strip] = {}

    @cached_property
    def _pieces(self) -> list[tuple[str, RichStyle | None]]:
        return pieces(self.text, self._console)

    def strip(self, style: Style, index: int) -> Strip:
        if (strip := self._strips.get(style)) is None:
            # (one Strip, in one pass: ``lines.row`` lays a row out *width* cells wide)
            meta = RichStyle.from_meta({"option": index})
            segments = [
                Segment(text, (style + visual_style(look)).rich_style + meta)
                for text, look in self._pieces
            ]
            strip = self._strips[style] = Strip(segments, self.width)
        return strip
