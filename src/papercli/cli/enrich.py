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
    from ..remote.apis import Apis
    from ..render import print_enrichment

    session: Session = ctx.obj
    if bool(ids) == everything:
        raise UsageError("name the papers to enrich, or --all (not both)")
    library = session.library()
    report = run_enrich(
        library,
        None if everything else list(ids or []),
        Apis.from_settings(session.settings),
        refresh=refresh,
        dry_run=dry_run,
        progress=session.env.progress,
    )
    for problem in report.skipped:
        session.env.warn(f"{problem}; skipped (fix it with papers edit)")
    print_enrichment(session.env, report, json_out)
    for line in summary(report, dry_run):
        session.env.say(line)


SERVICES = ("OpenReview", "arXiv", "Crossref")
HOWS = ("link", "abstract", "title", "fuzzy")


def summary(report, dry_run: bool) -> list[str]:
    """What happened, in a few lines on stderr: the lists and services asked, the counts,
    then each paper found on arXiv or Crossref, and each paper left as it was and why."""
    lines = []
    for venueid, listed in report.lists.items():
        how = "downloaded" if venueid in report.downloaded else "cached, fetched"
        n = len(listed.raw)
        lines.append(f"{venueid}: {n:,} accepted paper{'s' * (n != 1)} ({how} {listed.fetched})")
    for service, (requests, cached) in report.asked.items():
        used = [f"{requests} request{'s' * (requests != 1)}"] if requests else []
        if cached:
            days = sorted(set(cached))
            fetched = days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}"
            n = len(cached)
            used.append(f"{n} answer{'s' * (n != 1)} cached (fetched {fetched})")
        if used:
            lines.append(f"{service}: {'; '.join(used)}")
    counts = report.counts()
    groups = [
        ", ".join(f"{by[how]} by {how}" for how in HOWS if how in by) + f" ({service})"
        for service in SERVICES
        if (by := counts.get(service))
    ]
    changed = len(report.changed) if dry_run else len(report.written)
    verb = "would change" if dry_run else "changed"
    tail = " (dry run)" if dry_run else ""
    n = len(report.outcomes)
    lines.append(
        f"{n} paper{'s' * (n != 1)}: {'; '.join(groups) or 'none matched'}; {verb} {changed}{tail}"
    )
    for outcome in report.outcomes:
        elsewhere = [look for look in outcome.found if look.service != "OpenReview"]
        if elsewhere:
            found = ", ".join(f"on {look.service} by {_by(look)}" for look in elsewhere)
            lines.append(f"{outcome.id}: found {found}")
        if outcome.reason:
            lines.append(f"{outcome.id}: {outcome.reason}")
    for document, ids in report.shared().items():
        lines.append(
            f"{', '.join(ids)}: all are {document}, one paper in several "
            "records (papers keeps them; merge them by hand)"
        )
    return lines


def _by(look) -> str:
    """How a service found a paper: ``its title``, ``its DOI``, ``a fuzzy score of 0.71``."""
    match = look.match
    if match.how == "link":
        return "its arXiv id" if look.service == "arXiv" else "its DOI"
    if match.how == "fuzzy":
        return f"a fuzzy score of {match.score:.2f}"
    return f"its {match.how}"
