"""The Typer application: the options every command takes, how commands are registered
and parsed, and the group that hands every error to ``exits``.

In: the command line. Out: a call to a plain function (``ingest``, ``query``, ``export``,
``tagging``, ``doctor``), whose result a ``render`` function prints.
"""

import functools
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from .. import __version__
from ..engine import lean
from ..errors import (
    interruption,
)
from .exits import exit_for, exit_for_signal
from .helptext import help_text
from .session import Session

HELP = """A local, searchable index of the paper digests you collect (English and Chinese).

\b
Start with:
  papers ingest digest-page.txt abstract-list.txt
  papers add 2501.01234 "Adam: A Method for Stochastic Optimization"
  papers search muon
  papers list --tag federated-learning
  papers show ID
  papers export --tag muon --format bibtex --output muon.bib

\b
--library and --no-color work before or after the command name.

\b
Exit codes: 0 success · 1 nothing found (doctor: repaired) ·
            2 bad usage or unusable input · 4 doctor: problems remain ·
            70 internal error (a bug) · 130 interrupted (Ctrl-C) · 143 terminated ·
            141 the reader left
"""
ORDER = (
    "ingest",
    "add",
    "search",
    "browse",
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
    "remove",
    "merge",
    "doctor",
    "config",
    "stats",
)
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


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
            help="Library folder (default: see papers config).",
        ),
        TyperOption(
            param_decls=["--no-color"],
            is_flag=True,
            expose_value=False,
            callback=_flag("color", lambda _v: "never"),
            help="No colour, even on a terminal (or NO_COLOR).",
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
                raise exit_for_signal(signal) from None
            raise
        except Exception as exc:  # (click's own usage errors are handled before this)
            if type(exc).__module__.startswith("typer."):
                raise
            signal = interruption(exc)  # (an error of the clean-up a signal started)
            raise (exit_for(exc) if signal is None else exit_for_signal(signal)) from None
        except KeyboardInterrupt as exc:
            raise exit_for_signal(exc) from None
        if (signal := interruption(None)) is not None:  # (swallowed on the way: still it came)
            raise exit_for_signal(signal)
        return result


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
IdsOpt = Annotated[bool, typer.Option("--ids", help="Print only the ids (for papers export -).")]
VenueOpt = Annotated[str | None, typer.Option("--venue", help="Only papers of this venue.")]
YearOpt = Annotated[
    str | None,
    typer.Option(
        "--year",
        metavar="YEAR",
        help="Only these years: 2026, 2025..2026, >=2025.",
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
        help="Only papers with all these tags (repeat it).",
        autocompletion=_tags_for_completion,
    ),
]
PaperArg = Annotated[
    str,
    typer.Argument(
        metavar="ID",
        help="An id, a short name, a unique start or end of an id, a citation key, a link "
        "or the title.",
        autocompletion=_ids_for_completion,
    ),
]


def _register_commands() -> None:
    import importlib

    for name in (
        "library",
        "add",
        "curate",
        "find",
        "browse",
        "tags",
        "export",
        "enrich",
        "settings",
    ):
        importlib.import_module(f"{__package__}.{name}")


_register_commands()
