"""Where output goes and what it may look like: one ``Environment`` per command.

The CLI makes one from the process (``Environment.of_process``) and hands it to everything
that prints; tests make one over ``io.StringIO`` streams with a chosen size. It holds:

- the three streams (a closed stderr, ``2>&-``, becomes a sink: output never fails for it);
- whether each is a terminal, the ``color`` setting, the terminal's width and height;
- the pager (``page``), the progress bar and status line (on stderr, terminal only).

stdout carries only the command's output, always: progress, warnings and prompts go to
stderr and never capture or mirror stdout.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TextIO

TERMINAL_LIMIT = 50  # rows a listing shows on a terminal unless --limit or a setting says
PAGER_LESS = "FRX"  # like git: quit if one screen, pass colours, do not clear the screen
ECHO_ROOM = 2  # columns a progress line leaves free for the terminal's "^C"


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class Environment:
    stdout: TextIO
    stderr: TextIO
    stdin: TextIO | None = None
    color: str = "auto"  # the ``color`` setting: auto (terminal only), always, never
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    size: tuple[int, int] | None = None  # (width, height); None: ask the terminal

    @classmethod
    def of_process(cls, color: str = "auto") -> Environment:
        """The real streams; a stream the shell closed (``2>&-``) becomes a sink."""
        return cls(
            stdout=sys.stdout or io.StringIO(),
            stderr=sys.stderr or io.StringIO(),
            stdin=sys.stdin,
            color=color,
        )

    # -- what kind of output ------------------------------------------------------------------

    @cached_property
    def stdout_is_terminal(self) -> bool:
        return _isatty(self.stdout)

    @cached_property
    def stderr_is_terminal(self) -> bool:
        return _isatty(self.stderr)

    @cached_property
    def stdin_is_terminal(self) -> bool:
        return _isatty(self.stdin)

    @property
    def tables(self) -> bool:
        """Draw tables (else tab-separated lines): on a terminal, or when ``color: always``
        or FORCE_COLOR ask. Decided without importing Rich: a pipe never pays for it."""
        if self.color == "always" or self.environ.get("FORCE_COLOR"):
            return True
        return self.stdout_is_terminal

    def console(self, stderr: bool = False):
        from rich.console import Console

        width, height = self.size or (None, None)
        return Console(
            file=self.stderr if stderr else self.stdout,
            highlight=False,
            soft_wrap=False,
            force_terminal=True if self.color == "always" else None,
            no_color=self.color == "never" or None,
            width=width,
            height=height,
            _environ=dict(self.environ),
        )

    @cached_property
    def width(self) -> int:
        return self.size[0] if self.size else self.console().width

    @cached_property
    def height(self) -> int:
        return self.size[1] if self.size else self.console().height

    # -- messages -----------------------------------------------------------------------------

    @cached_property
    def stderr_width(self) -> int | None:
        """The terminal's width on stderr; None when stderr is not a terminal."""
        if not self.stderr_is_terminal:
            return None
        if self.size:
            return self.size[0]
        try:
            return os.get_terminal_size(self.stderr.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return None

    def say(self, message: str) -> None:
        """One line on stderr: ``papers: message``. On a terminal a line wider than the
        screen is folded at word (or Chinese character) boundaries under its first word,
        where the terminal itself would cut a word in two."""
        line = f"papers: {message}"
        width = self.stderr_width
        if width and width > 30 and len(line) > width // 2 and "\n" not in message:
            from rich.cells import cell_len

            if cell_len(line) >= width:
                from .wrap import fold

                folded = fold(message, width - len("papers: ") - 1)
                line = "\n        ".join(["papers: " + folded[0], *folded[1:]])
        self.stderr.write(line + "\n")
        self.stderr.flush()

    def warn(self, message: str) -> None:
        self.say(f"warning: {message}")

    def ask(self, question: str, default: bool = False) -> bool:
        """A yes/no question on stderr, answered on stdin (end of input: *default*). Click's
        confirm wrote a space to stdout after the question, into a redirected output."""
        self.stderr.write(f"{question} [{'Y/n' if default else 'y/N'}] ")
        self.stderr.flush()
        answer = (self.stdin.readline() if self.stdin is not None else "").strip().lower()
        return default if not answer else answer in ("y", "yes")

    # -- the pager ----------------------------------------------------------------------------

    def page(self, text: str) -> None:
        """Show *text*, already laid out for this terminal: through the pager when it is
        taller than the screen and a person is there to page (stdin and stdout terminals).

        The pager is told not to fold lines (``less -S``): a table keeps its shape even
        when a line is as wide as the screen.
        """
        tall = text.count("\n") > self.height - 2
        if not (tall and self.stdout_is_terminal and self.stdin_is_terminal):
            self.stdout.write(text)
            return
        import shlex

        command = self.environ.get("PAGER", "less")
        argv = shlex.split(command) or ["cat"]
        if os.path.basename(argv[0]) == "cat":
            self.stdout.write(text)
            return
        if os.path.basename(argv[0]) == "less":
            argv += ["-R", "-S"]
        self.stdout.flush()
        _run_pager(
            argv,
            text,
            {**self.environ, "LESS": self.environ.get("LESS", PAGER_LESS)},
            fallback=self.stdout,
        )

    # -- progress -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def progress(self, total: int | None, what: str) -> Iterator[Callable[..., None]]:
        """A bar on stderr (count, rate, time left) when stderr is a terminal; nothing
        otherwise. Yields ``advance(n=1)``. Never touches stdout. A *total* of None is a
        step without a count: a spinner, so that a long step never leaves a blank screen."""
        if not self.stderr_is_terminal or (total is not None and total < 2):
            yield lambda n=1: None
            return
        from .bars import bar, spinner

        console = self.console(stderr=True)
        # Two columns free: the terminal echoes Ctrl-C as "^C" after the bar, and on a bar as
        # wide as the screen (80 columns, "exporting bibtex") it wrapped to a new line; the
        # bar, cleared one line too low, then stayed on the screen above "interrupted".
        console.width = max(console.width - ECHO_ROOM, 20)
        with spinner(console, what) if total is None else bar(console, total, what) as advance:
            yield advance


def _run_pager(argv: list[str], text: str, environ: dict, fallback: TextIO) -> None:
    import subprocess

    try:
        pager = subprocess.Popen(
            argv, stdin=subprocess.PIPE, env=environ, text=True, encoding="utf-8", errors="replace"
        )
    except OSError:  # no such pager: print as if there were none
        fallback.write(text)
        return
    try:
        pager.stdin.write(text)
        pager.stdin.close()
    except (BrokenPipeError, KeyboardInterrupt):
        pass  # the reader quit before the end
    while True:  # Ctrl-C belongs to the pager while it runs (as git and pydoc do)
        try:
            pager.wait()
            return
        except KeyboardInterrupt:
            continue
