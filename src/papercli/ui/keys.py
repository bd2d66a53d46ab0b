"""What the results list's keys do to the highlighted paper, or to the marked ones: mark,
tag, export, open its link, copy its id, list the papers like it (``ResultsList``'s
bindings name these actions). The app (``app.BrowseApp``) holds the state they use: the
marks, the listing, the writing thread, the status line.

Writes (tags, exports) run on the app's writing thread: the screen stays live while a
writer in another terminal is waited for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual import work

from ..errors import PapersError
from . import actions, model
from .dialogs import ExportDialog, TagDialog


class PaperKeys:
    """The list's key actions, mixed into ``BrowseApp``."""

    def action_mark(self) -> None:
        hit = self.results.hit
        if hit is None:
            return
        if self.marks.pop(hit.id, None) is None:
            self.marks[hit.id] = hit
        self._marks_changed([self.results.highlighted])

    def action_mark_all(self) -> None:
        """Mark every paper listed; when every one is marked already, unmark them."""
        hits = self.results.hits
        if all(h.id in self.marks for h in hits):
            for h in hits:
                self.marks.pop(h.id, None)
        else:
            self.marks.update((h.id, h) for h in hits if h.id not in self.marks)
        self._marks_changed(None)

    def _marks_changed(self, rows: list[int] | None) -> None:
        self.results.marks = set(self.marks)
        self.results.redraw(rows)
        self.status.count(len(self.marks))
        self.show_detail()

    def _chosen(self) -> tuple[list[str], str] | None:
        """The papers a key acts on: the marked ones, else the highlighted one."""
        if self.marks:
            n = len(self.marks)
            return list(self.marks), f"the {n} marked paper{'s' * (n != 1)}"
        hit = self.results.hit
        return ([hit.id], hit.id) if hit else None

    def action_tag(self) -> None:
        chosen = self._chosen()
        if chosen is None:
            return
        ids, what = chosen
        choices = actions.tag_choices(self.browsing)

        def done(text: str | None) -> None:
            if text is not None:
                self._write(lambda: [actions.add_tags(self.browsing, ids, text)])

        self.push_screen(TagDialog(what, choices), done)

    def action_export(self) -> None:
        chosen = self._chosen()
        if chosen is None:
            return
        ids, what = chosen
        fmt, name = self.export_choice

        def done(answer: tuple[str, str] | None) -> None:
            if answer is not None:
                self.export_choice = answer
                self._write(lambda: actions.export(self.browsing, ids, *answer))

        self.push_screen(ExportDialog(what, fmt, name, str(self.browsing.folder)), done)

    @work(group="write")
    async def _write(self, do: Callable[[], list[str]]) -> None:
        """Run a write on the writing thread; say what it did, or why it did nothing."""
        loop = asyncio.get_running_loop()
        try:
            said = await loop.run_in_executor(self._writes, do)
        except PapersError as exc:
            self.status.say(str(exc), "bold")
            return
        self.log_lines += said
        self.said = " · ".join(said)
        self.status.say(self.said, "bold")
        self.relist(self.listing, note=self.said)  # (the tags as now written)

    def action_open_link(self) -> None:
        hit = self.results.hit
        if hit is None:
            return
        urls = hit.data.get("urls") or []
        if not urls:
            self.status.say(f"{hit.id} has no link", "bold")
            return
        self.status.say(actions.open_link(urls[0], self.opener()), "bold")

    def action_copy_id(self) -> None:
        hit = self.results.hit
        if hit is not None:
            self.copy_to_clipboard(hit.id)
            self.status.say(f"copied {hit.id} (through the terminal: OSC 52)", "bold")

    def action_similar(self) -> None:
        hit = self.results.hit
        if hit is not None:
            self.status.say(f"looking for papers close to {hit.id} …")
            self.relist(lambda stale: model.similar(self.browsing, hit))
