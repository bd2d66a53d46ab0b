"""``browse``: the library in a full-screen app (``papercli.ui``, Textual), imported only
when the command runs: ``papers --help`` and ``papers search`` never load Textual."""

import contextlib
import os
import sys
from typing import Annotated

import typer

from ..errors import UsageError
from .app import QueryCommand, Session, TagOpt, command
from .exits import exit_for_hang_up


@command(short_help="Search and pick papers in a full-screen app.", cls=QueryCommand)
def browse(
    ctx: typer.Context,
    query: Annotated[
        list[str] | None, typer.Argument(help="The query to start with.", show_default=False)
    ] = None,
    tag: TagOpt = None,
) -> None:
    """Search as you type, read each paper, mark papers, tag them and export them.

    \b
    Keys:
      typing          edits the query (the same search as papers search)
      Down, Tab       go to the results; Up and Down move in them
      Enter           widens the paper's details; / goes back to the query
      Space, a        mark or unmark a paper; mark every result
      t, e            add tags, export (BibTeX to papers.bib unless chosen otherwise):
                      the marked papers, else the highlighted one
      o, y, s         open its link; copy its id; list the papers like it
      q, Esc, Ctrl-C  quit

    \b
    Examples:
      papers browse
      papers browse muon
      papers browse --tag federated-learning
    """
    from ..ui.model import Browsing

    session: Session = ctx.obj
    env = session.env
    if not (env.stdin_is_terminal and env.stderr_is_terminal):
        raise UsageError("papers browse needs a terminal; papers search works in pipes")
    filters = session.filters(tag)
    browsing = Browsing(session.index(), session.taxonomy, filters, session.passing(None))
    from ..ui.app import BrowseApp

    app = BrowseApp(browsing, " ".join(query or []), color=env.color != "never")
    with _stdout_on_the_terminal(env.stdout_is_terminal):
        app.run()
    if app.failure is not None:
        raise app.failure
    if app.hung_up:
        raise exit_for_hang_up()
    for line in app.log_lines:  # (what was written, left on the terminal after the app)
        env.say(line)


@contextlib.contextmanager
def _stdout_on_the_terminal(already: bool):
    """Textual draws on stderr but takes the terminal's size from stdout: with stdout sent
    to a file (the app writes nothing there) it drew 80x24 on a terminal of any size.
    While the app runs, stdout is the terminal stderr is."""
    if already:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
