"""Shell completion: the scripts for bash, zsh and fish, and what they complete.

Typer writes the scripts and answers the shell (``_PAPERS_COMPLETE``); this module names
the shell (``--show-completion zsh`` prints the zsh script; without a name, the shell
running papers) and completes paper ids and tags cheaply: ids come from the index's list
of record files (no Whoosh, no YAML).
"""

from __future__ import annotations

from pathlib import Path

import typer


def _library(ctx: typer.Context):
    from .. import config
    from ..store.library import Library

    root = ctx.find_root().params.get("library")
    return Library(Path(root) if root else config.load()["library"].value)


def complete_ids(ctx: typer.Context, incomplete: str) -> list[str]:
    """Paper ids for shell completion, read from the index's stamp list."""
    import json

    library = _library(ctx)
    try:
        names = json.loads((library.index_dir / "stamps.json").read_text("utf-8"))
    except (OSError, ValueError):
        names = {entry.name: None for entry in library.record_files()}
    ids = sorted(name[: -len(".yaml")] for name in names)
    return [rid for rid in ids if rid.startswith(incomplete)][:500]


def complete_tags(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tags in the library and in the taxonomy."""
    from ..search.index.paper_index import PaperIndex
    from ..search.questions import listing as q
    from ..tags.taxonomy import load_taxonomy

    tags = set(load_taxonomy().tags)
    library = _library(ctx)
    if library.index_dir.exists():
        tags |= {t for t, _n in q.tag_counts(PaperIndex(library).open(refresh=False))}
    return sorted(t for t in tags if t.startswith(incomplete.lower()))


# --- --show-completion [SHELL], --install-completion [SHELL] -------------------------------


def remember_shell(ctx: typer.Context, _param, value: str | None) -> None:
    if value:
        ctx.meta["papers.completion_shell"] = value


def _shell(ctx: typer.Context) -> str:
    from typer._completion_shared import _get_shell_name

    shell = ctx.meta.get("papers.completion_shell") or _get_shell_name() or "bash"
    return "bash" if shell == "sh" else shell


def show(ctx: typer.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from typer._completion_shared import get_completion_script

    typer.echo(
        get_completion_script(
            prog_name="papers", complete_var="_PAPERS_COMPLETE", shell=_shell(ctx)
        )
    )
    raise typer.Exit()


def install(ctx: typer.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from typer._completion_shared import install as install_script

    shell, path = install_script(
        shell=_shell(ctx), prog_name="papers", complete_var="_PAPERS_COMPLETE"
    )
    typer.echo(f"{shell} completion installed in {path}; it takes effect in a new shell")
    raise typer.Exit()
