"""The Typer application: the options every command takes, one ``Session`` per command,
and the one place where errors become a message and an exit code.

In: the command line. Out: a call to a plain function (``ingest``, ``query``, ``export``,
``tagging``, ``doctor``), whose result a ``render`` function prints.
"""

import functools
import inspect
import os
import sys
from functools import cached_property
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from .. import __version__
from ..engine import lean
from ..errors import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    NothingFound,
    PapersError,
    Terminated,
    UsageError,
    interruption,
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
--library and --no-color work before or after the command name.

\b
Exit codes: 0 success · 1 nothing found (or doctor found problems) ·
            2 bad usage or unusable input · 70 internal error (a bug) ·
            130 interrupted (Ctrl-C) · 143 terminated · 141 the reader left
"""
ADD_PAPERS = "papers ingest FILE… (or papers ingest --sample for two example documents)"
ORDER = (
    "ingest",
    "search",
    "similar",
    "list",
    "show",
    "tags",
    "tag",
    "retag",
    "export",
    "enrich",
    "index",
    "edit",
    "doctor",
    "config",
    "stats",
)
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


class Session:
    """What one command works with, made once when it starts and handed to it as
    ``ctx.obj``: the flags given, the settings in force, where output goes, the taxonomy
    and the library. Nothing here outlives the command."""

    def __init__(self) -> None:
        self.flags: dict[str, str | None] = {"library": None, "color": None}
        self._index = None  # the index, once a command has asked for it

    @cached_property
    def settings(self) -> dict:
        from .. import config

        return config.load(self.flags)

    @cached_property
    def env(self):
        from ..render import Environment

        return Environment.of_process(self.settings["color"].value)

    @cached_property
    def taxonomy(self):
        from ..tags.taxonomy import load_taxonomy

        return load_taxonomy(self.settings["taxonomy"].value)

    def resolve_tag(self, name: str) -> str | None:
        """The tag an alias names (联邦学习 → federated-learning): the taxonomy is read
        only when a query asks for a tag."""
        return self.taxonomy.resolve(name)

    def out(self, line: str) -> None:
        self.env.stdout.write(line + "\n")

    def piped_ids(self, example: str) -> list[str]:
        """The paper ids piped in where ``-`` stands for them (as ``--ids`` writes them:
        whitespace between). A terminal is not read: the command would wait for a typed
        list nobody knows it wants."""
        stdin = self.env.stdin
        if stdin is None or self.env.stdin_is_terminal:
            raise UsageError(f"'-' reads paper ids piped in, and none are: {example}")
        ids = stdin.read().split()
        if not ids:
            raise UsageError(f"no paper ids on standard input: {example}")
        return ids

    def library(self, create: bool = False):
        """The library in force; unless *create* (ingest), one that does not exist is an
        error that names the path: a mistyped --library must not look like an empty one."""
        from ..store.library import Library

        library = Library(self.settings["library"].value)
        if not create and not library.root.is_dir():
            what = "is not a folder" if library.root.exists() else "does not exist"
            raise UsageError(
                f"no library at {library.root}: it {what}; create one with {ADD_PAPERS}"
            )
        if not create and _other_folder(library):  # (not made a library by a search in it)
            raise UsageError(
                f"no library at {library.root}: the folder holds other files and no papers/; "
                "--library names a library's folder"
            )
        if create:  # (a file where the library or one of its parents should be)
            there = next(p for p in (library.root, *library.root.parents) if p.exists())
            if not there.is_dir():
                raise UsageError(f"cannot make a library at {library.root}: {there} is a file")
        env = self.env
        library.on_wait = lambda: env.say(
            f"waiting for another papers command to finish writing to {library.root} …"
        )
        recovered = library.recover()  # two stats unless a killed process left work behind
        if recovered:
            env.say(recovered)
        return library

    def index(self):
        """The library's index, up to date; skipped records are warned about."""
        from ..search.glossary import GlossaryFiles
        from ..search.index import PaperIndex

        glossary = GlossaryFiles(taxonomy=self.settings["taxonomy"].value)
        self._index = PaperIndex(self.library(), glossary).open(progress=self.env.progress)
        for notice in self._index.notices:
            self.env.warn(notice)
        repaired = self._index.repaired()
        if repaired and not self._index.notices and self._index.doc_count():
            self.env.say(repaired)
        for message in sorted(self._index.invalid.values()):
            self.env.warn(f"skipped invalid record {message}")
        return self._index

    def nothing(self, what: str, filters=None) -> NothingFound:
        """Nothing found: *what*, the filters in force, or, in a library with no papers,
        where it is and how to add some."""
        index = self._index
        if index is not None and not index.invalid and index.doc_count() == 0:
            root = index.library.root
            return NothingFound(
                f"the library at {root} has no papers yet; add some with {ADD_PAPERS}"
            )
        active = filters.describe() if filters else ""
        return NothingFound(what + (f" (filters: {active})" if active else ""))

    def filters(self, tags=None, any_tag: bool = False, venue=None, year: str | None = None):
        from ..search.query import Filters, resolve_tags
        from ..search.querylang import year_bounds

        tags = resolve_tags(tags or (), self.taxonomy if tags else None)
        years = year_bounds(year, "--year ") if year is not None else None
        return Filters(tags=tags, any_tag=any_tag, venue=venue, year=years)

    def limit(self, explicit: int | None, complete: bool) -> tuple[int | None, int | None]:
        """(rows to show, hits to ask for) for a listing.

        --limit wins; else the ``limit`` setting (not for --json/--ids, which are complete
        unless --limit is given); else, on a terminal, the first screenfuls. One more hit
        than shown is asked for, to know whether to say that there are more.
        """
        from ..render import TERMINAL_LIMIT

        if explicit:
            return explicit, explicit
        if complete:
            return None, None
        shown = self.settings["limit"].value or (TERMINAL_LIMIT if self.env.tables else None)
        return shown, (shown + 1 if shown else None)


