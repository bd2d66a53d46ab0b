"""A one-line ``rich.text.Text`` drawn as Textual draws it (``Content``): its pieces and
their looks, in Textual's styles. The results list and the detail pane draw their lines
with these, rather than through Textual's general path for any visual."""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style as RichStyle
from rich.text import Text
from textual.style import Style


def pieces(text: Text, console) -> list[tuple[str, RichStyle | None]]:
    """A one-line ``Text``'s pieces and their looks, its own style under its spans' (Rich's
    ``Text.render`` leaves a text with no spans unstyled: its caller applies the style)."""
    if text.spans:
        return [(piece.text, piece.style) for piece in text.render(console, end="")]
    return [(text.plain, console.get_style(text.style) if text.style else None)]


@lru_cache(maxsize=256)
def visual_style(rich_style: RichStyle | None) -> Style:
    """A Rich style as Textual's own, as ``Content`` converts a ``Text``'s spans (the
    rows' colours are the terminal's standard ones, which no theme changes)."""
    return Style.null() if rich_style is None else Style.from_rich_style(rich_style)
