"""Finding and reading papers: ``search``, ``similar``, ``list``, ``show``, ``stats``.

``query`` (and with it the index and Whoosh) and ``render`` are imported inside the
commands, so that ``papers --help`` and shell completion never load them.
"""

import itertools
from typing import Annotated

import typer

from .app import (
    IdsOpt,
    JsonOpt,
    PaperArg,
    QueryCommand,
    Session,
    TagOpt,
    VenueOpt,
    YearOpt,
    command,
)

LimitOpt = Annotated[
    int | None, typer.Option("--limit", "-n", min=1, metavar="N", help="Show the best N.")
]


def print_listing(
    session: Session, hits, shown: int | None, scores: bool, json: bool, ids: bool
) -> int:
    """Hits as a table (it says when there are more), or written one by one as they come:
    tab-separated lines, ids or a JSON array. Returns how many papers were listed."""
    from .. import render
    from ..errors import UsageError

    if json and ids:
        raise UsageError("--json and --ids cannot go together: choose one")
    env = session.env
    if json or ids or not env.tables:
        first = itertools.islice(hits, shown) if shown is not None else hits
        n = render.write_hits(env, first, scores, "json" if json else "ids" if ids else "plain")
        return n
    hits = list(hits)
    more = shown is not None and len(hits) > shown
    del hits[shown if more else len(hits) :]
    if hits:
        note = f"first {shown} shown; --limit N shows more" if more else None
        render.print_hits(env, hits, scores=scores, footer=note)
    return len(hits)


PassingOpt = Annotated[
    bool | None,
    typer.Option(
        "--passing/--no-passing",
        help="List passing mentions, last and marked (default).",
        show_default=False,
    ),
]


@command(short_help="Search papers, best first, showing why each matched.", cls=QueryCommand)
def search(
    ctx: typer.Context,
    query: Annotated[list[str], typer.Argument(hidden=True, show_default=False)],
    limit: LimitOpt = None,
    tag: TagOpt = None,
    venue: VenueOpt = None,
    year: YearOpt = None,
    json: JsonOpt = False,
    ids: IdsOpt = False,
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Only the words, in their forms: no concepts.",
        ),
    ] = False,
    passing: PassingOpt = None,
) -> None:
    """Search titles, names, authors, keywords, tags, abstracts, Chinese summaries.

    \b
    Query language:
      muon adam            both words; also OR, NOT, ( ): muon OR (adam NOT sgd)
      muon -adam +sgd      -word excludes, +word requires
      "vehicle routing"    a phrase; optim* a prefix; federatd~ one typo away
      title:muon           a field: title name author keyword tag venue year
                           category abstract summary; year:2025..2026, >=2025

    \b
    Examples:
      papers search muon
      papers search "federated learning" year:2026
      papers search 联邦学习 --exact
      papers search GSM --no-passing
      papers search muon --ids | papers export --format bibtex -
    """
    from .. import render
    from ..search.querying.pasted import pasted_id
    from ..search.querying.syntax import SHOWN, quoted
    from ..search.questions.filters import filter_query
    from ..search.questions.search import search_stream
    from ..search.questions.suggest import absent_concepts, suggestion, without_one
    from ..search.results.literal_scan import plain_matches

    session: Session = ctx.obj
    filters = session.filters(tag, venue=venue, year=year)
    index = session.index()
    text = " ".join(query)
    shown, cap = session.limit(limit, json or ids)
    width = render.snippet_width(session.env)
    passing = session.passing(passing)
    hits = search_stream(index, text, cap, filters, width, session.resolve_tag, exact, passing)
    rid = pasted_id(index, text)
    if rid:
        session.env.say(f"{rid} is a paper's id: papers show {rid} shows the paper itself")
    listed = print_listing(session, hits, shown, scores=True, json=json, ids=ids)
    if not listed:
        # "No paper" only once a literal scan agrees; then a clearly best correction is run.
        plain = list(plain_matches(index, text, filter_query(filters)))
        if plain:
            n = "1 paper holds" if len(plain) == 1 else f"{len(plain)} papers hold"
            session.env.say(f"no paper has {quoted(text)} as words; {n} it as plain text")
            print_listing(session, iter(plain), shown, scores=False, json=json, ids=ids)
            return
        better, clear = suggestion(index, text, filters) or (None, False)
        if better and clear:
            session.env.say(
                f"no paper matches {quoted(text)}; showing results for {quoted(better)}"
            )
            hits = search_stream(
                index, better, cap, filters, width, session.resolve_tag, exact, passing
            )
            print_listing(session, hits, shown, scores=True, json=json, ids=ids)
            return
        absent = absent_concepts(index, text)
        why = f": no paper here speaks of {' or '.join(absent)}" if absent else ""
        hint = f". Did you mean: {better.rstrip('?')}?" if better and len(better) <= SHOWN else ""
        partial = None if hint or absent else without_one(index, text, filters)
        if partial and len(partial[1]) <= SHOWN:
            word, rest, n = partial
            found = "1 paper matches" if n == 1 else f"{n} papers match"
            hint = f"; without {word!r}, {found}: papers search {rest}"
        raise session.nothing(f"no paper matches {quoted(text)}{why}{hint}", filters)


