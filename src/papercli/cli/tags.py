"""Tags: ``tags`` (counts and aliases), ``tag`` (edits by hand), ``retag``."""

from typing import Annotated

import typer

from ..errors import UsageError
from .app import Session, _ids_for_completion, command


@command(short_help="Show every tag with its number of papers.")
def tags(
    ctx: typer.Context,
    aliases: Annotated[
        bool, typer.Option("--aliases", help="Show each tag's English and Chinese aliases.")
    ] = False,
    all_tags: Annotated[
        bool, typer.Option("--all", help="Include taxonomy tags no paper has yet.")
    ] = False,
    json: Annotated[
        bool, typer.Option("--json", help="Print a JSON array of tags and counts.")
    ] = False,
) -> None:
    """Show every tag with its number of papers, most used first.

    \b
    Examples:
      papers tags
      papers tags --aliases
      papers tags --all --json
    """
    from .. import render
    from ..search.questions import listing as q

    session: Session = ctx.obj
    taxonomy = session.taxonomy
    counts = q.tag_counts(session.index())
    if all_tags:
        used = {t for t, _n in counts}
        counts += [(t, 0) for t in taxonomy.tags if t not in used]
    rows = [(t, n, taxonomy.aliases(t)) for t, n in counts]
    if json:
        render.print_json(
            session.env,
            [{"tag": t, "count": n, **({"aliases": a} if aliases else {})} for t, n, a in rows],
        )
    elif rows:
        render.print_tag_counts(session.env, rows, aliases)
    if not rows:
        raise session.nothing("the library has no tags yet")


@command(short_help="Add or remove tags by hand.")
def tag(
    ctx: typer.Context,
    paper_ids: Annotated[
        list[str],
        typer.Argument(
            metavar="ID...",
            help="Papers to tag; '-' reads ids from stdin.",
            autocompletion=_ids_for_completion,
        ),
    ],
    add: Annotated[
        list[str] | None, typer.Option("--add", "-a", help="Tag to add (repeatable).")
    ] = None,
    remove: Annotated[
        list[str] | None, typer.Option("--remove", "-r", help="Tag to remove (repeatable).")
    ] = None,
) -> None:
    """Add or remove tags by hand. Your edits survive re-ingest and papers retag.

    A tag can be any alias in either language (--add 联邦学习 adds federated-learning)
    or a tag of your own (--add reading-list). A removed automatic tag stays removed.
    Adding a tag a paper has already changes nothing and is no error. Removing a tag a
    paper does not have is reported, and when no paper changed the exit code is 1.

    \b
    Example:
      papers tag iclr2026-muonbp iclr2026-qzo --add reading-list
      papers tag iclr2026-muonbp --remove llm
      papers search muon --ids | papers tag - --add reading-list
    """
    from ..tags.tagging import edit_tags, normalise_tag

    session: Session = ctx.obj
    if paper_ids == ["-"]:
        paper_ids = session.piped_ids("papers search muon --ids | papers tag - --add TAG")
    plus = next((p for p in paper_ids if p.startswith("+")), None)
    if plus:  # (as some tools add tags: papers tag ID +reading-list)
        raise UsageError(f"{plus!r} is not a paper id: add the tag with --add {plus[1:]}")
    if not add and not remove:
        raise UsageError("say what to do: --add TAG and/or --remove TAG")
    added = [normalise_tag(t, session.taxonomy) for t in add or []]
    removed = [normalise_tag(t, session.taxonomy) for t in remove or []]
    if set(added) & set(removed):
        raise UsageError(f"cannot both add and remove {sorted(set(added) & set(removed))[0]!r}")
    results = edit_tags(session.library(), paper_ids, added, removed)
    for record, changed, absent in results:
        for name in absent:
            session.env.warn(f"{record.id} has no tag {name!r} to remove")
        note = "" if changed else " (unchanged)"
        session.out(f"{record.id}: {', '.join(record.tags) or '(no tags)'}{note}")
    if any(absent for _r, _c, absent in results) and not any(c for _r, c, _a in results):
        raise typer.Exit(1)  # nothing to remove was found


@command(short_help="Recompute automatic tags; your own edits are kept.")
def retag(ctx: typer.Context) -> None:
    """Recompute automatic tags with the current taxonomy; your own edits are kept.

    Run it after changing the taxonomy: a taxonomy.yaml in the config folder
    (papers config shows where) replaces the bundled one.

    \b
    Example:
      papers retag
    """
    from ..tags.tagging import retag as run_retag

    session: Session = ctx.obj
    report = run_retag(session.library(), session.taxonomy, progress=session.env.progress)
    for message in report.skipped:
        session.env.warn(f"skipped invalid record {message}")
    session.out(f"retagged {report.papers} papers: {len(report.changed)} changed")
