"""``papers browse``: the app. A query box, a status line, the results list and the
detail pane (side by side from ``SIDE_BY_SIDE`` columns on, else one above the other),
and a footer with the keys.

Searches run as the query is typed, one at a time on a thread of their own: a query
typed while one runs cancels it (``exclusive`` workers; a search in progress stops at
its next hit, one not started never starts), so typing faster than results arrive never
queues stale searches. What the list's keys do to papers is in ``keys``; writes (tags,
exports) run on a thread of their own. Once a second the library is looked at (two
``stat`` calls): when another command has committed, the listing is read again from the
index as committed (``model.catch_up``).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ClassVar

from textual import work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.widgets import Footer, Input

from ..search.results.hits import Hit
from . import actions, idle, model, terminal
from .keys import PaperKeys
from .model import Browsing, Results
from .results import ResultsList
from .widgets import PaperText, QueryBox, StatusLine

SIDE_BY_SIDE = 120  # columns from which the list and the detail pane stand side by side
CHECK_EVERY = 1.0  # seconds between two looks at whether another command wrote the library

CSS = """
Screen { layout: vertical; }
#query { height: 1; padding: 0 1; }
#status { padding: 0 1; }
#main { height: 1fr; layout: vertical; }
#results { height: 40%; padding: 0; scrollbar-gutter: stable; }
#detail { height: 1fr; border-top: solid $secondary; padding: 0 1; }
#main.-side { layout: horizontal; }
#main.-side #results { height: 1fr; width: 45%; }
#main.-side #detail { width: 1fr; border-top: none; border-left: solid $secondary; }
#main.-wide #results { height: 3; }
#main.-side.-wide #results { height: 1fr; width: 25%; }
"""


class BrowseApp(PaperKeys, App[int]):
    CSS = CSS
    TITLE = "papers browse"
    ENABLE_COMMAND_PALETTE = False
    # Keys that move between the query and the list are the app's, taken before the key
    # reaches the focused widget: the keys typed right after them then go where the user
    # sent them (a widget's own binding ran only after the keys queued behind it had been
    # handed to the same widget: "/adam" typed fast marked every paper).
    # Each is offered where it applies (``check_action``): elsewhere the key does what it
    # does there (Down moves in the list; Ctrl-C in the list is the list's, as q is).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "to_results", "results", priority=True),
        Binding("tab", "to_results", "results", priority=True, show=False),
        Binding("up", "to_query(True)", "query", priority=True, show=False),
        Binding("slash", "to_query", "query", priority=True),
        Binding("ctrl+c", "interrupt", "quit", priority=True),
    ]

    def __init__(
        self, browsing: Browsing, query: str = "", color: bool = True, opener=actions.opener
    ) -> None:
        super().__init__()
        self.browsing = browsing
        browsing.index.hold_searchers()  # (a search a keystroke: each thread keeps its own)
        self.initial = query
        self.opener = opener  # (the system's link opener; tests give their own)
        if not color and not self.no_color:  # (--no-color, or the color setting: never)
            from textual.filter import Monochrome

            self.no_color = True
            self._filters.append(Monochrome())
        self.marks: dict[str, Hit] = {}  # marked papers, kept across queries, in marking order
        self.generation = 0  # the listing asked for last; older ones are dropped
        self._shown: tuple[str, Results] | None = None  # the query listed, and its listing
        self.listed = Results([], "")  # the listing on the screen
        self.listing: Callable[..., Results | None] = self._search("")
        self.keep = False  # the listing asked for last is the one shown, read again
        self.export_choice = (actions.DEFAULT_FORMAT, actions.default_name(actions.DEFAULT_FORMAT))
        self.failure: Exception | None = None  # a bug that closed the app (raised after it)
        self.log_lines: list[str] = []  # what the keys did, said again after the app ends
        self.asked: dict[int, float] = {}  # generation -> when it was asked for
        self.drawn: dict[int, float] = {}  # generation -> when its listing was on the screen
        self.notes: dict[int, str] = {}  # generation -> what its status line says instead
        self._searches = ThreadPoolExecutor(1, thread_name_prefix="papers-search")
        self._writes = ThreadPoolExecutor(1, thread_name_prefix="papers-write")
        self._seen = model.library_state(browsing)
        self._behind = False  # the index is behind the records: a writer is at work
        self.said = ""  # what the last write did: stays on the status line until a new query
        self._collector = idle.Collector()  # (full garbage collections while idle)
        self.hung_up = False  # the terminal went away (``terminal``): the app ended
        self._hang_up_watch: terminal.HangUpWatch | None = None

    # -- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield QueryBox()
        yield StatusLine()
        with Container(id="main"):
            yield ResultsList()
            yield PaperText()
        yield Footer(compact=True)

    @property
    def results(self) -> ResultsList:
        return self.query_one(ResultsList)

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def on_mount(self) -> None:
        self.browsing.library.on_wait = lambda: self.call_from_thread(
            self.status.say, "waiting for another papers command to finish writing …"
        )
        self.status.say("searching …")
        self.query_one(QueryBox).focus()
        self.query_one(QueryBox).value = self.initial  # (an empty one is searched too)
        if not self.initial:
            self.relist(self._search(""))
        self.set_interval(CHECK_EVERY, self.check_library)
        self._collector.start()
        self._hang_up_watch = terminal.HangUpWatch.of_app(self, self.hang_up)
        if self._hang_up_watch is not None:
            self._hang_up_watch.start()

    def on_resize(self) -> None:
        self.query_one("#main").set_class(self.size.width >= SIDE_BY_SIDE, "-side")

    def on_unmount(self) -> None:
        self._searches.shutdown(wait=False, cancel_futures=True)
        self._writes.shutdown(wait=False)  # (a write under way ends; the process waits)
        self._collector.stop()
        if self._hang_up_watch is not None:
            self._hang_up_watch.stop()

    def hang_up(self) -> None:
        """The terminal went away, or a SIGHUP came: the app ends (``terminal``)."""
        self.hung_up = True  # (the command's exit status: 129)
        self.exit()

    # -- listings ---------------------------------------------------------------------------

    def _search(self, text: str) -> Callable[..., Results | None]:
        """The listing of *text*. The query of the listing on the screen (a space typed
        after it) lists what the screen shows, and is searched when read again."""
        shown = self._shown if self._shown and self._shown[0] == text.strip() else None

        def listing(stale: Callable[[], bool]) -> Results | None:
            nonlocal shown
            if shown is not None:
                found, shown = shown[1], None
                return found
            return model.find(self.browsing, text, stale)

        listing.text = text.strip()  # type: ignore[attr-defined]
        return listing

    def on_input_changed(self, event: Input.Changed) -> None:
        if isinstance(event.input, QueryBox):
            self.said = ""
            self.relist(self._search(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if isinstance(event.input, QueryBox):
            self.action_focus_results()

    def relist(
        self, listing: Callable[..., Results | None], catch_up: bool = False, note: str = ""
    ) -> None:
        """Show what *listing* finds, once found, unless another listing is asked for first
        (the status line then says *note*, if given, rather than how many were found). The
        same listing read again keeps its highlighted paper; a new one starts at its best."""
        self.keep = listing is self.listing
        self.listing = listing
        self.generation += 1
        if note:
            self.notes[self.generation] = note
        self.asked[self.generation] = time.perf_counter()
        self._run_listing(listing, self.generation, catch_up)

    @work(exclusive=True, group="listing")
    async def _run_listing(self, listing, generation: int, catch_up: bool) -> None:
        def stale() -> bool:
            return self.generation != generation

        def run() -> Results | None:
            if catch_up:
                trouble, self._behind = model.catch_up(self.browsing)
                if trouble:
                    return Results([], "", error=trouble)
            return None if stale() else listing(stale)

        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self._searches, run)
        if found is None or stale():
            return
        self.show(found, generation, getattr(listing, "text", None))

    def show(self, found: Results, generation: int, text: str | None = None) -> None:
        if found.error:  # (a query half typed: "vehicle, say; the last listing stays)
            self.status.say(found.error, "bold")
        else:
            self._shown = None if text is None else (text, found)
            self.listed = found
            keep = self.results.hit.id if self.results.hit and self.keep else None
            self.results.show(found.hits, set(self.marks), keep)
            note = self.notes.pop(generation, None)
            self.status.say(note or found.what, "bold" if note else "dim")
            self.show_detail()
        self.call_after_refresh(self._drawn, generation)

    def _drawn(self, generation: int) -> None:
        if not self.drawn:
            self._collector.settled()
        self.drawn[generation] = time.perf_counter()  # (the screen showing it is written)

    def show_detail(self) -> None:
        hit, paper = self.results.hit, self.query_one(PaperText)
        if hit is not None and hit.pending:
            model.passage(self.browsing, self.listed, hit)
        paper.show(hit, hit is not None and hit.id in self.marks)

    def on_results_list_highlighted(self, event: ResultsList.Highlighted) -> None:
        self.show_detail()

    def on_results_list_chosen(self, event: ResultsList.Chosen) -> None:
        self.action_widen()  # (a click)

    def check_library(self) -> None:
        """Read the listing again once another command has written the library; while the
        index is behind the records (another command is writing), each time, until it has
        caught up (each read is of the index as last committed)."""
        state = model.library_state(self.browsing)
        if state != self._seen or self._behind:  # (our own writes too: said again)
            self._seen = state
            self.relist(self.listing, catch_up=True, note=self.said)
        elif (
            self.generation in self.drawn
            and time.perf_counter() - self.asked.get(self.generation, 0.0) >= CHECK_EVERY
        ):
            self._collector.idle()  # (no listing asked for in the last second)

    # -- keys -------------------------------------------------------------------------------

    # (focus moves at once, not on the next turn of the loop as ``focus()`` moves it)
    def action_focus_results(self) -> None:
        if self.results.hits:
            self.screen.set_focus(self.results)

    def action_focus_query(self) -> None:
        self.screen.set_focus(self.query_one(QueryBox))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        in_list = isinstance(self.focused, ResultsList)
        if action == "to_results":
            return isinstance(self.focused, QueryBox)
        if action == "to_query":
            return in_list and not (parameters == (True,) and self.results.highlighted)
        if action == "interrupt":
            return not in_list  # (there q quits, and the footer says so; Ctrl-C too)
        return True

    def action_to_results(self) -> None:
        """Down or Tab in the query box: to the results."""
        if not self.results.hits:
            raise SkipAction()
        self.action_focus_results()

    def action_to_query(self, from_top: bool = False) -> None:
        """/ in the list, or Up on its first paper: back to the query."""
        self.action_focus_query()

    def action_interrupt(self) -> None:
        self.exit(0)

    def action_widen(self) -> None:
        self.query_one("#main").toggle_class("-wide")

    def action_scroll_detail(self, pages: int) -> None:
        detail = self.query_one(PaperText)
        (detail.scroll_page_down if pages > 0 else detail.scroll_page_up)(animate=False)

    def action_quit(self) -> None:
        self.exit(0)

    # -- a bug ------------------------------------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        self.failure = error  # (the command raises it: one line, exit 70, as any command)
        super()._handle_exception(error)

    def _fatal_error(self) -> None:
        """The app closes, its terminal restored; Textual's traceback only with PAPERS_DEBUG
        (Textual's two hooks: it has no public one)."""
        if os.environ.get("PAPERS_DEBUG"):
            super()._fatal_error()
        else:
            self._close_messages_no_wait()