def _other_folder(library) -> bool:
    """Whether the library's folder is some other folder: no ``papers/`` in it, and files
    other than what a command leaves in an empty library (``.index``, ``.lock``). A
    mistyped --library (the home folder, a project) would otherwise be searched as an
    empty library and left holding an index."""
    if library.papers_dir.is_dir():
        return False
    with os.scandir(library.root) as entries:
        return any(e.name not in (".index", ".lock", "sources") for e in entries)


# --- options every command takes ---------------------------------------------------------


def _flag(name: str, value_of):
    """A callback storing an option in the command's Session, wherever it was given."""

    def store(ctx: typer.Context, _param, value):
        if value and not ctx.resilient_parsing:
            session = ctx.find_root().ensure_object(Session)
            session.flags[name] = value_of(value)
        return value

    return store


def _shared_options() -> list[TyperOption]:
    """--library and --no-color, accepted after the command name as well as before."""
    return [
        TyperOption(
            param_decls=["--library", "-L"],
            type=Path,
            expose_value=False,
            callback=_flag("library", str),
            metavar="DIR",
            help="Library folder (default: $PAPERS_LIBRARY, the library setting, "
            "else the user data folder).",
        ),
        TyperOption(
            param_decls=["--no-color"],
            is_flag=True,
            expose_value=False,
            callback=_flag("color", lambda _v: "never"),
            help="No colour, even on a terminal (also NO_COLOR).",
        ),
    ]


def _completion_options() -> list[TyperOption]:
    """--install-completion [SHELL] and --show-completion [SHELL]: the shell is detected
    when none is named (Typer's own flags ignored a shell named after them)."""
    from . import completion

    return [
        TyperOption(
            param_decls=["--install-completion"],
            is_flag=True,
            expose_value=False,
            is_eager=True,
            callback=completion.install,
            metavar="[SHELL]",
            help="Install shell completion [bash|zsh|fish] (default: this shell).",
        ),
        TyperOption(
            param_decls=["--show-completion"],
            is_flag=True,
            expose_value=False,
            is_eager=True,
            callback=completion.show,
            metavar="[SHELL]",
            help="Print the completion script [bash|zsh|fish] (default: this shell).",
        ),
        TyperOption(
            param_decls=["--completion-shell"],
            hidden=True,
            expose_value=False,
            is_eager=True,
            callback=completion.remember_shell,
        ),
    ]