@command(short_help="List the papers closest to one paper.")
def similar(
    ctx: typer.Context,
    paper_id: PaperArg,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Show the closest N.")] = 10,
    json: JsonOpt = False,
) -> None:
    """List the papers closest to one paper: its key terms in English and Chinese, and
    its tags.

    \b
    Example:
      papers similar iclr2026-muonbp
    """
    from ..search.questions import listing as q

    session: Session = ctx.obj
    paper, hits = q.similar(session.index(), paper_id, limit)
    if not print_listing(session, hits, limit, scores=True, json=json, ids=False):
        raise session.nothing(f"no paper shares key terms with {paper.id}")


@command("list", short_help="List papers, filtered by tag, venue or year.")
def list_(
    ctx: typer.Context,
    tag: TagOpt = None,
    any_tag: Annotated[bool, typer.Option("--any", help="Papers with any of the tags.")] = False,
    venue: VenueOpt = None,
    year: YearOpt = None,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="Show at most N.")
    ] = None,
    json: JsonOpt = False,
    ids: IdsOpt = False,
) -> None:
    """List papers by title, optionally filtered by tag (in either language), venue,
    year.

    \b
    Examples:
      papers list --tag federated-learning
      papers list --tag 联邦学习 --year 2026
      papers list --tag muon --tag adam --any --json
    """
    from ..search.questions import listing as q

    session: Session = ctx.obj
    filters = session.filters(tag, any_tag, venue, year)
    shown, cap = session.limit(limit, json or ids)
    hits = q.list_papers(session.index(), filters, cap, stream=True)
    if not print_listing(session, hits, shown, scores=False, json=json, ids=ids):
        raise session.nothing("no paper to list", filters)


@command(short_help="Show one paper and where each field came from.")
def show(
    ctx: typer.Context,
    paper_id: PaperArg,
    json: Annotated[
        bool, typer.Option("--json", help="Print the record as a JSON object.")
    ] = False,
) -> None:
    """Show one paper: every field, where each came from, and where sources disagree.
    LaTeX in the text is shown as it reads (18×, not 18$\\times$); --json gives the
    record as stored.

    \b
    Examples:
      papers show iclr2026-rrnco
      papers show iclr2026-rrn --json
      papers show "Convergence of Muon with Newton-Schulz"   (a title, pasted)
    """
    from .. import render
    from ..search.questions import lookup as q

    session: Session = ctx.obj
    hit = q.get_paper(session.index(), paper_id)
    if json:
        render.print_json(session.env, hit.data)
    else:
        render.print_record(session.env, hit)


@command(short_help="Papers per venue, year, category, source, language and tag.")
def stats(
    ctx: typer.Context,
    json: Annotated[
        bool, typer.Option("--json", help="Print the counts as one JSON object of sections.")
    ] = False,
) -> None:
    """An overview of the library: papers per venue, year, category, source document and
    tag, titled against untitled, and which languages their texts are in.

    \b
    Examples:
      papers stats
      papers stats --json
    """
    from .. import render
    from ..search.questions import listing as q

    session: Session = ctx.obj
    overview = q.stats(session.index())
    if json:
        render.print_json(session.env, {section: dict(rows) for section, rows in overview.items()})
    else:
        render.print_stats(session.env, overview)
