"""Where an error or a signal becomes one line on stderr and an exit code (the codes are
listed in ``errors``)."""

from __future__ import annotations

import os
import sys

import typer

from ..errors import (
    EXIT_HANGUP,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    PapersError,
    Terminated,
)


def exit_for_signal(exc: KeyboardInterrupt) -> typer.Exit:
    """Ctrl-C or SIGTERM (``Terminated``): what was written is whole (see Transaction)."""
    if isinstance(exc, Terminated):
        return fail("terminated", EXIT_TERMINATED)
    if sys.stderr is not None and sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")  # over the ^C the terminal echoed
    return fail("interrupted", EXIT_INTERRUPTED)


def exit_for_hang_up() -> typer.Exit:
    """The terminal went away (``papers browse``: a SIGHUP, or the terminal's hang-up
    read): 129, as if SIGHUP had killed the process, and nothing said (no one reads it)."""
    return typer.Exit(EXIT_HANGUP)


def exit_for(exc: Exception) -> typer.Exit:
    """The tool's errors (and OS errors) as one line on stderr and an exit code."""
    if isinstance(exc, PapersError):
        return fail(str(exc), exc.exit_code)
    if isinstance(exc, BrokenPipeError):  # `papers … | head`: the reader left; leave quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # (so that flushing at exit cannot fail)
        return typer.Exit(141)
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return fail(f"{exc.strerror or exc}{where}", 2)
    if os.environ.get("PAPERS_DEBUG"):  # a bug: the traceback on request
        raise exc
    return fail(
        f"internal error: {type(exc).__name__}: {exc} (PAPERS_DEBUG=1 shows the traceback)",
        EXIT_INTERNAL,
    )


def fail(message: str, code: int) -> typer.Exit:
    if sys.stderr is not None:
        from ..render.environment import Environment

        Environment.of_process().say(message)
    return typer.Exit(code)
