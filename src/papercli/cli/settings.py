"""``config``: the settings in force and where each came from."""

from typing import Annotated

import typer

from ..errors import UsageError
from .app import Session, command


@command("config", short_help="Show the effective settings and where each came from.", index=False)
def config_(
    ctx: typer.Context,
    key: Annotated[str | None, typer.Argument(help="A setting: show it, or set it.")] = None,
    value: Annotated[
        str | None, typer.Argument(help="Its new value, written to the config file.")
    ] = None,
    unset: Annotated[
        bool, typer.Option("--unset", help="Remove KEY from the config file.")
    ] = False,
    json: Annotated[
        bool, typer.Option("--json", help="Print the settings as one JSON object.")
    ] = False,
) -> None:
    """Show the effective settings and where each came from: default, file, environment
    or flag; show one (papers config limit), or set one in the config file (papers config
    limit 20; --unset removes it). Settings live in config.yaml in the user config folder
    (or $PAPERS_CONFIG); setting one keeps the file's other lines and comments.

    \b
    Keys:
      library        where the library lives ($PAPERS_LIBRARY, --library)
      export_format  papers export's default --format ($PAPERS_EXPORT_FORMAT)
      taxonomy       a taxonomy file replacing the bundled one ($PAPERS_TAXONOMY)
      limit          at most this many results from search, list ($PAPERS_LIMIT)
      color          auto, always or never ($PAPERS_COLOR, NO_COLOR, --no-color)
      passing        search lists passing mentions, last ($PAPERS_PASSING)
      openreview_api OpenReview's API, for enrich and add ($PAPERS_OPENREVIEW_API)
      arxiv_api      arXiv's API, for add ($PAPERS_ARXIV_API)
      crossref_api   Crossref's API, for add ($PAPERS_CROSSREF_API)
      contact_email  sent to Crossref with each request ($PAPERS_CONTACT_EMAIL)

    \b
    Examples:
      papers config
      papers config export_format biblatex
      papers config library ~/papers
      papers config --unset limit
    """
    from .. import config, render

    session: Session = ctx.obj
    if unset or value is not None:
        if key is None or (unset and value is not None) or json:
            raise UsageError("give KEY VALUE to set a setting, or --unset KEY")
        path, written = config.write_setting(key, None if unset else value)
        session.env.say(f"removed {key} from {path}" if unset else f"{key}: {written} ({path})")
        if not unset:
            _say_what_overrides(session, key)
        return
    unset = {
        "taxonomy": "(bundled)",
        "limit": f"{render.TERMINAL_LIMIT} on a terminal, all when piped",
        "contact_email": "(none)",
    }
    rows = [
        (key, str(s.value) if s.value is not None else unset[key], s)
        for key, s in session.settings.items()
    ]
    if key is not None:
        if key not in config.KEYS:
            raise config.unknown_setting(key)
        session.out(next(shown for k, shown, _s in rows if k == key))
        return
    path = config.config_path()
    if json:
        settings = {
            key: {
                "value": None if s.value is None else str(s.value),
                "origin": s.origin,
                "from": s.where or None,
            }
            for key, _shown, s in rows
        }
        render.print_json(session.env, {"file": str(path), "settings": settings})
        return
    where = f"config file: {path}" + ("" if path.exists() else " (not present)")
    render.print_settings(session.env, where, [(k, v, s.describe()) for k, v, s in rows])


def _say_what_overrides(session: Session, key: str) -> None:
    """After a setting is written: whether an environment variable or a flag is in force."""
    from .. import config

    setting = config.load(session.flags)[key]
    if setting.origin in ("environment", "flag"):
        by = setting.where or f"--{key.replace('_', '-')}"
        session.env.warn(f"{by} overrides the file: {key} is {setting.value}")
