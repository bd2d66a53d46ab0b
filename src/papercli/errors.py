"""The tool's own error types. The CLI turns each into a one-line message and an exit code.

Exit codes (documented in the README):
    0  success
    1  nothing found (a search, list or export that matched no paper)
    2  bad usage or unusable input (a bad query, an unreadable document, an unknown id)
       or an outside service that fails (arXiv, Crossref or OpenReview unreachable,
       rate-limiting, garbled)
    4  papers doctor: problems remain (1: what it found was repaired; as fsck)
   70  an internal error (a bug): one line, the traceback with PAPERS_DEBUG=1
  129  papers browse: its terminal went away (SIGHUP, or the terminal hung up without
       one): nothing said, to no one
  130  interrupted (Ctrl-C): one line; the library is as before or as after the command
  143  terminated (SIGTERM): the same
  141  the reader of the output went away (``papers … | head``), as if killed by SIGPIPE
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_NOTHING_FOUND = 1
EXIT_USAGE = 2
EXIT_REPAIRED = 1  # papers doctor repaired what it found (fsck's 1)
EXIT_PROBLEMS_LEFT = 4  # papers doctor found problems it did not repair (fsck's 4)
EXIT_INTERNAL = 70  # a bug in papers (EX_SOFTWARE); the traceback with PAPERS_DEBUG=1
EXIT_HANGUP = 129  # the terminal went away (128 + SIGHUP, as if a hang-up killed it)
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
EXIT_TERMINATED = 143  # SIGTERM (128 + 15)


class PapersError(Exception):
    """An error with a message meant for the user."""

    exit_code = EXIT_USAGE


class UsageError(PapersError):
    """A bad option, query or id."""


class DocumentError(PapersError):
    """A document that cannot be read or recognised. Nothing of it is ingested."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class RecordError(PapersError):
    """A record whose content does not validate."""


class NothingFound(PapersError):
    exit_code = EXIT_NOTHING_FOUND


class TaxonomyError(PapersError):
    """A taxonomy file that cannot be read or does not validate."""


class ServiceError(PapersError):
    """A service papers asks (arXiv, Crossref, OpenReview) cannot be reached, is too slow,
    refuses, rate-limits beyond our patience, or answers something we cannot read. Exit
    code 2 like any unusable input; the message names the service and its address."""


class OpenReviewError(ServiceError):
    """OpenReview cannot be reached, is too slow, refuses, rate-limits beyond our patience, or
    answers something we cannot read. Exit code 2 like any unusable input: the library is
    untouched, and the message names the server (and the venue) so the user can retry later."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that the same clean-up runs (see ``cli.main``)."""


_RECEIVED: list[KeyboardInterrupt] = []  # the Ctrl-C or SIGTERM this process was sent


def received(signal: KeyboardInterrupt) -> KeyboardInterrupt:
    """Note *signal* (what the handler of Ctrl-C or SIGTERM raises): once it has come, the
    command ends as interrupted, whatever its clean-up runs into (see ``interruption``)."""
    _RECEIVED[:] = [signal]
    return signal


def interruption(exc: BaseException | None) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM (``Terminated``) that *exc* is, was raised while handling, or
    that came before it; None when no signal came.

    A signal lands at any instruction, and some library code does not survive that: CPython's
    ``shutil.rmtree`` closes a directory, marks it closed on the next line, and closes it
    again in a ``finally`` if the signal landed in between. The "Bad file descriptor" of that
    second close replaces the signal; where an ``except OSError`` then swallows it, the
    signal is lost and the command goes on, and a descriptor closed twice may be another
    file's by then. Whatever error follows a signal is the interruption's doing."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__context__
    return _RECEIVED[0] if _RECEIVED else None


class IndexDamaged(PapersError):
    """Part of the index cannot be read. The records are untouched; the index is derived
    from them and can always be rebuilt."""

    def __init__(self, folder, cause: BaseException) -> None:
        detail = f"{type(cause).__name__}: {cause}".strip().rstrip(":")
        super().__init__(
            f"the index in {folder} is damaged ({detail[:120]}); rebuild it "
            "with papers index --rebuild"
        )