class PapersGroup(TyperGroup):
    """The ``papers`` group: shared options on every command, commands in a reading order,
    a shell named after a completion flag, and errors turned into exit codes."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.params += _completion_options()

    def list_commands(self, ctx) -> list[str]:
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is not None and not any(p.name == "library" for p in command.params):
            command.params += _shared_options()
        return command

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        # `--show-completion zsh`: the shell travels in a hidden option read by the flag
        for i, arg in enumerate(args[:-1]):
            if arg not in ("--show-completion", "--install-completion"):
                continue
            shell = args[i + 1]
            if shell in SHELLS:
                args = [*args[:i], f"--completion-shell={shell}", arg, *args[i + 2 :]]
                break
            # (tcsh: an error, not the detected shell's script in its place)
            if not shell.startswith("-") and shell not in self.commands:
                ctx.fail(
                    f"{arg} {shell}: papers completes {', '.join(SHELLS[:3])} and "
                    f"PowerShell ({', '.join(SHELLS[3:])})"
                )
        return super().parse_args(ctx, args)

    def _main_shell_completion(self, ctx_args, prog_name, complete_var=None) -> None:
        from typer.completion import completion_init

        completion_init()  # Typer's bash/zsh/fish formats (its own flags are not used)
        super()._main_shell_completion(ctx_args, prog_name, complete_var)

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            if (signal := interruption(None)) is not None:  # (a signal came: it decides)
                raise _exit_for_signal(signal) from None
            raise
        except Exception as exc:  # (click's own usage errors are handled before this)
            if type(exc).__module__.startswith("typer."):
                raise
            signal = interruption(exc)  # (an error of the clean-up a signal started)
            raise (_exit_for(exc) if signal is None else _exit_for_signal(signal)) from None
        except KeyboardInterrupt as exc:
            raise _exit_for_signal(exc) from None
        if (signal := interruption(None)) is not None:  # (swallowed on the way: still it came)
            raise _exit_for_signal(signal)
        return result


def _exit_for_signal(exc: KeyboardInterrupt) -> typer.Exit:
    """Ctrl-C or SIGTERM (``Terminated``): what was written is whole (see Transaction)."""
    if isinstance(exc, Terminated):
        return fail("terminated", EXIT_TERMINATED)
    if sys.stderr is not None and sys.stderr.isatty():
        sys.stderr.write("\r\x1b[K")  # over the ^C the terminal echoed
    return fail("interrupted", EXIT_INTERRUPTED)


def _exit_for(exc: Exception) -> typer.Exit:
    """The tool's errors (and OS errors) as one line on stderr and an exit code."""
    if isinstance(exc, PapersError):
        return fail(str(exc), exc.exit_code)
    if isinstance(exc, BrokenPipeError):  # `papers … | head`: the reader left; leave quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # (so that flushing at exit cannot fail)
        return typer.Exit(141)
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return fail(f"{exc.strerror or exc}{where}", 2)
    if os.environ.get("PAPERS_DEBUG"):  # a bug: the traceback on request
        raise exc
    return fail(
        f"internal error: {type(exc).__name__}: {exc} (PAPERS_DEBUG=1 shows the traceback)",
        EXIT_INTERNAL,
    )


def fail(message: str, code: int) -> typer.Exit:
    if sys.stderr is not None:
        sys.stderr.write(f"papers: {message}\n")
    return typer.Exit(code)


# --- the application ----------------------------------------------------------------------


