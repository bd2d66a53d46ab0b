"""``add``: papers by arXiv id, DOI, OpenReview link or title, looked up in the services."""

from typing import Annotated

import typer

from ..errors import NothingFound, UsageError
from .app import JsonOpt, Session, command


@command(short_help="Add papers by arXiv id, DOI, OpenReview link or title.")
def add(
    ctx: typer.Context,
    items: Annotated[
        list[str],
        typer.Argument(
            metavar="ITEM...",
            help="arXiv ids or links, DOIs, OpenReview forums or links, titles or references.",
            show_default=False,
        ),
    ],
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", "-t", help="Give each paper this tag of yours (repeatable)."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would be added; write nothing.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Add papers, each looked up where it lives: arXiv (2501.01234, arXiv:2501.01234v2,
    an abs or pdf link, cs/0112017), OpenReview (a forum id or a forum or pdf link),
    Crossref (10.1000/xyz, doi:…, https://doi.org/…), or a title or reference in quotes.

    Each record gets the title, authors, abstract, venue and year, the links, and a
    source naming the service and the day it answered. The published version wins: a
    preprint whose DOI, journal reference or OpenReview decision names a venue gets that
    venue and year. A paper already in the library (same arXiv id, DOI, forum, or title
    and abstract as the merge rule reads them) is merged into its record, never repeated.

    A title is looked up on arXiv, Crossref and the OpenReview lists papers enrich has
    downloaded, never guessed: when no paper is clearly ahead, a terminal lists the
    candidates to choose from; a pipe prints them and exits 1, writing nothing. The
    services are the arxiv_api, crossref_api and openreview_api settings; contact_email
    is sent to Crossref.

    \b
    Examples:
      papers add 2501.01234 https://openreview.net/forum?id=3d5CIRG1n2
      papers add 10.1145/3292500.3330701 --tag reading-list
      papers add "Adam: A Method for Stochastic Optimization"
    """
    from ..add import report
    from ..add.items import parse_item
    from ..add.resolve import Unsure, resolve
    from ..add.write import add_papers
    from ..remote.apis import Apis
    from ..tags.tagging import normalise_tag

    session: Session = ctx.obj
    parsed = [parse_item(item) for item in items]
    tags = [normalise_tag(t, session.taxonomy) for t in tag or []]
    apis = Apis.from_settings(session.settings)
    library = session.library(create=True)
    with session.env.progress(None, "asking arXiv, Crossref and OpenReview"):
        resolved = resolve(parsed, apis, library if library.root.is_dir() else None)
    unsure = [r for r in resolved if isinstance(r, Unsure)]
    if empty := next((u for u in unsure if not u.candidates), None):
        raise NothingFound(
            f"no paper found for {empty.item.given!r} on arXiv, on Crossref or in the "
            "OpenReview lists papers enrich downloaded; nothing was added"
        )
    left_out = 0
    if unsure:
        env = session.env  # (a person can answer only where all three are the terminal)
        if not (env.stdin_is_terminal and env.stdout_is_terminal and env.stderr_is_terminal):
            _print_candidates(session, unsure, json_out)
            raise typer.Exit(1)
        chosen = {id(u): _choose(session, u) for u in unsure}
        left_out = sum(c is None for c in chosen.values())
        resolved = [chosen.get(id(r), r) for r in resolved]
        resolved = [r for r in resolved if r is not None]
    outcomes = add_papers(library, resolved, session.taxonomy, tags, dry_run) if resolved else []
    if json_out:
        from ..render import print_json

        print_json(session.env, [o.as_dict() for o in outcomes])
    else:
        width = session.env.width if session.env.tables else None
        for outcome in outcomes:
            for line in report.outcome_lines(outcome, width):
                session.out(line)
    session.env.say(report.summary(outcomes, dry_run, left_out))
    if left_out:
        raise typer.Exit(1)


def _print_candidates(session: Session, unsure: list, json_out: bool) -> None:
    """A pipe cannot choose: every undecided title's candidates on stdout, one line each."""
    from ..add import report

    if json_out:
        from ..render import print_json

        print_json(
            session.env,
            [
                {"item": u.item.given, "candidates": [c.summary() for c in u.candidates]}
                for u in unsure
            ],
        )
    else:
        for u in unsure:
            for row in report.candidate_rows(u):
                session.out(row)
    for u in unsure:
        session.env.say(report.unsure_message(u))


def _choose(session: Session, unsure):
    """Ask which candidate the title meant; None when the answer is none of them."""
    from ..add import report

    env = session.env
    width = max(40, min(env.width, 100) - 2)
    for line in report.candidate_list(unsure, width):
        env.stderr.write(line + "\n")
    n = len(unsure.candidates)
    for _attempt in range(3):
        env.stderr.write(f"Which one? [1-{n}, Enter for none] ")
        env.stderr.flush()
        answer = (env.stdin.readline() if env.stdin is not None else "").strip()
        if not answer:
            env.say(f"{unsure.item.given!r} left out")
            return None
        if answer.isdigit() and 1 <= int(answer) <= n:
            return unsure.choose(int(answer) - 1)
        env.stderr.write(f"papers: {answer!r} is not a number from 1 to {n}\n")
    raise UsageError(f"no paper chosen for {unsure.item.given!r}")
