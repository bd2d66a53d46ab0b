"""The terminal going away while ``papers browse`` runs: the app ends (exit status 129,
128 + SIGHUP, as a shell reports a process a hang-up killed).

A terminal goes in one of two ways. With a SIGHUP: a window closed, an ssh connection
dropped. Or silently: the process runs in a session of its own (``setsid``, a program
that started it so), and the program holding the pseudo-terminal's master closes it;
then reading the terminal only ever returns its end. Textual's input thread is not told
of that end: it selects, reads nothing and selects again at once, for ever (a core's
60-80 %). A thread of our own waits in ``poll`` for the terminal's hang-up (asked for no
event, so that it reads nothing: the keys stay Textual's) and ends the app then.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import threading
from asyncio import AbstractEventLoop
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


class HangUpWatch:
    """Calls *hang_up* on *loop* (once) when the terminal *fd* hangs up or the process
    gets a SIGHUP, from ``start`` until ``stop``."""

    def __init__(self, fd: int, hang_up: Callable[[], None], loop: AbstractEventLoop) -> None:
        self.fd = fd
        self.hang_up = hang_up
        self.loop = loop
        self._wake: tuple[int, int] | None = None  # a pipe: written to, the thread ends
        self._thread: threading.Thread | None = None
        self._previous = None  # SIGHUP's handler before ours (None: ours was not set)
        self._said = threading.Lock()

    @classmethod
    def of_app(cls, app: App, hang_up: Callable[[], None]) -> HangUpWatch | None:
        """The watch of the terminal *app* reads; None when it reads none (Textual's
        pilot, a headless run) or runs off the main thread (no signal handler there)."""
        stdin = sys.__stdin__
        if app.is_headless or stdin is None or not stdin.isatty():
            return None
        if threading.current_thread() is not threading.main_thread():
            return None
        return cls(stdin.fileno(), hang_up, asyncio.get_running_loop())

    def start(self) -> None:
        if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:  # (nohup: still ignored)
            self._previous = signal.signal(signal.SIGHUP, lambda _signum, _frame: self._gone())
        self._wake = os.pipe()
        self._thread = threading.Thread(target=self._watch, name="papers-hangup", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None or self._wake is None:
            return
        if self._previous is not None:
            signal.signal(signal.SIGHUP, self._previous)
        os.write(self._wake[1], b"x")
        self._thread.join()
        for fd in self._wake:
            os.close(fd)
        self._thread = self._wake = None

    def _watch(self) -> None:
        assert self._wake is not None
        poller = select.poll()
        poller.register(self.fd, 0)  # (POLLHUP, POLLERR and POLLNVAL are always reported)
        poller.register(self._wake[0], select.POLLIN)
        while True:
            events = dict(poller.poll())
            if events.get(self.fd, 0) & GONE:
                silence(self.fd)
                self._gone()
                return
            if self._wake[0] in events:
                return

    def _gone(self) -> None:
        if not self._said.acquire(blocking=False):  # (a hang-up and a SIGHUP: said once)
            return
        with contextlib.suppress(RuntimeError):  # (a closed loop: the app has ended)
            self.loop.call_soon_threadsafe(self.hang_up)


def silence(fd: int) -> None:
    """Point stdout and stderr, where they are the terminal *fd* that hung up, at
    /dev/null: what is still written there (Textual restoring the screen, Python flushing
    at exit) fails otherwise, and a failed flush at exit makes the exit status 120."""
    try:
        gone = os.fstat(fd)
    except OSError:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            if stream is not None and os.path.samestat(os.fstat(stream.fileno()), gone):
                os.dup2(devnull, stream.fileno())
        except (OSError, ValueError):
            continue
    os.close(devnull)
