"""``enrich``: titles, authors, abstracts and links from the venue's accepted papers on
OpenReview, else from arXiv and Crossref."""

from typing import Annotated

import typer

from ..errors import UsageError
from .app import JsonOpt, Session, command


@command(short_help="Fill in titles, authors and links from OpenReview, arXiv, Crossref.")
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
        bool,
        typer.Option("--refresh", help="Download the venues' lists and ask the services again."),
    ] = False,
    json_out: JsonOpt = False,
) -> None:
    """Fill in what a record lacks (title, authors in order, abstract, links, the authors'
    keywords) from its venue's accepted papers on OpenReview, else from arXiv and Crossref.

    Each venue's list (ICLR, NeurIPS, ICML, by the record's venue and year) is downloaded
    once and kept in the library. A paper of another venue (CVPR, AAAI, a journal, a
    preprint), or one its venue's list lacks, is asked of arXiv (by the arXiv id of its
    links, else its title, else its abstract's distinctive words) and of Crossref (by its
    DOI, else its title, venue and year); their answers are kept in the library too, and
    --refresh asks again. A link names the paper; otherwise a record is matched by its
    abstract (LaTeX, wrapping and spacing do not matter), else its title, else a fuzzy score
    with a clear margin over the runner-up; a near tie is reported and left alone. A value
    the record already holds is never overwritten: a different one is kept as a
    disagreement, which papers show reports. The record cites openreview:FORUM, arxiv:ID or
    crossref:DOI in its sources, and stderr says where each paper was found. The servers are
    the openreview_api, arxiv_api and crossref_api settings (PAPERS_OPENREVIEW_API, …);
    arXiv is asked at most once every 3 seconds.

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
