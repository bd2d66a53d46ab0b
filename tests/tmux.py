"""A real terminal for tests: a tmux server of its own, one window of a chosen size, bash.

Pipes and captured pseudo-terminals hide what a person's terminal shows: stdout redirected
to a file while stderr is still the screen, a pager on a screen shorter than the table,
Ctrl-C in the middle of a command. Here a command is typed into a real shell in a real
terminal emulator, and the test reads the screen the way a person would see it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent  # the venv's bin/, where `papers` is


def need_tmux() -> None:
    if shutil.which("tmux"):
        return
    if os.environ.get("PAPERS_REQUIRE_TOOLS"):
        pytest.fail("required tool missing: tmux")
    pytest.skip("not installed: tmux")


class Terminal:
    """``with Terminal(80, 24, cwd) as term: term.run("papers list"); term.screen()``"""

    def __init__(self, width: int, height: int, cwd: Path, env: dict | None = None) -> None:
        need_tmux()
        self.width, self.height, self.cwd = width, height, Path(cwd)
        self.socket = str(Path(cwd) / f".tmux-{uuid.uuid4().hex[:8]}")
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES", "TMUX")
        }
        self.env |= {"PATH": f"{BIN}:{self.env.get('PATH', '/usr/bin:/bin')}", "PS1": "$ "}
        self.env |= {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        self.env |= env or {}
        self.runs = 0

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, env=self.env
        )
        if check and result.returncode:
            raise RuntimeError(f"tmux {args[0]}: {result.stderr}")
        return result.stdout

    def __enter__(self) -> Terminal:
        # The shell's environment is spelled out in its rc file: tmux's server hands new
        # shells an environment of its own making.
        rc = Path(self.socket + ".rc")
        rc.write_text("".join(f"export {k}={shlex.quote(v)}\n" for k, v in self.env.items()))
        self.tmux(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            str(self.width),
            "-y",
            str(self.height),
            "-c",
            str(self.cwd),
            f"bash --rcfile {rc} --noprofile -i",
        )
        self.tmux("set-option", "-g", "status", "off")
        self.tmux("resize-window", "-x", str(self.width), "-y", str(self.height), check=False)
        self.wait_for(lambda screen: "$" in screen, 10)
        return self

    def __exit__(self, *exc) -> None:
        self.tmux("kill-server", check=False)
        Path(self.socket).unlink(missing_ok=True)
        Path(self.socket + ".rc").unlink(missing_ok=True)

    # -- typing and reading ------------------------------------------------------------------

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-l", line)
        self.tmux("send-keys", "Enter")

    def screen(self, colours: bool = False) -> str:
        """What the terminal shows now, one string per screen line (trailing blanks cut)."""
        args = ["capture-pane", "-p"] + (["-e"] if colours else [])
        return self.tmux(*args)

    def wait_for(self, ready, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the screen shows:\n{screen}")
            time.sleep(0.05)

    def run(self, command: str, timeout: float = 60) -> int:
        """Type *command* at the prompt and wait until it ends; return its exit code.

        The screen is cleared first, so ``screen()`` then shows this command alone. The exit
        code travels through a file, so nothing but the command itself reaches the screen.
        """
        self.runs += 1
        status = self.cwd / f".status-{self.runs}"
        self.type(f"clear; {command}; echo $? > {status}")
        deadline = time.monotonic() + timeout
        while not status.exists() or not status.read_text().strip():
            if time.monotonic() > deadline:
                raise AssertionError(f"{command!r} did not end; the screen shows:\n{self.screen()}")
            time.sleep(0.05)
        code = int(status.read_text())
        status.unlink()
        return code

    def start(self, command: str) -> None:
        """Type *command* without waiting for it (for pagers and Ctrl-C)."""
        self.type(f"clear; {command}")
