"""``export``: a subset of the library as Markdown, BibTeX, CSL-JSON, JSON or YAML."""

from pathlib import Path
from typing import Annotated

import typer

from ..errors import UsageError
from .app import QueryCommand, Session, TagOpt, VenueOpt, YearOpt, command
from .find import PassingOpt

FORMAT_NAMES = "markdown|bibtex|biblatex|csl-json|json|yaml"


@command(short_help="Export as Markdown, BibTeX, CSL-JSON, JSON or YAML.", cls=QueryCommand)
def export(
    ctx: typer.Context,
    query: Annotated[
        list[str] | None,
        typer.Argument(
            help="Search query selecting papers; '-' reads ids from stdin.", show_default=False
        ),
    ] = None,
    tag: TagOpt = None,
    venue: VenueOpt = None,
    year: YearOpt = None,
    paper_id: Annotated[
        list[str] | None, typer.Option("--id", help="A paper id or citation key (repeatable).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", "-f", help=f"{FORMAT_NAMES} (default: the export_format setting)"),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (atomically), not stdout.")
    ] = None,
    passing: PassingOpt = None,
) -> None:
    """Export papers as Markdown, BibTeX, CSL-JSON, JSON or YAML.

    Without a query, tag or id, exports the whole library, ordered by id. A query
    exports what papers search lists. bibtex is
    ASCII for classic bibtex; biblatex is UTF-8 for biber; json and yaml are whole
    records that papers ingest reads back. --output replaces FILE only once the export
    is whole, and keeps its permissions (a new file gets the usual ones, as with >).

    \b
    Examples:
      papers export --tag muon --format bibtex --output muon.bib
      papers export --venue ICLR --year 2025..2026 --format csl-json
      papers search muon --ids | papers export --format biblatex -
      papers export --format json --output backup.json
    """
    from collections import Counter

    from .. import export as exporters
    from ..search.querying.syntax import quoted
    from ..search.questions import select as q
    from ..search.questions.select import RecordStream

    session: Session = ctx.obj
    fmt = fmt or session.settings["export_format"].value
    if fmt not in exporters.FORMATS:
        raise UsageError(f"unknown format {fmt!r} (choose {FORMAT_NAMES})")
    # (renaming over a folder would fail at the end, naming the temporary file)
    if output is not None and output.is_dir():
        raise UsageError(f"{output} is a folder: --output takes a file name")
    words, ids = list(query or []), list(paper_id or [])
    if words == ["-"]:
        words, ids = [], ids + session.piped_ids("papers search muon --ids | papers export -")
    filters = session.filters(tag, venue=venue, year=year)
    index = session.index()
    text = " ".join(words) or None
    chosen = q.select(index, text, filters, ids, session.resolve_tag, session.passing(passing))
    if not chosen:
        what = f" matches {quoted(' '.join(words))}" if words else " to export"
        raise session.nothing("no paper" + what, filters)
    notes = Counter()
    with session.env.progress(len(chosen), f"exporting {fmt}") as advance:
        pieces = exporters.chunks(fmt, RecordStream(index, chosen), advance, notes)
        write(session.env, pieces, output)
    if output:
        session.env.say(f"wrote {len(chosen)} papers to {output}")
    for line in exporters.advice(notes, len(chosen)):
        session.env.say(line)


def write(env, pieces, output: Path | None) -> None:
    """The export to stdout, or to *output* replaced only once the export is whole."""
    from ..store.files import atomic_writer

    if output is None:
        for piece in pieces:
            env.stdout.write(piece)
        return
    with atomic_writer(output) as handle:
        for piece in pieces:
            handle.write(piece.encode("utf-8"))
