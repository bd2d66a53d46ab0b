"""``config``: the settings in force and where each came from."""

from typing import Annotated

import typer

from .app import Session, command


@command("config", short_help="Show the effective settings and where each came from.", index=False)
def config_(
    ctx: typer.Context,
    json: Annotated[
        bool, typer.Option("--json", help="Print the settings as one JSON object.")
    ] = False,
) -> None:
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
    from .. import config, render

    session: Session = ctx.obj
    unset = {
        "taxonomy": "(bundled)",
        "limit": f"{render.TERMINAL_LIMIT} on a terminal, all when piped",
    }
    rows = [
        (key, str(s.value) if s.value is not None else unset[key], s)
        for key, s in session.settings.items()
    ]
    path = config.config_path()
    if json:
        settings = {
            key: {"value": None if s.value is None else str(s.value), "origin": s.origin,
                  "from": s.where or None}
            for key, _shown, s in rows
        }  # fmt: skip
        render.print_json(session.env, {"file": str(path), "settings": settings})
        return
    where = f"config file: {path}" + ("" if path.exists() else " (not present)")
    render.print_settings(session.env, where, [(k, v, s.describe()) for k, v, s in rows])