app = typer.Typer(
    name="papers",
    cls=PapersGroup,
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def help_text(doc: str | None, rich: bool | None = None) -> str:
    """A docstring as command help: each paragraph on one line (the help formatter wraps
    it to the terminal), and ``\\b`` blocks (examples) kept line for line. Typer's Rich help
    keeps single line breaks, which wrapped paragraphs raggedly, and shows ``\\b`` as an
    empty line."""
    if rich is None:
        rich = os.environ.get("TYPER_USE_RICH", "1") not in ("0", "false", "False")
    out = []
    for i, paragraph in enumerate(inspect.cleandoc(doc or "").split("\n\n")):
        if not paragraph.startswith("\b\n"):
            out.append(" ".join(line.strip() for line in paragraph.splitlines()))
        elif not rich:
            out.append(paragraph)
        else:  # Typer dedents what follows the first paragraph by the indentation of its
            # lines after the first: a leading empty line keeps "Example:" in that count
            out.append(("\n" if i == 1 else "") + paragraph[2:])
    return "\n\n".join(out)


def command(name: str | None = None, *, short_help: str, index: bool = True, cls=None):
    """Register a command, its help made from its docstring (see ``help_text``). A command
    that may read the *index* imports Whoosh lean (``engine.lean``) when it starts: its
    ``--help`` does not import Whoosh at all, and library code never plants modules."""

    def register(func):
        run = func
        if index:

            @functools.wraps(func)
            def run(*args, **kwargs):
                lean.load()
                return func(*args, **kwargs)

        app.command(name, short_help=short_help, help=help_text(func.__doc__), cls=cls)(run)
        return func

    return register


class QueryCommand(TyperCommand):
    """A command whose words are a query: a ``-word`` among them excludes a word, as in web
    search (``papers search muon -adam``), rather than being read as options (Click read
    ``-adam`` as ``-a -d -a -m``: "No such option: -a"; ``-noise`` as ``-n oise``)."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        params = [*self.params, *filter(None, [self.get_help_option(ctx)])]
        return super().parse_args(ctx, _words_after_options(params, args))


def _words_after_options(params, args: list[str]) -> list[str]:
    """*args* with the options first and the words, in their order, after ``--``, when a
    word starts with a dash; as they are otherwise. Options are the command's own (and
    their values, -h among them) and anything starting with ``--``."""
    names = {o for p in params for o in (*p.opts, *p.secondary_opts)}
    valued = {
        o
        for p in params
        if p.param_type_name == "option" and not p.is_flag and not p.count
        for o in p.opts
    }
    options, words, rest = [], [], iter(args)
    for arg in rest:
        if arg == "--":
            words += rest
            break
        name = arg.split("=", 1)[0]
        if name in names or arg.startswith("--"):
            options.append(arg)
            if name in valued and "=" not in arg and (value := next(rest, None)) is not None:
                options.append(value)  # (its value, even one starting with a dash)
        elif arg[:2] in valued and arg[2:].isdigit():  # -n5
            options.append(arg)
        else:
            words.append(arg)
    if not any(w.startswith("-") and len(w) > 1 for w in words):
        return args
    return [*options, "--", *words]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"papers {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    ctx: typer.Context,
    library: Annotated[
        Path | None,
        typer.Option(
            "--library",
            "-L",
            metavar="DIR",
            show_default=False,
            help="Library folder (default: $PAPERS_LIBRARY, the library setting, "
            "else the user data folder).",
        ),
    ] = None,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="No colour, even on a terminal (also NO_COLOR).")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    session = ctx.ensure_object(Session)
    session.flags["library"] = str(library) if library else None
    session.flags["color"] = "never" if no_color else None


# Options shared by several commands ----------------------------------------------------------

JsonOpt = Annotated[bool, typer.Option("--json", help="Print a JSON array of the papers.")]
IdsOpt = Annotated[
    bool, typer.Option("--ids", help="Print only the ids, one a line (for papers export -).")
]
VenueOpt = Annotated[str | None, typer.Option("--venue", help="Only papers of this venue.")]
YearOpt = Annotated[
    str | None,
    typer.Option(
        "--year",
        metavar="YEAR",
        help="Only papers of this year, or of these: 2026, 2025..2026, 2025.., >=2025.",
        show_default=False,
    ),
]


def _tags_for_completion(ctx: typer.Context, incomplete: str) -> list[str]:
    from .completion import complete_tags

    lean.load()
    return complete_tags(ctx, incomplete)


def _ids_for_completion(ctx: typer.Context, incomplete: str) -> list[str]:
    from .completion import complete_ids

    return complete_ids(ctx, incomplete)


TagOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--tag",
        "-t",
        help="Only papers with this tag (repeat: all must match).",
        autocompletion=_tags_for_completion,
    ),
]
PaperArg = Annotated[
    str,
    typer.Argument(
        metavar="ID",
        help="An id, a unique prefix of one, a citation key, a link or the title.",
        autocompletion=_ids_for_completion,
    ),
]


def _register_commands() -> None:
    import importlib

    for name in ("library", "find", "tags", "export", "enrich", "settings"):
        importlib.import_module(f"{__package__}.{name}")


_register_commands()
