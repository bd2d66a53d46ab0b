"""Settings, and where each one came from: default < config file < environment < flag.

The config file is ``config.yaml`` in the platform's user config folder
(``~/.config/papers/config.yaml`` on Linux; ``$PAPERS_CONFIG`` names another file):

    library: ~/papers              # where the library lives
    export_format: biblatex        # papers export's default --format
    taxonomy: ~/papers/topics.yaml # replaces the bundled taxonomy
    limit: 50                      # at most this many results (search, list, similar)
    color: auto                    # auto (on a terminal), always, never
    passing: true                  # list the papers naming a concept only in passing
    openreview_api: https://api2.openreview.net   # where papers enrich and add ask (API v2)
    arxiv_api: https://export.arxiv.org/api       # where papers add and enrich ask arXiv
    crossref_api: https://api.crossref.org        # where papers add and enrich ask Crossref
    contact_email: you@example.org                # sent to Crossref (its "polite pool")

``papers config`` prints the effective settings and their origins. A file that does not
parse or validate is an error naming the key, never silently ignored.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import UsageError

EXPORT_FORMATS = ("markdown", "bibtex", "biblatex", "csl-json", "json", "yaml")
COLORS = ("auto", "always", "never")
KEYS = (
    "library",
    "export_format",
    "taxonomy",
    "limit",
    "color",
    "passing",
    "openreview_api",
    "arxiv_api",
    "crossref_api",
    "contact_email",
)
ENV = {
    "library": "PAPERS_LIBRARY",
    "export_format": "PAPERS_EXPORT_FORMAT",
    "taxonomy": "PAPERS_TAXONOMY",
    "limit": "PAPERS_LIMIT",
    "color": "PAPERS_COLOR",
    "passing": "PAPERS_PASSING",
    "openreview_api": "PAPERS_OPENREVIEW_API",
    "arxiv_api": "PAPERS_ARXIV_API",
    "crossref_api": "PAPERS_CROSSREF_API",
    "contact_email": "PAPERS_CONTACT_EMAIL",
}
APIS = ("openreview_api", "arxiv_api", "crossref_api")  # services' base addresses
_BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
DEFAULT_OPENREVIEW_API = "https://api2.openreview.net"  # (enrich.openreview.DEFAULT_API)
DEFAULT_ARXIV_API = "https://export.arxiv.org/api"  # serves /query
DEFAULT_CROSSREF_API = "https://api.crossref.org"  # serves /works
# An address Crossref can write to: one word, an @, a domain with a dot (no spaces, no commas)
_EMAIL_RE = re.compile(r"^[^@\s,<>]+@[^@\s,<>]+\.[^@\s,<>.]+$")


@dataclass
class Setting:
    value: Any
    origin: str  # "default", "file", "environment" or "flag"
    where: str = ""  # the file or variable it came from

    def describe(self) -> str:
        return self.origin + (f": {self.where}" if self.where else "")


def config_path() -> Path:
    if os.environ.get("PAPERS_CONFIG"):
        return Path(os.environ["PAPERS_CONFIG"]).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("papers", appauthor=False)) / "config.yaml"


def default_library() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("papers", appauthor=False))


def unknown_setting(key: str, where: str = "") -> UsageError:
    """The error for a key that is no setting, with the closest one ("colour": color)."""
    return UsageError(f"{where}unknown setting {key!r}{_did_you_mean(key, KEYS)}")


def _did_you_mean(typed: Any, choices, what: str = "known") -> str:
    """ "; did you mean 'color'? (known: …)", or the list alone when nothing is close."""
    from difflib import get_close_matches

    close = get_close_matches(str(typed).lower(), choices, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{hint} ({what}: {', '.join(choices)})"


def _check(key: str, value: Any, where: str) -> Any:
    """A setting's value in its proper type, or a UsageError that names the key."""
    if key in ("library", "taxonomy"):
        if not isinstance(value, str) or not value.strip():
            raise UsageError(f"{where}: {key!r} must be a path")
        return Path(value).expanduser()
    if key == "export_format":
        if value not in EXPORT_FORMATS:
            raise UsageError(
                f"{where}: {key!r} cannot be {value!r}"
                + _did_you_mean(value, EXPORT_FORMATS, "one of")
            )
        return value
    if key == "limit":
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UsageError(f"{where}: {key!r} must be a whole number of at least 1")
        return value
    if key == "passing":
        if isinstance(value, str) and value.lower() in _BOOLEANS:
            value = _BOOLEANS[value.lower()]
        if not isinstance(value, bool):
            raise UsageError(f"{where}: {key!r} must be true or false")
        return value
    if key in APIS:
        if not isinstance(value, str) or not value.startswith(("http://", "https://")):
            raise UsageError(f"{where}: {key!r} must be an http:// or https:// address")
        return value.rstrip("/")
    if key == "contact_email":
        if not isinstance(value, str) or not _EMAIL_RE.match(value.strip()):
            raise UsageError(f"{where}: {key!r} must be an e-mail address (you@example.org)")
        return value.strip()
    if value not in COLORS:
        raise UsageError(
            f"{where}: {key!r} cannot be {value!r}" + _did_you_mean(value, COLORS, "one of")
        )
    return value


