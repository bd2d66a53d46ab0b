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
        typer.Option("--format", "-f", help=f"{FORMAT_NAMES} (default: see below)"),
    ] = None,
    cited_in: Annotated[
        list[Path] | None,
        typer.Option(
            "--cited-in",
            help="Export what a draft cites (.aux, .bcf, .tex, .md, .qmd, .Rmd; repeatable).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (atomically), not stdout.")
    ] = None,
    passing: PassingOpt = None,
) -> None:
    """Export papers as Markdown, BibTeX, CSL-JSON, JSON or YAML.

    Without a query, tag or id, exports the whole library, ordered by id. A query
    exports what papers search lists. bibtex is ASCII for classic bibtex; biblatex is
    UTF-8 for biber; json and yaml are whole records that papers ingest reads back.
    --output replaces FILE only once the export is whole, and keeps its permissions (a
    new file gets the usual ones, as with >).

    Without --format, the format is the one --output's name says (.bib: bibtex, or
    biblatex when that is the export_format setting; .json: json or csl-json, likewise;
    .md; .yaml), else the export_format setting; what a draft cites is BibTeX unless
    that setting was set.

    \b
    Examples:
      papers export --tag muon --format bibtex --output muon.bib
      papers export --venue ICLR --year 2025..2026 --format csl-json
      papers search muon --ids | papers export --format biblatex -
      papers export --format json --output backup.json
      papers export --cited-in paper.aux --format biblatex --output refs.bib

    --cited-in exports the papers a draft cites, each under the key the draft cites it
    by (its citation key, its id, or a merged paper's); \\nocite{*} cites them all. A
    key no paper has is named with the closest keys, the rest is written, and the exit
    code is 1.
    """
    from collections import Counter

    from .. import export as exporters
    from ..search.querying.syntax import quoted
    from ..search.questions import select as q
    from ..search.questions.select import RecordStream

    session: Session = ctx.obj
    setting = session.settings["export_format"]
    fmt = exporters.choose_format(
        fmt, setting.value, setting.origin != "default", output and str(output), bool(cited_in)
    )
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
    keys, unknown = None, []
    if cited_in:
        if words or ids or tag or venue or year:
            raise UsageError(
                "--cited-in chooses the papers itself: give no query, --id, --tag, --venue "
                "or --year with it"
            )
        chosen, keys, unknown = _cited(index, cited_in)
        for u in unknown:
            near = f"; closest: {', '.join(u.closest)}" if u.closest else ""
            session.env.say(f"{u.where}: no paper has the key {u.key!r}{near}")
        if not chosen:
            raise session.nothing(f"no paper of the library is cited in {_names(cited_in)}")
    else:
        chosen = q.select(index, text, filters, ids, session.resolve_tag, session.passing(passing))
    if not chosen:
        what = f" matches {quoted(' '.join(words))}" if words else " to export"
        raise session.nothing("no paper" + what, filters)
    notes = Counter()
    with session.env.progress(len(chosen), f"exporting {fmt}") as advance:
        pieces = exporters.chunks(fmt, RecordStream(index, chosen, keys), advance, notes)
        write(session.env, pieces, output)
    if output:
        session.env.say(f"wrote {len(chosen)} papers to {output}")
    for line in exporters.advice(notes, len(chosen)):
        session.env.say(line)
    if unknown:
        raise typer.Exit(1)


def _names(paths: list[Path]) -> str:
    return ", ".join(str(p) for p in paths)


def _cited(index, drafts: list[Path]):
    """The ids the drafts cite (every paper's for \\nocite{*}), the key each entry is
    written under (None: the paper's own), and the keys no paper has."""
    from whoosh import query

    from ..parsers.citations import cited_keys, kind_of
    from ..search.questions.cited import cited_papers

    citations = []
    for draft in drafts:
        kind = kind_of(draft.name)
        try:
            data = draft.read_bytes()
        except OSError as exc:
            raise UsageError(f"{draft}: cannot read the draft: {exc.strerror}") from None
        text = data.decode("utf-8", errors="replace")  # (keys are ASCII; the rest may not be)
        citations += [(c.key, f"{draft}:{c.line}") for c in cited_keys(text, kind)]
    found, unknown, every = cited_papers(index, citations)
    pairs = [(c.rid, c.key) for c in found]
    if every:
        named = {rid for rid, _key in pairs}
        pairs += [(rid, None) for rid in sorted(index.ids(query.Every())) if rid not in named]
    return [rid for rid, _k in pairs], [k for _rid, k in pairs], unknown


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
