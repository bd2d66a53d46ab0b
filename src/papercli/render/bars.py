"""Progress on stderr: a bar for counted work, a spinner for a step without a count.

Rich's ``Live`` (under ``Progress`` and ``Status``) captures stdout by default while it
draws, and prints what it caught on its own console: with the bar on stderr, ``papers
export > file`` put the export on the screen and left the file empty. Every bar here is
made with ``redirect_stdout=False, redirect_stderr=False``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

NO_CAPTURE = {"redirect_stdout": False, "redirect_stderr": False, "transient": True}


@contextlib.contextmanager
def bar(console, total: int, what: str) -> Iterator[Callable[..., None]]:
    """Count, bar, count of total, rate and time left; yields ``advance(n=1)``."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            return Text(f"{task.speed:,.0f}/s" if task.speed else "", style="progress.data.speed")

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, **NO_CAPTURE) as progress:
        task = progress.add_task(what, total=total)
        yield lambda n=1: progress.advance(task, n)


@contextlib.contextmanager
def spinner(console, what: str) -> Iterator[Callable[..., None]]:
    from rich.live import Live
    from rich.spinner import Spinner

    with Live(Spinner("dots", text=what), console=console, refresh_per_second=12.5, **NO_CAPTURE):
        yield lambda n=1: None