def _file_settings(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the config file ({exc})") from None
    from .errors import RecordError
    from .store.yamlio import load_yaml

    try:
        data = load_yaml(text, str(path))
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(f"{path}: the config file must be a mapping of settings")
    for key in data:
        if key not in KEYS:
            raise unknown_setting(key, f"{path}: ")
    return data


def load(flags: dict[str, Any] | None = None) -> dict[str, Setting]:
    """Every setting with its effective value and origin."""
    path = config_path()
    from_file = _file_settings(path)
    settings = {
        "library": Setting(default_library(), "default"),
        "export_format": Setting("markdown", "default"),
        "taxonomy": Setting(None, "default"),
        "limit": Setting(None, "default"),
        "color": Setting("auto", "default"),
        "passing": Setting(True, "default"),
        "openreview_api": Setting(DEFAULT_OPENREVIEW_API, "default"),
        "arxiv_api": Setting(DEFAULT_ARXIV_API, "default"),
        "crossref_api": Setting(DEFAULT_CROSSREF_API, "default"),
        "contact_email": Setting(None, "default"),
    }
    for key, value in from_file.items():
        settings[key] = Setting(_check(key, value, str(path)), "file", str(path))
    for key, var in ENV.items():
        if os.environ.get(var):
            settings[key] = Setting(_check(key, os.environ[var], var), "environment", var)
    if "NO_COLOR" in os.environ and os.environ["NO_COLOR"] != "":  # https://no-color.org
        settings["color"] = Setting("never", "environment", "NO_COLOR")
    for key, value in (flags or {}).items():
        if value is not None:
            settings[key] = Setting(_check(key, value, f"--{key.replace('_', '-')}"), "flag")
    return settings


def write_setting(key: str, value: str | None) -> tuple[Path, Any]:
    """Set *key* to *value* in the config file (None: remove it); return the file and the
    value as written.

    Every other line stays as it was, comments included: the key's own line (and any
    indented continuation of it) is replaced in place, or the line is added at the end.
    The value is checked as a read would check it (a taxonomy is loaded), and a path is
    made absolute (the file is read from any folder). The file is replaced whole, and
    only if it reads back with the new value."""
    if key not in KEYS:
        raise unknown_setting(key)
    path = config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the config file ({exc})") from None
    lines, at = _without(text.splitlines(), key)
    checked = None
    if value is not None and not value.isprintable():
        raise UsageError(f"{key!r} cannot hold a newline, a tab or another control character")
    if value is not None:
        try:
            checked = _check(key, value, "")
        except UsageError as exc:
            raise UsageError(str(exc).removeprefix(": ")) from None
        if key == "taxonomy":  # (a taxonomy that does not load would stop every command)
            from .tags.taxonomy import load_taxonomy

            load_taxonomy(checked)
        if isinstance(checked, Path):
            checked = os.path.abspath(checked)  # (.. folded, symbolic links kept)
        import yaml

        line = yaml.safe_dump({key: checked}, allow_unicode=True, width=10**6).rstrip("\n")
        lines.insert(len(lines) if at is None else at, line)
    new = "\n".join(lines) + ("\n" if lines else "")
    _reads_back(new, path, key, value)
    from .store.files import atomic_write

    atomic_write(path, new.encode("utf-8"))
    return path, checked


def _without(lines: list[str], key: str) -> tuple[list[str], int | None]:
    """*lines* without the entries of *key*, and where the first one was."""
    import re

    start = re.compile(rf"^{re.escape(key)}\s*:")
    kept, at, inside = [], None, False
    for line in lines:
        if start.match(line):
            at, inside = (len(kept) if at is None else at), True
            continue
        if inside and (line[:1].isspace() or not line.strip()) and line.strip() != "":
            continue  # (an indented continuation of the value)
        inside = False
        kept.append(line)
    return kept, at


def _reads_back(text: str, path: Path, key: str, value: str | None) -> None:
    from .errors import RecordError
    from .store.yamlio import load_yaml

    try:
        data = load_yaml(text, str(path)) or {}
    except RecordError as exc:
        raise UsageError(
            f"{path}: the file would not read back after the change ({exc}); "
            "it is unchanged: edit it by hand"
        ) from None
    if not isinstance(data, dict) or (key in data) != (value is not None):
        raise UsageError(
            f"{path}: the file would not hold {key} as asked; it is unchanged: edit it by hand"
        )
