"""The ``papers`` command line: thin Typer commands over plain functions.

Each command parses its options, calls one function from ``ingest``, ``query`` or
``export`` and prints the result with ``render``. Errors of the tool's own types become
one line on stderr and an exit code (0 ok, 1 nothing found, 2 bad usage or input).
"""

import functools
import os
import signal
import sys
from pathlib import Path
from typing import Annotated

if "TYPER_USE_RICH" not in os.environ and not sys.stdout.isatty():
    # Piped or captured: plain help and errors, and half of --help's start-up cost.
    os.environ["TYPER_USE_RICH"] = "0"

import typer  # (after choosing how Typer formats help)

from . import __version__
from .errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NOTHING_FOUND,
    NothingFound,
    PapersError,
    UsageError,
)

HELP = """A local, searchable index of the paper digests you collect (English and Chinese).

\b
Start with:
  papers ingest digest-page.txt abstract-list.txt
  papers search muon
  papers list --tag federated-learning
  papers show ID
  papers export --tag muon --format bibtex --output muon.bib

\b
Exit codes: 0 success · 1 nothing found (or doctor found problems) ·
            2 bad usage or unusable input · 70 internal error (a bug)
"""

app = typer.Typer(
    name="papers",
    help=HELP,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


class State:
    flags: dict | None = None  # settings given on the command line
    settings: dict | None = None
    env = None  # the output Environment, made once per command


STATE = State()


def _completion_library(ctx: typer.Context):
    from .library import Library

    root = ctx.find_root().params.get("library")
    if root:
        return Library(Path(root))
    return Library(_settings()["library"].value)


def complete_ids(ctx: typer.Context, incomplete: str) -> list[str]:
    """Paper ids for shell completion, read from the index's stamp list: no Whoosh, no YAML."""
    import json

    library = _completion_library(ctx)
    try:
        names = json.loads((library.index_dir / "stamps.json").read_text("utf-8"))
    except (OSError, ValueError):
        names = {entry.name: None for entry in library.record_files()}
    ids = sorted(name[: -len(".yaml")] for name in names)
    return [rid for rid in ids if rid.startswith(incomplete)][:500]


def complete_tags(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tags in the library and in the taxonomy, for shell completion."""
    from . import query as q
    from .index import PaperIndex
    from .taxonomy import load_taxonomy

    tags = set(load_taxonomy().tags)
    library = _completion_library(ctx)
    if library.index_dir.exists():
        tags |= {t for t, _n in q.tag_counts(PaperIndex(library).open(refresh=False))}
    return sorted(t for t in tags if t.startswith(incomplete.lower()))


LibraryOpt = Annotated[
    Path | None,
    typer.Option(
        "--library",
        "-L",
        help="Library folder (default: $PAPERS_LIBRARY, else the user data folder).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print a JSON array of records.")]
IdsOpt = Annotated[
    bool, typer.Option("--ids", help="Print only the ids, one a line (for papers export -).")
]
TagOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--tag",
        "-t",
        help="Only papers with this tag (repeat: all must match).",
        autocompletion=complete_tags,
    ),
]
VenueOpt = Annotated[str | None, typer.Option("--venue", help="Only papers of this venue.")]
YearOpt = Annotated[int | None, typer.Option("--year", help="Only papers of this year.")]


def sample_documents() -> list[Path]:
    """The ICLR 2026 digest page and abstract list bundled in the package (as in data/)."""
    folder = Path(__file__).with_name("sample")
    return [folder / "iclr2026-optimization-theory-digest.txt", folder / "iclr2026-abstracts.txt"]


def _interrupted(signum, frame) -> None:
    """The first Ctrl-C interrupts the command; later ones are ignored while it cleans up
    (cancelling the indexing processes, discarding an uncommitted write)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def main() -> None:
    """The ``papers`` program. Process-wide settings are made here, never on import."""
    signal.signal(signal.SIGINT, _interrupted)
    app(prog_name="papers")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"papers {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    library: LibraryOpt = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="No colour, even on a terminal (also NO_COLOR).")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    STATE.flags = {"library": str(library) if library else None}
    STATE.flags["color"] = "never" if no_color else None
    STATE.settings = None
    STATE.env = None


def _settings() -> dict:
    """The effective settings (loaded once per command; a bad config file is an error)."""
    if STATE.settings is None:
        from . import config, taxonomy

        STATE.settings = config.load(STATE.flags)
        taxonomy.configure(STATE.settings["taxonomy"].value)
    return STATE.settings


def _env():
    """Where output goes and how it looks (see ``render.environment``)."""
    if STATE.env is None:
        from .render.environment import Environment

        STATE.env = Environment.of_process(_settings()["color"].value)
    return STATE.env


def _out(line: str) -> None:
    _env().stdout.write(line + "\n")


def fail(message: str, code: int) -> typer.Exit:
    if sys.stderr is not None:
        sys.stderr.write(f"papers: {message}\n")
    return typer.Exit(code)


def handle_errors(func):
    """Turn the tool's errors (and OS errors) into one line on stderr and an exit code."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except PapersError as exc:
            raise fail(str(exc), exc.exit_code) from None
        except BrokenPipeError:  # `papers … | head`: the reader left; leave quietly
            sys.stderr.close()
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(141) from None
        except OSError as exc:
            where = f": {exc.filename}" if exc.filename else ""
            raise fail(f"{exc.strerror or exc}{where}", 2) from None
        except KeyboardInterrupt:  # Ctrl-C: what was written is whole (see Transaction)
            if sys.stderr is not None and sys.stderr.isatty():
                sys.stderr.write("\r\x1b[K")  # over the ^C the terminal echoed
            raise fail("interrupted", EXIT_INTERRUPTED) from None
        except (typer.Exit, typer.Abort):
            raise
        except Exception as exc:  # a bug: say so in one line, the traceback on request
            if os.environ.get("PAPERS_DEBUG"):
                raise
            raise fail(
                f"internal error: {type(exc).__name__}: {exc} (PAPERS_DEBUG=1 shows the traceback)",
                EXIT_INTERNAL,
            ) from None

    return wrapper


ADD_PAPERS = "papers ingest FILE… (or papers ingest --sample for two example documents)"


def _library(create: bool = False):
    """The library in force; unless *create* (ingest), one that does not exist is an
    error that names the path: a mistyped --library must not look like an empty one."""
    from .library import Library

    library = Library(_settings()["library"].value)
    if not create and not library.root.is_dir():
        what = "is not a folder" if library.root.exists() else "does not exist"
        raise UsageError(f"no library at {library.root}: it {what}; create one with {ADD_PAPERS}")
    env = _env()
    library.on_wait = lambda: env.say(
        f"waiting for another papers command to finish writing to {library.root} …"
    )
    recovered = library.recover()  # one stat unless a killed process left work behind
    if recovered:
        env.say(recovered)
    return library


def _index():
    from .index import PaperIndex

    library = _library()
    index = PaperIndex(library).open(progress=_env().progress)
    for message in sorted(index.invalid.values()):
        _env().warn(f"skipped invalid record {message}")
    if not index.invalid and index.doc_count() == 0:
        raise NothingFound(
            f"the library at {library.root} has no papers yet; add some with {ADD_PAPERS}"
        )
    return index


def _filters(tag, any_tag=False, venue=None, year=None):
    from .query import Filters, resolve_tags
    from .taxonomy import load_taxonomy

    tags = resolve_tags(tag or (), load_taxonomy() if tag else None)
    return Filters(tags=tags, any_tag=any_tag, venue=venue, year=year)


def _limit(explicit: int | None, complete: bool) -> tuple[int | None, int | None]:
    """(rows to show, hits to ask for) for a listing.

    --limit wins; else the ``limit`` setting (not for --json/--ids, which are complete
    unless --limit is given); else, on a terminal, the first screenfuls. One more hit than
    shown is asked for, to know whether to say that there are more.
    """
    from .render import TERMINAL_LIMIT

    if explicit:
        return explicit, explicit
    configured = _settings()["limit"].value
    if complete:
        return None, None
    shown = configured or (TERMINAL_LIMIT if _env().tables else None)
    return shown, (shown + 1 if shown else None)


def _print(hits, shown: int | None, scores: bool, json: bool, ids: bool) -> None:
    from . import render

    more = shown is not None and len(hits) > shown
    del hits[shown if more else len(hits) :]
    if json:
        render.print_json(_env(), render.hits_json(hits, scores=scores))
    elif ids:
        render.print_ids(_env(), hits)
    elif hits:
        note = f"first {shown} shown; --limit N shows more" if more else None
        render.print_hits(_env(), hits, scores=scores, footer=note)


def _nothing(what: str, filters=None) -> typer.Exit:
    active = filters.describe() if filters else ""
    return fail(f"{what}" + (f" (filters: {active})" if active else ""), EXIT_NOTHING_FOUND)


@app.command(short_help="Add documents (the format is recognised from content).")
@handle_errors
def ingest(
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

      Digest pages, abstract lists, papers' own JSON/YAML exports. Each entry becomes a
      record, is merged into the record of the same paper, or is reported with file and
      line. One unusable document stops the ingest and nothing changes.

      \b
      Examples:
        papers ingest iclr2026-optimization.txt iclr2026-abstracts.txt
        papers ingest backup.json refs.bib
    papers ingest --sample         the two ICLR 2026 documents papers ships with
    """
    from .ingest import ingest as run_ingest
    from .taxonomy import load_taxonomy

    paths = list(paths or [])
    if sample:
        paths += sample_documents()
    if not paths:
        raise UsageError("name the documents to ingest (or --sample for the bundled ones)")
    library = _library(create=True)
    report = run_ingest(library, paths, load_taxonomy(), progress=_env().progress)
    for warning in report.warnings:
        _env().warn(warning)
    _out(f"ingested {report.summary()}")


@app.command(short_help="Search papers, best first, showing why each matched.")
@handle_errors
def search(
    query: Annotated[
        list[str], typer.Argument(help="What to look for (see above).", show_default=False)
    ],
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", min=1, help="Show the best N.")
    ] = None,
    tag: TagOpt = None,
    venue: VenueOpt = None,
    year: YearOpt = None,
    json: JsonOpt = False,
    ids: IdsOpt = False,
) -> None:
    """Search titles, short names, tags, abstracts and Chinese summaries, best first.

    Each result shows why it matched: a passage with the matched words marked.

    \b
    Query language:
      muon adam               both words (AND is the default)
      muon OR adam            either; NOT excludes; ( ) groups
      "vehicle routing"       a phrase; Chinese too: "联邦学习框架"
      optim*  federatd~       a prefix; a word one typo away
      title:muon  name:QZO    a field: title name tag venue year category
      tag:联邦学习            abstract summary; a tag by any alias
      year:2025..2026         a year or a range (year:>=2025)

    Chinese is matched as written, also inside longer text or glued to English
    (联邦学习, GRPO风格); English words match their other forms (optimizer, optimizers).

    \b
    Examples:
      papers search muon
      papers search "federated learning" year:2026
      papers search 量化 --json
      papers search muon --ids | papers export --format bibtex -
    """
    from . import query as q
    from . import render

    filters = _filters(tag, venue=venue, year=year)
    index = _index()
    text = " ".join(query)
    shown, cap = _limit(limit, json or ids)
    hits = q.search(index, text, cap, filters, snippet_cells=render.snippet_width(_env()))
    _print(hits, shown, scores=True, json=json, ids=ids)
    if not hits:
        better = q.suggest(index, text)
        hint = f". Did you mean: {better}?" if better else ""
        raise _nothing(f"no paper matches {text!r}{hint}", filters)


@app.command(short_help="List the papers closest to one paper.")
@handle_errors
def similar(
    paper_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="A paper id (or a unique prefix).", autocompletion=complete_ids
        ),
    ],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Show the closest N.")] = 10,
    json: JsonOpt = False,
) -> None:
    """List the papers closest to one paper: its key terms in English and Chinese, and its tags.

    \b
    Example:
      papers similar iclr2026-muonbp
    """
    from . import query as q

    _paper, hits = q.similar(_index(), paper_id, limit)
    _print(hits, limit, scores=True, json=json, ids=False)
    if not hits:
        raise _nothing(f"no paper shares key terms with {_paper.id}")


