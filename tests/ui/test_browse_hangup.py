"""The real ``papers browse`` on a pseudo-terminal that goes away: its master closed with
no SIGHUP sent (the process in a session of its own, as ``setsid`` starts it), or a
SIGHUP. The app ends, exit status 129 (128 + SIGHUP), where it ran on until killed."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time

import pytest

from testing import PAPERS

ENDED = 20  # seconds a process is given to end: it ends in well under one, or never
LEAVE_SCREEN = b"\x1b[?1049l"  # Textual's last words: back from the alternate screen


def terminal(rows: int = 24, columns: int = 80) -> tuple[int, int]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    return master, slave


def browse(library, stdin: int, output: int) -> subprocess.Popen:
    """``papers browse muon`` reading *stdin*, drawing on *output* (stdout and stderr); in
    a session of its own, so that no terminal of its is a controlling one: no SIGHUP. A
    hang-up ends it as it ends a program a terminal's shell starts, whatever this test
    inherited (under ``nohup`` SIGHUP is ignored, and so it was in the app, which runs on
    as nohup asks)."""
    return subprocess.Popen(
        [str(PAPERS), "--library", str(library), "browse", "muon"],
        stdin=stdin,
        stdout=output,
        stderr=output,
        env={**os.environ, "TERM": "xterm-256color", "PYTHONFAULTHANDLER": "1"},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL),
    )


def read(master: int, until: bytes | None, seconds: float = 60) -> bytes:
    """What the process drew on *master*: until *until* shows, or until it closed."""
    seen = b""
    deadline = time.monotonic() + seconds
    while (until is None or until not in seen) and time.monotonic() < deadline:
        if select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # (EIO: every slave descriptor is closed)
                break
            if not chunk:
                break
            seen += chunk
    return seen


def ended(process: subprocess.Popen, screen: int | None = None) -> tuple[int | None, bytes]:
    """The exit status, and what the process drew on *screen* meanwhile: a terminal nobody
    reads fills, and a process restoring the screen then waits on it for ever. A process
    still running after ``ENDED`` seconds is stopped with SIGABRT, which makes Python's
    fault handler write each thread's stack (on *screen*, returned): status None."""
    seen = b""
    deadline = time.monotonic() + ENDED
    while process.poll() is None and time.monotonic() < deadline:
        if screen is None:
            time.sleep(0.05)
        else:
            seen += read(screen, None, 0.05)
    if process.poll() is None:
        process.send_signal(signal.SIGABRT)
        if screen is not None:
            seen += read(screen, None, 5)
        process.kill()
        process.wait()
        return None, seen
    return process.returncode, seen


def said(seen: bytes) -> str:
    """What a process wrote on its screen, its last screens' escapes left out: the
    stacks of a process that did not end."""
    return re.sub(rb"\x1b\[[0-?]*[ -/]*[@-~]", b"", seen)[-6000:].decode(errors="replace")


@pytest.mark.slow
def test_the_terminal_closed_without_a_sighup_ends_the_app(browse_template):
    master, slave = terminal()
    process = browse(browse_template, slave, slave)
    os.close(slave)
    assert b"quit" in read(master, b"quit")  # (the footer: the app is up)
    os.close(master)
    assert ended(process)[0] == 129


@pytest.mark.slow
def test_input_ended_the_screen_is_restored_without_a_traceback(browse_template):
    """The keyboard's terminal goes; the screen's stays and is left as it was found."""
    keys, keys_slave = terminal()
    screen, screen_slave = terminal()
    process = browse(browse_template, keys_slave, screen_slave)
    os.close(keys_slave)
    os.close(screen_slave)
    try:
        assert b"quit" in read(screen, b"quit")
        os.close(keys)
        status, after = ended(process, screen)
        assert status == 129, said(after)
        after += read(screen, None, 5)
    finally:
        os.close(screen)
    assert LEAVE_SCREEN in after
    assert b"Traceback" not in after and b"Error" not in after


@pytest.mark.slow
def test_a_sighup_ends_the_app_and_restores_the_screen(browse_template):
    master, slave = terminal()
    process = browse(browse_template, slave, slave)
    os.close(slave)
    try:
        assert b"quit" in read(master, b"quit")
        process.send_signal(signal.SIGHUP)
        status, after = ended(process, master)
        assert status == 129, said(after)
        after += read(master, None, 5)
    finally:
        os.close(master)
    assert LEAVE_SCREEN in after
    assert b"Traceback" not in after and b"Error" not in after
