"""Looking after the library: ``ingest``, ``index``, ``edit``, ``doctor``."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import EXIT_PROBLEMS_LEFT, EXIT_REPAIRED, UsageError
from .app import PaperArg, Session, command


def sample_documents() -> list[Path]:
    """The ICLR 2026 digest page and abstract list bundled in the package (as in data/)."""
    folder = Path(__file__).parent.parent / "sample"
    return [folder / "iclr2026-optimization-theory-digest.txt", folder / "iclr2026-abstracts.txt"]


@command(short_help="Add documents (the format is recognised from content).")
def ingest(
    ctx: typer.Context,
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Digest pages, abstract lists, BibTeX files, papers exports.", show_default=False
        ),
    ] = None,
    sample: Annotated[
        bool,
        typer.Option("--sample", help="Ingest the two ICLR 2026 documents that ship with papers."),
    ] = False,
) -> None:
    """Add documents to the library; the format is recognised from the content.

    Digest pages, abstract lists, BibTeX files and papers' own JSON/YAML exports. Each
    entry becomes a record, is merged into the record of the same paper, or is reported
    with file and line. One unusable document stops the ingest and nothing changes.
    '-' reads a document piped in; its records name it stdin.

    \b
    Examples:
      papers ingest iclr2026-optimization.txt iclr2026-abstracts.txt
      papers ingest backup.json refs.bib
      xclip -o | papers ingest -   (a page copied from the browser)
      papers ingest --sample      (the two ICLR 2026 documents papers ships with)
    """
    import logging

    from ..ingest import ingest as run_ingest

    # bibtexparser logs each entry it cannot read; papers reports them with file and line
    # (set here, for this command's process: the parser itself changes no global state)
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    session: Session = ctx.obj
    paths = list(paths or [])
    if sample:
        paths += sample_documents()
    if not paths:
        raise UsageError("name the documents to ingest (or --sample for the bundled ones)")
    stdin = None
    if Path("-") in paths:
        stdin = _piped_document(session, paths)
    library = session.library(create=True)
    report = run_ingest(
        library, paths, session.taxonomy, progress=session.env.progress, stdin=stdin
    )
    for warning in report.warnings:
        session.env.warn(warning)
    session.out(f"ingested {report.summary()}")


def _piped_document(session: Session, paths: list[Path]):
    """Standard input, as bytes, for ``ingest -`` (a page copied from a browser and piped
    in); a terminal is not read, and it can be read once."""
    if paths.count(Path("-")) > 1:
        raise UsageError("'-' reads the document piped in, which can be read once")
    stream = session.env.stdin
    if stream is None or session.env.stdin_is_terminal:
        raise UsageError("'-' reads a document piped in, and none is: xclip -o | papers ingest -")
    return getattr(stream, "buffer", stream)


@command(short_help="Update the search index, or rebuild it.")
def index(
    ctx: typer.Context,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild from scratch.")] = False,
) -> None:
    """Bring the search index up to date with the records (one scan), or rebuild it. An
    interrupted rebuild leaves the index as it was.

    Every command already does this cheaply; run it after editing records by hand.

    \b
    Examples:
      papers index
      papers index --rebuild
    """
    from ..search.index.paper_index import PaperIndex

    session: Session = ctx.obj
    library = session.library()
    with library.lock():
        index = PaperIndex(library).open(refresh=False)
        report = index.sync(full=rebuild, progress=session.env.progress)
    for message in sorted(report.invalid.values()):
        session.env.warn(f"skipped invalid record {message}")
    session.out(
        f"index: {index.doc_count()} papers ({report.added} added, {report.updated} updated, "
        f"{report.removed} removed, {len(report.invalid)} invalid)"
    )


@command(short_help="Edit a record in $EDITOR; saved only if it validates.")
def edit(ctx: typer.Context, paper_id: PaperArg) -> None:
    """Edit one record in $VISUAL or $EDITOR; it is saved only if it still validates,
    and never over a change made meanwhile.

    \b
    Example:
      EDITOR=nano papers edit iclr2026-rrnco
    """
    from ..search.questions import lookup as q
    from ..store.editing import edit_record

    session: Session = ctx.obj
    library = session.library()
    rid = q.get_paper(session.index(), paper_id).id

    def again(problem: str) -> bool:
        if not sys.stdin.isatty():  # (no one to ask: the error says the problem, once)
            return False
        session.env.say(problem)
        return session.env.ask("Edit again?", default=True)

    outcome = edit_record(library, rid, again=again)
    session.out(f"{rid}: {outcome}")


@command(short_help="Check the library; --fix repairs what is safe.")
def doctor(
    ctx: typer.Context,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what can be repaired safely.")] = False,
) -> None:
    """Check the library: interrupted writes, invalid records, duplicate ids or keys,
    missing or uncited document copies, a stale or damaged index, what killed commands
    left behind, a directory where the lock file belongs. Each repair is named.

    An index found damaged, or left unfinished by a killed command, is rebuilt first (as
    any command would). --fix finishes or discards interrupted writes, removes stray
    temporary files, document copies no record cites and an empty .lock directory, and
    rebuilds the index; it never changes a record.

    Exit 0 when nothing was wrong, 1 when everything found was repaired, 4 when problems
    remain (as fsck).

    \b
    Examples:
      papers doctor
      papers doctor --fix
    """
    from ..store import doctor as checkup

    session: Session = ctx.obj
    library = session.library()
    repaired, noted = checkup.heal(library)  # what every command does first
    for line in noted:
        session.out(f"note: {line}")
    for line in repaired:
        session.out(f"repaired: {line}")
    problems = checkup.check(library)
    if fix and any(p.fixable for p in problems):
        for action in checkup.fix(library, problems):
            session.out(f"fixed: {action}")
            repaired.append(action)
        problems = checkup.check(library)
    for problem in problems:
        session.out(str(problem))
    if problems:
        raise typer.Exit(EXIT_PROBLEMS_LEFT)
    if repaired:
        session.out(f"{library.root}: repaired; no problems left")
        raise typer.Exit(EXIT_REPAIRED)
    session.out(f"{library.root}: no problems found")