@app.command("list", short_help="List papers, filtered by tag, venue or year.")
@handle_errors
def list_(
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
    """List papers by title, optionally filtered by tag (in either language), venue, year.

    \b
    Examples:
      papers list --tag federated-learning
      papers list --tag 联邦学习 --year 2026
      papers list --tag muon --tag adam --any --json
    """
    from . import query as q

    filters = _filters(tag, any_tag, venue, year)
    shown, cap = _limit(limit, json or ids)
    hits = q.list_papers(_index(), filters, cap)
    _print(hits, shown, scores=False, json=json, ids=ids)
    if not hits:
        raise _nothing("no paper to list", filters)


@app.command(short_help="Show every tag with its number of papers.")
@handle_errors
def tags(
    aliases: Annotated[
        bool, typer.Option("--aliases", help="Show each tag's English and Chinese aliases.")
    ] = False,
    all_tags: Annotated[
        bool, typer.Option("--all", help="Include taxonomy tags no paper has yet.")
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Show every tag with its number of papers, most used first.

    \b
    Examples:
      papers tags
      papers tags --aliases
      papers tags --all --json
    """
    from . import query as q
    from . import render
    from .taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    counts = q.tag_counts(_index())
    if all_tags:
        used = {t for t, _n in counts}
        counts += [(t, 0) for t in taxonomy.tags if t not in used]
    rows = [(t, n, taxonomy.aliases(t)) for t, n in counts]
    if json:
        render.print_json(
            _env(),
            [{"tag": t, "count": n, **({"aliases": a} if aliases else {})} for t, n, a in rows],
        )
    elif rows:
        render.print_tag_counts(_env(), rows, aliases)
    if not rows:
        raise _nothing("the library has no tags yet")


@app.command(short_help="Add or remove tags by hand.")
@handle_errors
def tag(
    paper_ids: Annotated[
        list[str],
        typer.Argument(metavar="ID...", help="Papers to tag.", autocompletion=complete_ids),
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

    \b
    Example:
      papers tag iclr2026-muonbp iclr2026-ef21-muon --add reading-list --remove llm
    """
    from .tagging import edit_tags, normalise_tag
    from .taxonomy import load_taxonomy

    if not add and not remove:
        raise UsageError("say what to do: --add TAG and/or --remove TAG")
    taxonomy = load_taxonomy()
    added = [normalise_tag(t, taxonomy) for t in add or []]
    removed = [normalise_tag(t, taxonomy) for t in remove or []]
    if set(added) & set(removed):
        raise UsageError(f"cannot both add and remove {sorted(set(added) & set(removed))[0]!r}")
    for record, changed in edit_tags(_library(), paper_ids, added, removed):
        note = "" if changed else " (unchanged)"
        _out(f"{record.id}: {', '.join(record.tags) or '(no tags)'}{note}")


@app.command(short_help="Recompute automatic tags; your own edits are kept.")
@handle_errors
def retag() -> None:
    """Recompute automatic tags with the current taxonomy; your own edits are kept.

    Run it after changing the taxonomy: a taxonomy.yaml in the config folder
    (papers config shows where) replaces the bundled one.

    \b
    Example:
      papers retag
    """
    from .tagging import retag as run_retag
    from .taxonomy import load_taxonomy

    report = run_retag(_library(), load_taxonomy(), progress=_env().progress)
    for message in report.skipped:
        _env().warn(f"skipped invalid record {message}")
    _out(f"retagged {report.papers} papers: {len(report.changed)} changed")


@app.command(short_help="Show one paper and where each field came from.")
@handle_errors
def show(
    paper_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="A paper id (or a unique prefix).", autocompletion=complete_ids
        ),
    ],
    json: JsonOpt = False,
) -> None:
    """Show one paper: every field, where each came from, and where sources disagree.

    \b
    Examples:
      papers show iclr2026-rrnco
      papers show iclr2026-rrn --json
    """
    from . import query as q
    from . import render

    hit = q.get_paper(_index(), paper_id)
    if json:
        render.print_json(_env(), hit.data)
    else:
        render.print_record(_env(), hit.record)


FORMAT_NAMES = "markdown|bibtex|biblatex|csl-json|json|yaml"


@app.command(short_help="Export as Markdown, BibTeX, CSL-JSON, JSON or YAML.")
@handle_errors
def export(
    query: Annotated[
        list[str] | None,
        typer.Argument(
            help="Search query selecting papers; '-' reads ids from stdin.", show_default=False
        ),
    ] = None,
    tag: TagOpt = None,
    paper_id: Annotated[
        list[str] | None, typer.Option("--id", help="A paper id (repeatable).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", "-f", help=f"{FORMAT_NAMES} (default: the export_format setting)"),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (atomically), not stdout.")
    ] = None,
) -> None:
    """Export papers as Markdown, BibTeX, CSL-JSON, JSON or YAML.

    Without a query, tag or id, exports the whole library, ordered by id. bibtex is
    ASCII for classic bibtex; biblatex is UTF-8 for biber; json and yaml are whole
    records that papers ingest reads back.

    \b
    Examples:
      papers export --tag muon --format bibtex --output muon.bib
      papers search muon --ids | papers export --format biblatex -
      papers export --format json --output backup.json
    """
    from . import export as exporters
    from . import query as q
    from .library import atomic_writer

    fmt = fmt or _settings()["export_format"].value
    if fmt not in exporters.FORMATS:
        raise UsageError(f"unknown format {fmt!r} (choose {FORMAT_NAMES})")
    words = list(query or [])
    ids = list(paper_id or [])
    if words == ["-"]:
        words = []
        piped = sys.stdin.read().split()
        if not piped:
            raise UsageError("no paper ids on standard input (export - reads them from there)")
        ids += piped
    filters = _filters(tag)
    index = _index()
    chosen = q.select(index, " ".join(words) or None, filters, ids)
    if not chosen:
        raise NothingFound(
            "no paper to export" + (f" (filters: {filters.describe()})" if filters.tags else "")
        )
    from .index import RecordStream

    records = RecordStream(index, chosen)
    env = _env()
    with env.progress(len(chosen), f"exporting {fmt}") as advance:
        pieces = exporters.chunks(fmt, records, advance)
        if output:
            with atomic_writer(output) as handle:  # the old file stays until this one is whole
                for piece in pieces:
                    handle.write(piece.encode("utf-8"))
        else:
            for piece in pieces:
                env.stdout.write(piece)
    if output:
        env.say(f"wrote {len(chosen)} papers to {output}")


@app.command(short_help="Update the search index, or rebuild it.")
@handle_errors
def index(
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild from scratch.")] = False,
) -> None:
    """Bring the search index up to date with the records (one scan), or rebuild it.

    Every command already does this cheaply; run it after editing records by hand.

    \b
    Examples:
      papers index
      papers index --rebuild
    """
    from .index import PaperIndex

    library = _library()
    with library.lock():
        index = PaperIndex(library).open(refresh=False)
        report = index.sync(full=rebuild, progress=_env().progress)
    for message in sorted(report.invalid.values()):
        _env().warn(f"skipped invalid record {message}")
    _out(
        f"index: {index.doc_count()} papers ({report.added} added, {report.updated} updated, "
        f"{report.removed} removed, {len(report.invalid)} invalid)"
    )


@app.command(short_help="Edit a record in $EDITOR; saved only if it validates.")
@handle_errors
def edit(
    paper_id: Annotated[
        str,
        typer.Argument(
            metavar="ID", help="A paper id (or a unique prefix).", autocompletion=complete_ids
        ),
    ],
) -> None:
    """Edit one record in $VISUAL or $EDITOR; it is saved only if it still validates.

    \b
    Example:
      EDITOR=nano papers edit iclr2026-rrnco
    """
    from . import query as q
    from .editing import edit_record

    library = _library()
    rid = q.get_paper(_index(), paper_id).id

    def again(problem: str) -> bool:
        _env().say(problem)
        return sys.stdin.isatty() and typer.confirm("Edit again?", default=True)

    outcome = edit_record(library, rid, again=again)
    _out(f"{rid}: {outcome}")


@app.command(short_help="Check the library; --fix repairs what is safe.")
@handle_errors
def doctor(
    fix: Annotated[bool, typer.Option("--fix", help="Repair what can be repaired safely.")] = False,
) -> None:
    """Check the library: interrupted writes, invalid records, duplicate ids or keys,
    missing source copies, a stale index. Exit 0 when healthy, 1 when problems remain.

    --fix finishes or discards interrupted writes, removes stray temporary files and
    rebuilds the index; it never changes a record.

    \b
    Examples:
      papers doctor
      papers doctor --fix
    """
    from . import doctor as checkup

    library = _library()
    problems = checkup.check(library)
    if fix and any(p.fixable for p in problems):
        for action in checkup.fix(library, problems):
            _out(f"fixed: {action}")
        problems = checkup.check(library)
    for problem in problems:
        _out(str(problem))
    if problems:
        raise typer.Exit(EXIT_NOTHING_FOUND)
    _out(f"{library.root}: no problems found")


@app.command("config", short_help="Show the effective settings and where each came from.")
@handle_errors
def config_(json: JsonOpt = False) -> None:
    """Show the effective settings and where each came from: default, file, environment
    or flag. Settings live in config.yaml in the user config folder (or $PAPERS_CONFIG).

    \b
    Keys:
      library        where the library lives ($PAPERS_LIBRARY, --library)
      export_format  papers export's default --format ($PAPERS_EXPORT_FORMAT)
      taxonomy       a taxonomy file replacing the bundled one ($PAPERS_TAXONOMY)
      limit          at most this many results from search, list ($PAPERS_LIMIT)
      color          auto, always or never ($PAPERS_COLOR, NO_COLOR, --no-color)

    \b
    Example:
      papers config
    """
    from . import config, render
    from .render import TERMINAL_LIMIT

    settings = _settings()
    shown = {
        "taxonomy": "(bundled)",
        "limit": f"{TERMINAL_LIMIT} on a terminal, all when piped",
    }
    rows = [(k, str(s.value) if s.value is not None else shown[k], s) for k, s in settings.items()]
    path = config.config_path()
    if json:
        render.print_json(
            _env(),
            {
                "file": str(path),
                "settings": {
                    k: {"value": None if s.value is None else str(s.value), "origin": s.origin,
                        "from": s.where or None}
                    for k, _v, s in rows
                },
            },
        )  # fmt: skip
        return
    where = f"config file: {path}" + ("" if path.exists() else " (not present)")
    render.print_settings(_env(), where, [(k, v, s.describe()) for k, v, s in rows])


@app.command(short_help="Papers per venue, year, category, source, language and tag.")
@handle_errors
def stats(json: JsonOpt = False) -> None:
    """An overview of the library: papers per venue, year, category, source document and
    tag, titled against untitled, and which languages their texts are in.

    \b
    Examples:
      papers stats
      papers stats --json
    """
    from . import query as q
    from . import render

    overview = q.stats(_index())
    if json:
        render.print_json(_env(), {section: dict(rows) for section, rows in overview.items()})
    else:
        render.print_stats(_env(), overview)
