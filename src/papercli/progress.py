"""How long operations report progress without knowing how it is shown.

A *progress* is a callable ``progress(total, what)`` returning a context manager that
yields ``advance(n=1)``; a *total* of None is a step that cannot be counted (a spinner).
Library functions take one (default: ``quiet``); the CLI passes the command's
``Environment.progress``: a Rich bar on a terminal's stderr, nothing on a pipe.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager as ContextManager

Advance = Callable[..., None]
Progress = Callable[[int | None, str], ContextManager[Advance]]


def quiet(total: int | None, what: str) -> ContextManager[Advance]:
    return contextlib.nullcontext(lambda n=1: None)
