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

LimitOpt = Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Show the best N.")]


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
        help="List the papers that name the concept only in passing, last and marked "
        "(default: the passing setting, on).",
        show_default=False,
    ),
]


@command(short_help="Search papers, best first, showing why each matched.", cls=QueryCommand)
def search(
    ctx: typer.Context,
    query: Annotated[
        list[str], typer.Argument(help="What to look for (see above).", show_default=False)
    ],
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
            help="Only the words as written (and their forms): no bridge "
            "through the glossary to other words and the other language.",
        ),
    ] = False,
    passing: PassingOpt = None,
) -> None:
    """Search titles, short names, authors, tags, abstracts and Chinese summaries, best
    first.
    Each result shows why it matched: a passage with the matched words marked.

    \b
    Query language:
      muon adam               both words (AND is the default)
      muon OR adam            either; NOT excludes; ( ) groups
      "vehicle routing"       a phrase; Chinese too: "联邦学习框架"
      optim*  federatd~       a prefix; a word one typo away
      title:muon  name:QZO    a field: title name author keyword tag venue
      tag:联邦学习            year category abstract summary; a tag by any alias
      year:2025..2026         a year or a range (year:>=2025)

      muon -adam  muon +adam  -word excludes, +word requires (as in web search)

    One concept, both languages: words that name a concept of the glossary (联邦学习,
    federated learning, FL, fl) also find papers that speak of it only in other words or
    the other language; those rank below literal matches, and -大模型 excludes what
    大模型 finds (the papers that say LLM too). Names and common words
    written together, as Chinese is (大模型微调, 大模型训练), are asked for each, and so
    are the words around the particles and question words run into them
    (大模型的强化学习, 如何微调大模型); a name with a head noun or one character run on
    is the name (车辆路径问题, 梯度下降法, 超参数), and so is a concept's whole term
    (nonconvex optimization, Hessian matrix); a common word of ML texts is asked for in
    both languages, in any of its forms (梯度, gradient; 联邦学习框架: framework;
    accelerating training: 加速训练). --exact turns this off. A paper that names the
    concept only in passing (an item of a list, a baseline, what is trained, a result) and
    whose other concepts have little to do with it is held back: a line says how many,
    and --passing lists them too (marked "only in passing").

    Pasted text works: a title pasted as it is finds its paper first, also as a .bib
    file writes it ($\\mu$P is μP) and whatever query words it holds (Attention Is
    NOT All You Need, year: A Benchmark), and so does an untitled paper's label as shown,
    (untitled) and all. A reference copied from a bibliography, authors and venue and
    all, finds the papers whose titles it holds. Common words (of, with, the…) are left out, and so
    are a question's and a comparison's (what, how, vs: Adam vs SGD; 如何, 的) and
    what the library holds (muon papers, 关于Muon的论文); 或 is OR; LLM's is LLM;
    a plus between two words is a space (联邦学习+大模型); two words typed apart also
    find the word written solid (sign SGD finds SignSGD); a year, a venue or a category
    as a word is that field too (muon ICLR 2026, 优化/理论);
    ? ! & , % signs (√, +) and a colon after a word that is not a field (RRNCO:
    Towards…) are punctuation, and ，、；。 part words as a space does. A pasted
    paper id lists that paper first, and so does a pasted link, DOI or arXiv id of
    a paper (1412.6980, doi:10.…).
    Chinese is matched as written, also inside longer text or glued to English
    (联邦学习, GRPO风格); English words match their other forms (optimizer, optimizers;
    multi-modal, multimodal).
    author: matches the authors of papers imported from BibTeX or filled in by
    papers enrich (author:turing).

    \b
    Examples:
      papers search muon
      papers search "federated learning" year:2026
      papers search 量化 --json
      papers search muon --ids | papers export --format bibtex -
    """
    from .. import render
    from ..search import query as q
    from ..search.pasted import pasted_id
    from ..search.querylang import SHOWN, quoted

    session: Session = ctx.obj
    filters = session.filters(tag, venue=venue, year=year)
    index = session.index()
    text = " ".join(query)
    shown, cap = session.limit(limit, json or ids)
    width = render.snippet_width(session.env)
    passing = session.passing(passing)
    hits = q.search_stream(index, text, cap, filters, width, session.resolve_tag, exact, passing)
    rid = pasted_id(index, text)
    if rid:
        session.env.say(f"{rid} is a paper's id: papers show {rid} shows the paper itself")
    listed = print_listing(session, hits, shown, scores=True, json=json, ids=ids)
    if not listed:
        absent = q.absent_concepts(index, text)
        why = f": no paper here speaks of {' or '.join(absent)}" if absent else ""
        better = q.suggest(index, text, filters)
        hint = f". Did you mean: {better.rstrip('?')}?" if better and len(better) <= SHOWN else ""
        partial = None if hint or absent else q.without_one(index, text, filters)
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
    from ..search import query as q

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
    from ..search import query as q

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
    from ..search import query as q

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
    from ..search import query as q

    session: Session = ctx.obj
    overview = q.stats(session.index())
    if json:
        render.print_json(session.env, {section: dict(rows) for section, rows in overview.items()})
    else:
        render.print_stats(session.env, overview)
