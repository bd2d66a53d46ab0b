"""The browser's widgets: the query box, the detail pane and the status line (the results
list is ``results``). They show what the app hands them; the keys' actions are the app's.

Nothing here is given a string of Rich or Textual markup: every line is a
``rich.text.Text`` built by ``lines``, so a record's ``[mask]`` reads as written.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Input

from ..render import wrap
from ..search.results.hits import Hit
from ..text import terminal_safe
from . import lines
from .draw import pieces, visual_style
from .scrolling import set_virtual_size


class TypedInput(Input):
    """An ``Input`` whose editing keys (Backspace, Left, Home, Ctrl+U, ...) act in the box,
    in order with the characters typed around them. As Input's bindings they ran only once
    the key had gone up to the app, while a character typed in the same read was inserted
    at once: "adam", then Backspace and q typed quickly (or read together over ssh),
    stayed "adam" (q inserted, then deleted)."""

    EDITING: ClassVar[dict[str, str]] = {  # key -> action, as Input binds them
        key.strip(): binding.action
        for binding in Input.BINDINGS
        if isinstance(binding, Binding)
        for key in binding.key.split(",")
    }

    async def on_key(self, event: events.Key) -> None:
        action = self.EDITING.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            await self.run_action(action)


class QueryBox(TypedInput):
    """The query, searched as it is typed. Down, Tab (the app's keys), Enter or Escape
    go to the results."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.focus_results", "results", show=False)
    ]
    # The box is as wide as the screen and one line high whatever it holds: the length of
    # the query (Input's virtual size, for scrolling in the box) lays out nothing else. As
    # Input declares it, every key typed laid out the whole screen again.
    virtual_size = Reactive(Size(0, 0), layout=False)

    def __init__(self, value: str = "") -> None:
        super().__init__(
            value=value,
            placeholder="search: words in English or 中文; empty lists every paper",
            id="query",
            compact=True,
            select_on_focus=False,
        )


class PaperText(ScrollView):
    """The detail pane: a paper's details, laid out by ``lines.detail`` for the pane's
    width, scrolled by the pane itself. It draws the lines on the screen (Textual's line
    API): a pane holding a widget as tall as its text was laid out twice a new paper, once
    for the text's height, once more for the pane's scrollbar."""

    can_focus = False
    DEFAULT_CSS = "PaperText { overflow-x: hidden; }"

    def __init__(self) -> None:
        super().__init__(id="detail")
        self.hit: Hit | None = None
        self.marked = False
        self._laid: tuple[tuple[int, int], list[Text]] | None = None

    def show(self, hit: Hit | None, marked: bool) -> None:
        """Show *hit* (from its top if it is another paper than the one shown)."""
        if hit is self.hit and marked == self.marked and self._laid is not None:
            return  # (the same paper: nothing to draw again)
        before = len(self._lines())
        if (hit and hit.id) != (self.hit and self.hit.id):
            self.scroll_to(y=0, animate=False)  # (scrolled: all drawn again)
        self.hit, self.marked, self._laid = hit, marked, None
        laid = self._lines()
        set_virtual_size(self, Size(max((t.cell_len for t in laid), default=0), len(laid)))
        # Only the lines either paper covers are drawn again: those under both stay blank.
        self.refresh(Region(0, 0, self.size.width, max(before, len(laid))))

    def on_resize(self) -> None:
        laid = self._lines()
        set_virtual_size(self, Size(max((t.cell_len for t in laid), default=0), len(laid)))

    def _lines(self) -> list[Text]:
        """The paper's lines for the pane: as wide as it is, or as the room its scrollbar
        leaves when they are more than it holds (as a pane of text is laid out)."""
        room = (self.size.width, self.size.height)  # (inside its padding and border)
        if self.hit is None or room[0] <= 0:
            return []
        if self._laid is None or self._laid[0] != room:
            laid = lines.detail(self.hit, room[0], self.marked)
            if len(laid) > room[1]:
                width = room[0] - self.styles.scrollbar_size_vertical
                laid = lines.detail(self.hit, width, self.marked)
            self._laid = (room, laid)
        return self._laid[1]

    def render_line(self, y: int) -> Strip:
        """Line *y* of the pane: the paper's line there, as Textual draws a ``Text``, each
        cell marked with its place in the text (for selecting it with the mouse)."""
        laid, at = self._lines(), self.scroll_offset.y + y
        if not 0 <= at < len(laid):
            return Strip.blank(self.scrollable_content_region.width, self.visual_style.rich_style)
        text = laid[at]
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(at)) is not None:
            start, end = span
            text = text.copy()
            text.stylize(
                self.screen.get_component_rich_style("screen--selection"),
                start,
                len(text) if end == -1 else end,
            )
        style, segments, x = self.visual_style, [], 0
        for piece, look in pieces(text, self.app.console):
            segments.append(
                Segment(piece, (style + visual_style(look)).rich_style_with_offset(x, at))
            )
            x += len(piece)
        return Strip(segments)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        text = "\n".join(line.plain for line in self._lines())
        return selection.extract(text), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()


class StatusLine(Widget):
    """Under the query: how many papers, or what a key did (on a second line when one
    is not enough: a file's whole path); how many are marked, on the right."""

    DEFAULT_CSS = "StatusLine { height: auto; max-height: 2; }"
    LINES = 2

    def __init__(self) -> None:
        super().__init__(id="status")
        self.message = Text("")
        self.marked = 0

    def say(self, message: str, style: str = "dim") -> None:
        height = self._height()
        self.message = Text(terminal_safe(message), style=style)  # (never markup)
        self.refresh(layout=height is None or self._height() != height)  # (as PaperText)

    def count(self, marked: int) -> None:
        height = self._height()
        self.marked = marked
        self.refresh(layout=height is None or self._height() != height)

    def _height(self) -> int | None:
        width = self.size.width
        return len(self._lines(width)) if width else None

    def _lines(self, width: int) -> list[Text]:
        right = Text(f" {self.marked} marked ", style=lines.MARKED) if self.marked else Text()
        room = max(1, width - cell_len(right.plain))
        shown = wrap.wrap(self.message, room)[: self.LINES] or [Text("")]
        if len(shown) == self.LINES:
            shown[-1].truncate(room - 1)  # (room for the ellipsis of a longer message)
            shown[-1].append("…" if len(wrap.wrap(self.message, room)) > self.LINES else "")
        first = shown[0]
        first.truncate(room, pad=True)
        return [first + right, *shown[1:]]

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.size.width))
