"""A line-API pane's scrollable size (``virtual_size``), set without laying the screen out.

As Textual sets it, a new size asks for a layout of the whole screen; the pane's
scrollbar then took its new thumb on a screen refresh of its own, after the one that
drew the pane: a new listing waited for two. The list and the detail pane are as large as
the screen's layout makes them, whatever they show: only their scrollbar coming or going
changes the layout. Otherwise the thumb is all that changes, and is set here.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


def set_virtual_size(pane: ScrollView, size: Size) -> None:
    """Set *pane*'s scrollable size, and its scrollbar, as a layout of the screen would
    (the tests compare the two); a layout only where the vertical scrollbar comes or goes."""
    if size == pane.virtual_size:
        return
    height = pane.container_size.height
    if (pane.styles.overflow_x, pane.styles.overflow_y) != ("hidden", "auto") or not height:
        pane.virtual_size = size  # (another pane, or not laid out yet: Textual's own way)
        return
    pane.set_reactive(Widget.virtual_size, size)
    scrolls = size.height > height  # (as Textual decides for ``overflow-y: auto``)
    if scrolls != pane.show_vertical_scrollbar:
        pane.show_vertical_scrollbar = scrolls  # (it comes or goes: a layout, once)
        pane.vertical_scrollbar.display = scrolls
    if scrolls:
        bar = pane.vertical_scrollbar
        bar.window_virtual_size, bar.window_size = size.height, height
    pane.scroll_y = pane.validate_scroll_y(pane.scroll_y)
