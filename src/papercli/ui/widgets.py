"""The browser's widgets: the query box, the results list, the detail pane and the status
line. They show what the app hands them; the keys' actions are the app's.

Nothing here is given a string of Rich or Textual markup: every line is a
``rich.text.Text`` built by ``lines``, so a record's ``[mask]`` reads as written.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from ..render import wrap
from ..search.results.hits import Hit
from ..text import terminal_safe
from . import lines


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

    def __init__(self, value: str = "") -> None:
        super().__init__(
            value=value,
            placeholder="search: words in English or 中文; empty lists every paper",
            id="query",
            compact=True,
            select_on_focus=False,
        )


class ResultsList(OptionList):
    """The papers found, one line each: the marker of a marked paper, title, venue and
    year, tags. The keys act on the highlighted paper, or on the marked ones."""

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
        Binding("pagedown", "app.scroll_detail(1)", "detail", show=False),
        Binding("pageup", "app.scroll_detail(-1)", "detail", show=False),
    ]

    def __init__(self) -> None:
        super().__init__(id="results", compact=True)
        self.hits: list[Hit] = []
        self.marks: set[str] = set()
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
        """List *hits*; the paper *keep* stays highlighted if it is among them. Rows the
        same as those listed (the same papers, marked the same) are not drawn again."""
        if self._same_rows(hits, marks):
            self.hits = hits
            self.scroll_to(y=0, animate=False)  # (as ``set_options`` does)
        else:
            self.hits, self.marks = hits, marks
            width = self._width()
            self._widths = lines.columns(hits, width)
            self.set_options([Option(self._row(h, width)) for h in hits])
        at = next((i for i, h in enumerate(hits) if h.id == keep), 0)
        self.highlighted = at if hits else None

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

    def redraw(self, indexes: list[int] | None = None) -> None:
        """Draw the rows again (all, or those at *indexes*): marks changed, or the width."""
        width = self._width()
        for i in range(len(self.hits)) if indexes is None else indexes:
            hit = self.hits[i]
            self.replace_option_prompt_at_index(i, self._row(hit, width))

    def _row(self, hit: Hit, width: int) -> Row:
        marked, widths = hit.id in self.marks, self._widths
        return Row(lambda: lines.row(hit, width, marked, widths), self.app.console)

    def render_line(self, y: int) -> Strip:
        """A row, as ``OptionList`` draws a one-line option in a compact list, less its
        general path (padding, wrapping, links, alignment: a row has none of them), which
        took most of a new listing's paint: 0.3 ms a row, 47 rows at 200x50
        (``test_browse_app`` compares the two, line by line)."""
        index, width = self.scroll_offset.y + y, self.scrollable_content_region.width
        if not 0 <= index < min(len(self.hits), self.option_count):
            return Strip.blank(width, self.get_visual_style("option-list--option").rich_style)
        look = (
            "option-list--option-highlighted"
            if index == self.highlighted
            else "option-list--option-hover"
            if index == self._hover
            else None
        )
        style = self.get_visual_style("option-list--option", *([look] if look else []))
        row = self.get_option_at_index(index).prompt
        return row.strip(width, style, index)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hover = event.style.meta.get("option")  # (the row under the mouse: ``Row.strip``)
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_resize(self) -> None:
        if self.hits:
            self._widths = lines.columns(self.hits, self._width())
            self.redraw()

    def action_cursor_down(self) -> None:
        """Down stops at the last paper (no wrapping round to the first)."""
        if self.highlighted is None or self.highlighted < len(self.hits) - 1:
            super().action_cursor_down()


class Row(Visual):
    """A paper's line in the list, laid out when it is first drawn: a new listing lays out
    the rows on the screen, not all it holds. One line high at any width (``lines.row``
    cuts it to the list's width), so the list's height asks nothing of the rows. It
    draws as Textual draws a ``Text`` prompt."""

    def __init__(self, make: Callable[[], Text], console) -> None:
        self._make, self._console = make, console
        self._strips: dict[tuple[int, Style], Strip] = {}

    @cached_property
    def text(self) -> Text:
        return self._make()

    @property
    def plain(self) -> str:
        return self.text.plain

    @cached_property
    def _content(self) -> Content:
        return Content.from_rich_text(self.text, console=self._console)

    def render_strips(self, width, height, style, options):
        return self._content.render_strips(width, height, style, options)

    def strip(self, width: int, style: Style, index: int) -> Strip:
        """The row *width* cells wide on *style* (the list's, or its highlighted row's), as
        ``Content`` draws a ``Text``, marked with its *index* in the list for the mouse (as
        ``OptionList`` marks it)."""
        if (strip := self._strips.get((width, style))) is None:
            segments = [
                Segment(text, (style + _visual_style(look)).rich_style)
                for text, look in _pieces(self.text, self._console)
            ]
            strip = Strip(segments).crop(0, width).extend_cell_length(width, style.rich_style)
            strip = self._strips[width, style] = strip.apply_meta({"option": index})
        return strip

    def get_optimal_width(self, rules, container_width: int) -> int:
        return self._content.get_optimal_width(rules, container_width)

    def get_height(self, rules, width: int) -> int:
        return 1


def _pieces(text: Text, console) -> list[tuple[str, RichStyle | None]]:
    """A one-line ``Text``'s pieces and their looks, its own style under its spans' (Rich's
    ``Text.render`` leaves a text with no spans unstyled: its caller applies the style)."""
    if text.spans:
        return [(piece.text, piece.style) for piece in text.render(console, end="")]
    return [(text.plain, console.get_style(text.style) if text.style else None)]


@lru_cache(maxsize=256)
def _visual_style(rich_style: RichStyle | None) -> Style:
    """A Rich style as Textual's own, as ``Content`` converts a ``Text``'s spans (the
    rows' colours are the terminal's standard ones, which no theme changes)."""
    return Style.null() if rich_style is None else Style.from_rich_style(rich_style)


class PaperText(Widget):
    """A paper's details, laid out by ``lines.detail`` for the pane's width."""

    DEFAULT_CSS = "PaperText { height: auto; }"

    def __init__(self) -> None:
        super().__init__(id="paper")
        self.hit: Hit | None = None
        self.marked = False
        self._laid: tuple[int, list[Text]] | None = None

    def show(self, hit: Hit | None, marked: bool) -> None:
        height = self._height()
        self.hit, self.marked, self._laid = hit, marked, None
        # (the screen is laid out again only when the pane's height changes: laying it out
        # took a fifth of a new listing's paint)
        self.refresh(layout=height is None or self._height() != height)

    def _height(self) -> int | None:
        width = self.size.width
        return max(1, len(self._lines(width))) if width else None

    def _lines(self, width: int) -> list[Text]:
        if self.hit is None:
            return []
        if self._laid is None or self._laid[0] != width:
            self._laid = (width, lines.detail(self.hit, width, self.marked))
        return self._laid[1]

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self._lines(width)))

    def render(self) -> Text:
        return Text("\n").join(self._lines(self.size.width))

    def render_line(self, y: int) -> Strip:
        """Line *y*, as Textual draws the whole of ``render()`` (``Content``), but only the
        lines on the screen: a long abstract was laid out whole at every new listing.
        Text being selected with the mouse is drawn Textual's way."""
        laid = self._lines(self.size.width)
        if self.text_selection is not None or not 0 <= y < len(laid):
            return super().render_line(y)
        style, segments, x = self.visual_style, [], 0
        for text, look in _pieces(laid[y], self.app.console):
            segments.append(
                Segment(text, (style + _visual_style(look)).rich_style_with_offset(x, y))
            )
            x += len(text)
        return Strip(segments)


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
