"""Removing and merging papers: ``remove``, ``merge``."""

from typing import Annotated

import typer

from ..errors import UsageError
from .app import PaperArg, Session, _ids_for_completion, command


@command(short_help="Remove papers from the library (asks first).")
def remove(
    ctx: typer.Context,
    paper_ids: Annotated[
        list[str],
        typer.Argument(
            metavar="ID...",
            help="Papers to remove; '-' reads ids from stdin.",
            autocompletion=_ids_for_completion,
        ),
    ],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Remove without asking (needed off a terminal).")
    ] = False,
) -> None:
    """Remove papers from the library, all or none. On a terminal it lists them and asks
    first; elsewhere (a script, a pipe) it needs --yes.

    A document copy that no remaining paper cites is removed with them. Ingesting the
    document again brings its papers back.

    \b
    Examples:
      papers remove iclr2026-vip
      papers search zephyrine --ids | papers remove - --yes
    """
    from ..curation import remove_papers
    from ..search.questions.lookup import get_paper
    from ..text import fit_cells, strip_controls

    session: Session = ctx.obj
    if paper_ids == ["-"]:
        paper_ids = session.piped_ids("papers search QUERY --ids | papers remove - --yes")
    index = session.index()
    hits = list({h.id: h for h in (get_paper(index, given) for given in paper_ids)}.values())
    listed = [f"{h.id}  {strip_controls(h.record.label)}" for h in hits]
    if not yes:
        env = session.env
        if not env.stdin_is_terminal:
            raise UsageError("remove asks before removing and no one can answer here: add --yes")
        for line in listed:
            env.stderr.write(f"  {fit_cells(line, 76)}\n")  # (one line each at 80 columns)
        noun = "paper" if len(hits) == 1 else f"{len(hits)} papers"
        if not env.ask(f"Remove {'this' if len(hits) == 1 else 'these'} {noun}?"):
            env.say("nothing removed")
            raise typer.Exit(1)
    _records, copies = remove_papers(session.library(), [h.id for h in hits])
    for line in listed:
        session.out(f"removed {line}")
    for copy in copies:
        session.out(f"removed {copy}: no paper cites it any more")


@command(short_help="Merge two records of one paper; B's id stays an alias.")
def merge(
    ctx: typer.Context,
    keep: PaperArg,
    gone: Annotated[
        str,
        typer.Argument(
            metavar="B",
            help="The paper merged into the first (its record goes; its id and key stay aliases).",
            autocompletion=_ids_for_completion,
        ),
    ],
) -> None:
    """Merge the record of paper B into paper A's: the two are one paper.

    The merge rule of ingest applies: A's empty fields are filled from B, lists (links,
    categories, sources) and tag edits are united, and where the two disagree A's value
    stays and B's is kept as a conflict. B's record goes; its id and citation key become
    aliases of A, so show, tag, export and a draft citing B's key still find the paper.

    \b
    Example:
      papers merge iclr2026-rrnco iclr2026-vehicle-routing-real-world
    """
    from ..curation import merge_papers
    from ..search.questions.lookup import get_paper

    session: Session = ctx.obj
    index = session.index()
    a, b = get_paper(index, keep), get_paper(index, gone)
    before = a.record
    record = merge_papers(session.library(), a.id, b.id, session.taxonomy)
    filled = [n for n in FILLED if not getattr(before, n) and getattr(record, n)]
    conflicts = len(record.conflicts) - len(before.conflicts)
    session.out(f"merged {b.id} into {a.id}")
    if filled:
        session.out(f"filled {', '.join(filled)} from {b.id}")
    if conflicts:
        values = f"{conflicts} differing value{'s' * (conflicts != 1)}"
        session.out(f"kept {values} as conflicts: papers show {a.id} lists them")
    for alias in [b.id, *(k for k in (b.record.citekey,) if k and k != record.citekey)]:
        session.out(f"{alias} now names {a.id}")  # (one a line: ids are long)


FILLED = ("title", "authors", "short_name", "venue", "year", "abstract", "summary_zh")
