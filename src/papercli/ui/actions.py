"""What the browser's keys do to the library and the world: tags added, an export
written, a link opened. Plain functions: no Textual here.

Tags are written by ``tagging.edit_tags`` (the library's lock and one transaction, as
``papers tag``); an export by the exporters and the atomic write of ``papers export
--output``. Each returns the lines to show.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import UsageError
from .model import Browsing

# format -> (how the dialog names it, the file name's extension)
FORMATS = {
    "bibtex": ("BibTeX (ASCII, for bibtex or biber)", ".bib"),
    "biblatex": ("BibLaTeX (UTF-8, for biber)", ".bib"),
    "markdown": ("Markdown", ".md"),
    "csl-json": ("CSL-JSON (pandoc, Zotero)", ".json"),
    "json": ("JSON (whole records)", ".json"),
    "yaml": ("YAML (whole records)", ".yaml"),
}
DEFAULT_FORMAT = "bibtex"


def default_name(fmt: str) -> str:
    return "papers" + FORMATS[fmt][1]


def _counted(n: int) -> str:
    return "1 paper" if n == 1 else f"{n} papers"


# --- tags ----------------------------------------------------------------------------------


def tag_choices(browsing: Browsing) -> list[str]:
    """What the tag dialog completes from: the tags papers have (most used first), the
    taxonomy's other tags, and every tag's aliases in English and Chinese."""
    from ..search.questions.listing import tag_counts

    used = [t for t, _n in tag_counts(browsing.index)]
    names = used + [t for t in browsing.taxonomy.tags if t not in set(used)]
    choices = [c for name in names for c in (name, *browsing.taxonomy.aliases(name))]
    return list(dict.fromkeys(choices))


def complete(value: str, choices: Iterable[str]) -> str | None:
    """*value* with its last tag (after the last comma) completed from *choices*: the
    first that starts with it, in any case; None when none does or it is empty."""
    head, sep, last = value.rpartition(",") if "," in value else ("", "", value)
    typed = last.lstrip()
    if not typed:
        return None
    folded = typed.casefold()
    for choice in choices:
        if choice.casefold().startswith(folded) and len(choice) > len(typed):
            return head + sep + last[: len(last) - len(typed)] + choice
    return None


def parse_tags(text: str, browsing: Browsing) -> list[str]:
    """The tags typed, between commas: an alias in either language names its tag
    (联邦学习 → federated-learning), any other name is a tag of the user's own."""
    from ..tags.tagging import normalise_tag

    names = [n.strip() for n in re.split("[,，、]", text) if n.strip()]
    if not names:
        raise UsageError("type a tag, or several between commas")
    return list(dict.fromkeys(normalise_tag(n, browsing.taxonomy) for n in names))


def add_tags(browsing: Browsing, ids: list[str], text: str) -> str:
    """Add the tags *text* names to the papers *ids*, all or none (``papers tag --add``)."""
    from ..tags.tagging import edit_tags

    tags = parse_tags(text, browsing)
    results = edit_tags(browsing.library, ids, tags, [])
    changed = sum(1 for _record, did, _absent in results if did)
    named = ", ".join(tags)
    if not changed:
        return f"{'the paper has' if len(ids) == 1 else 'the papers have'} {named} already"
    if changed < len(ids):
        return f"added {named} to {changed} of {_counted(len(ids))} (the others had it)"
    return f"added {named} to {_counted(len(ids))}"


# --- export --------------------------------------------------------------------------------


def export(browsing: Browsing, ids: list[str], fmt: str, name: str) -> list[str]:
    """Write the papers *ids* (ordered by id, as ``papers export``) to the file *name*
    (relative to the folder ``papers browse`` started in), replaced only once whole."""
    from .. import export as exporters
    from ..cli.export import write
    from ..search.questions.select import RecordStream

    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}")
    if not name.strip():
        raise UsageError("type a file name")
    path = browsing.folder / Path(name.strip()).expanduser()
    if path.is_dir():
        raise UsageError(f"{path} is a folder: type a file name")
    notes: Counter = Counter()
    chosen = sorted(set(ids))
    pieces = exporters.chunks(fmt, RecordStream(browsing.index, chosen), None, notes)
    try:
        write(None, pieces, path)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return [f"wrote {_counted(len(chosen))} to {path}", *exporters.advice(notes, len(chosen))]


# --- links ---------------------------------------------------------------------------------


def opener(environ: Mapping[str, str] = os.environ, platform: str = sys.platform):
    """The system's program that opens a link in the user's browser, as an argument list;
    None where there is none to reach (a console, or ssh without a display)."""
    if platform == "darwin":
        return ["open"]
    if platform == "win32":
        return ["explorer"]
    if not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")):
        return None
    found = shutil.which("xdg-open")
    return [found] if found else None


def open_link(url: str, argv: list[str] | None) -> str:
    """Open *url* with *argv* (``opener()``); else say the link, to be copied by hand. Only
    web links are handed to a program: a record's "link" may be anything."""
    if argv is None or not url.startswith(("http://", "https://")):
        return f"link: {url}"
    try:
        subprocess.Popen(
            [*argv, url],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # (the browser outlives papers, and gets no Ctrl-C of it)
        )
    except OSError:
        return f"could not start {argv[0]}; link: {url}"
    return f"opened {url}"
