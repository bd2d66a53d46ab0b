"""``enrich``: titles, authors, links and keywords from the venue's accepted papers on
OpenReview."""

from typing import Annotated

import typer

from ..errors import UsageError
from .app import JsonOpt, Session, command


@command(short_help="Fill in titles, authors and links from OpenReview.")
def enrich(
    ctx: typer.Context,
    ids: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[ID]...",
            help="Papers to enrich (ids, short names, unique parts of ids).",
            show_default=False,
        ),
    ] = None,
    everything: Annotated[bool, typer.Option("--all", help="Every paper of the library.")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the changes; write nothing.")
    ] = False,
    refresh: Annotated[
        bool, typer.Option("--refresh", help="Download the venues' lists again.")
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Fill in what a record lacks (title, authors in order, the OpenReview forum and PDF
    links, the authors' keywords) from its venue's accepted papers on OpenReview.

    Each venue's list (ICLR, NeurIPS, ICML, by the record's venue and year) is downloaded
    once and kept in the library; --refresh downloads it again. A record is matched by its
    abstract (LaTeX, wrapping and spacing do not matter), else its title, else a fuzzy
    score with a clear margin over the runner-up; a near tie is reported and left alone.
    A value the record already holds is never overwritten: a different one from OpenReview
    is kept as a disagreement, which papers show reports. The record cites
    openreview:FORUM in its sources. The server is the openreview_api setting
    (PAPERS_OPENREVIEW_API).

    \b
    Examples:
      papers enrich --all --dry-run
      papers enrich --all
      papers enrich iclr2026-qzo --json
    """
    from ..enrich.run import enrich as run_enrich
    from ..render import print_enrichment

    session: Session = ctx.obj
    if bool(ids) == everything:
        raise UsageError("name the papers to enrich, or --all (not both)")
    library = session.library()
    api = session.settings["openreview_api"].value
    report = run_enrich(
        library,
        None if everything else list(ids or []),
        api,
        refresh=refresh,
        dry_run=dry_run,
        progress=session.env.progress,
    )
    for problem in report.skipped:
        session.env.warn(f"{problem}; skipped (fix it with papers edit)")
    print_enrichment(session.env, report, json_out)
    for line in summary(report, dry_run):
        session.env.say(line)


def summary(report, dry_run: bool) -> list[str]:
    """What happened, in a few lines on stderr: the lists used, then the counts."""
    lines = []
    for venueid, listed in report.lists.items():
        how = "downloaded" if venueid in report.downloaded else "cached, fetched"
        n = len(listed.raw)
        lines.append(f"{venueid}: {n:,} accepted paper{'s' * (n != 1)} ({how} {listed.fetched})")
    matched = [
        f"{report.count(how)} by {how}"
        for how in ("abstract", "title", "fuzzy")
        if report.count(how)
    ]
    changed = len(report.changed) if dry_run else len(report.written)
    verb = "would change" if dry_run else "changed"
    tail = " (dry run)" if dry_run else ""
    n = len(report.outcomes)
    lines.append(
        f"{n} paper{'s' * (n != 1)}: {', '.join(matched) or 'none matched'}; {verb} {changed}{tail}"
    )
    for outcome in report.outcomes:
        if outcome.reason:
            lines.append(f"{outcome.id}: {outcome.reason}")
    for forum, ids in report.shared().items():
        lines.append(
            f"{', '.join(ids)}: all are openreview:{forum}, one paper in several "
            "records (papers keeps them; merge them by hand)"
        )
    return lines
