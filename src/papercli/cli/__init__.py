"""The ``papers`` command line: thin Typer commands over plain functions.

    app.py         the application: options every command takes, registering and parsing
                   commands
    session.py     one Session per command (settings, output, taxonomy, library, index)
    exits.py       errors and signals turned into one line and an exit code
    helptext.py    command help made from docstrings
    find.py        search, similar, list, show, stats
    tags.py        tags, tag, retag
    library.py     ingest, index, edit, doctor
    export.py      export
    enrich.py      enrich (OpenReview)
    settings.py    config
    completion.py  shell completion scripts; ids and tags completed

``main`` is the program. Whatever a command changes for the whole process is set there,
and only there: how Typer formats help, how stdout buffers, what Ctrl-C and SIGTERM do,
which objects the garbage collector leaves alone, how often Textual may draw (and, in
``ingest``, which loggers speak).
"""

from __future__ import annotations

import gc
import os
import signal
import sys

# Where Python calls back while an object goes away: a weakref's callback (the one that
# drops a WeakValueDictionary's entry, WeakSet's) runs in these modules.
_WEAKREF_FILES = ("weakref.py", "_weakrefset.py")


def _in_finalizer(frame) -> bool:
    """Whether the code that ``frame`` runs was called by a ``__del__`` or a weakref's
    callback: an exception raised there is printed and dropped, not raised."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.endswith(_WEAKREF_FILES):
            return True
        frame = frame.f_back
    return False


def _interrupted(signum, frame) -> None:
    """The first Ctrl-C or SIGTERM interrupts the command; later ones are ignored while it
    cleans up (cancelling the indexing processes, discarding an uncommitted write)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if _in_finalizer(frame) and hasattr(signal, "setitimer"):
        # Python prints an exception raised in a __del__ as "Exception ignored in ..." and
        # drops it, so the command would go on and end 0 with a traceback on stderr (CI saw
        # a SIGTERM land in Whoosh's lock's __del__, and once in WeakValueDictionary's
        # callback, at the end of an ingest). Raise it a moment later instead.
        signal.signal(signal.SIGALRM, lambda _alarm, later: _interrupted(signum, later))
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        return
    from ..errors import Terminated, received

    raise received(Terminated() if signum == signal.SIGTERM else KeyboardInterrupt())


def main() -> None:
    """The ``papers`` program."""
    if "TYPER_USE_RICH" not in os.environ and not (sys.stdout and sys.stdout.isatty()):
        # Piped or captured: plain help and errors, and half of --help's start-up cost
        # (read by Typer when it is imported, hence before importing the commands).
        os.environ["TYPER_USE_RICH"] = "0"
    from ..ui import SCREEN_FPS  # (papers browse's screen clock; Textual is not imported)

    os.environ.setdefault("TEXTUAL_FPS", str(SCREEN_FPS))
    if getattr(sys.stdout, "write_through", False):
        # PYTHONUNBUFFERED (Docker images set it; so did this machine's shell) makes stdout
        # write through: a listing's line, an export's record, was a write call each (3,527
        # for the hits of `learning` at 10k papers: 58 instead of 43 us a hit into a pipe).
        # A listing flushes what a reader must see (render.write_hits); a terminal still
        # gets each line as it is written. stderr (progress, warnings) stays as it is.
        sys.stdout.reconfigure(write_through=False, line_buffering=sys.stdout.isatty())
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        # What importing Typer and the commands makes lives until the exit: not collected
        # while imported (no garbage to find), then kept out of the collector's scans (a
        # long listing's full collections walked every module's objects).
        gc.disable()
        from .app import app

        gc.freeze()
        gc.enable()
        app(prog_name="papers")
    except KeyboardInterrupt as exc:  # (while Typer was building the commands)
        from ..errors import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

        terminated = isinstance(exc, Terminated)
        sys.stderr.write(f"papers: {'terminated' if terminated else 'interrupted'}\n")
        sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)
    finally:
        # The command has ended and its exit status is decided. Python's shutdown then puts
        # back the default actions of the signals it handled, so a late Ctrl-C or SIGTERM
        # would kill the process silently and replace that status (CI saw a finished
        # ingest end as -15). Ignored, it changes nothing; SIGKILL still ends a stuck exit.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if hasattr(signal, "setitimer"):  # (a signal deferred out of a __del__, above)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_IGN)
