"""The dialogs over the browser: tags to add, and where to export. Each returns what
was typed (``dismiss``); the app does the writing. Escape closes one, changing nothing."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Footer, Input, Select, Static

from .actions import FORMATS, complete, default_name
from .widgets import TypedInput

SHOWN_CHOICES = 8  # tags the tag dialog lists under the box as one types

DIALOG_CSS = """
%s { align: center middle; }
%s > Vertical {
    width: 72; max-width: 100%%; height: auto;
    border: round $accent; padding: 0 1; background: $surface;
}
%s Input, %s Select { margin: 1 0 0 0; }
%s .note { color: $text-muted; }
"""


def _css(name: str) -> str:
    return DIALOG_CSS % ((name,) * 5)


class _TagSuggester(Suggester):
    """Completes the last tag typed (after the last comma) from the tags and aliases."""

    def __init__(self, choices: list[str]) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.choices = choices

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value, self.choices)


class TagDialog(ModalScreen[str | None]):
    """Tags to add, between commas; the last one completes from the library's tags and
    their aliases in English and Chinese (Right or Tab takes the completion)."""

    DEFAULT_CSS = _css("TagDialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        Binding("tab", "take", "complete", priority=True),
    ]

    def __init__(self, what: str, choices: list[str]) -> None:
        super().__init__()
        self.what, self.choices = what, choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Add tags to {self.what}", style="bold"))
            yield TypedInput(
                placeholder="reading-list, 联邦学习 …",
                suggester=_TagSuggester(self.choices),
                id="tags",
                compact=True,
            )
            yield Static(Text(""), id="choices", classes="note")
            yield Static(Text("enter adds · tab completes · esc cancels"), classes="note")
        yield Footer(compact=True)

    def on_input_changed(self, event: Input.Changed) -> None:
        typed = event.value.rsplit(",", 1)[-1].strip().casefold()
        found = [c for c in self.choices if typed and typed in c.casefold()]
        shown = ", ".join(found[:SHOWN_CHOICES]) + (" …" if len(found) > SHOWN_CHOICES else "")
        self.query_one("#choices", Static).update(Text(shown))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_take(self) -> None:
        box = self.query_one("#tags", Input)
        suggested = complete(box.value, self.choices)
        if suggested:
            box.value = suggested
            box.cursor_position = len(suggested)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportDialog(ModalScreen[tuple[str, str] | None]):
    """The format (BibTeX unless chosen otherwise) and the file name (``papers.bib`` in
    the folder papers browse started in, its extension following the format)."""

    DEFAULT_CSS = _css("ExportDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, what: str, fmt: str, name: str, folder: str) -> None:
        super().__init__()
        self.what, self.fmt, self.file_name, self.folder = what, fmt, name, folder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Export {self.what}", style="bold"))
            yield Select(
                [(label, fmt) for fmt, (label, _ext) in FORMATS.items()],
                value=self.fmt,
                allow_blank=False,
                id="format",
                compact=True,
            )
            yield TypedInput(value=self.file_name, id="file", select_on_focus=False, compact=True)
            yield Static(Text(f"in {self.folder}"), classes="note")
            yield Static(Text("enter writes · tab: format · esc cancels"), classes="note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#file", Input).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        box = self.query_one("#file", Input)
        if box.value == default_name(self.fmt):  # (a name the user typed stays)
            box.value = default_name(str(event.value))
        self.fmt = str(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss((self.fmt, event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)
