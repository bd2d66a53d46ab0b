"""Exporters: one module per output format.

In: records, one at a time (``search.questions.select.RecordStream``). Out: text, as a
generator of chunks (``chunks(records, **options)``): an export of any size is written as
it is made.

    markdown   GitHub-flavoured Markdown: an index table and a section per paper
    bibtex     BibTeX in ASCII with LaTeX escapes, for classic bibtex
    biblatex   BibTeX in UTF-8, for biber/biblatex
    csl-json   CSL-JSON for pandoc's citeproc and Zotero
    json       full records, as JSON (``papers ingest`` reads it back)
    yaml       full records, as YAML (``papers ingest`` reads it back)

Modules are imported only when their format is asked for.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from pathlib import Path

from ..store.record import Record
from ..text import inert

# format name -> (module, options for its render function)
FORMATS: dict[str, tuple[str, dict]] = {
    "markdown": ("markdown", {}),
    "bibtex": ("bibtex", {"ascii_only": True}),
    "biblatex": ("bibtex", {"ascii_only": False}),
    "csl-json": ("csljson", {}),
    "json": ("records", {"fmt": "json"}),
    "yaml": ("records", {"fmt": "yaml"}),
}


# An output file's suffix names its format's family: markdown never lands in refs.bib.
_BY_SUFFIX = {
    ".bib": ("bibtex", "biblatex"),
    ".json": ("json", "csl-json"),
    ".md": ("markdown",),
    ".markdown": ("markdown",),
    ".yaml": ("yaml",),
    ".yml": ("yaml",),
}


def choose_format(
    given: str | None, setting: str, set_by_user: bool, output: str | None, draft: bool
) -> str:
    """The format of an export: ``--format``; else the one *output*'s suffix names (the
    setting if it is of that family); else the setting if the user set it; else BibTeX
    for the papers a draft cites (*draft*), Markdown for the rest (the setting's default)."""
    if given:
        return given
    family = _BY_SUFFIX.get(Path(output).suffix.lower()) if output else None
    if family:
        return setting if setting in family else family[0]
    if set_by_user or not draft:
        return setting
    return "bibtex"


COMPLETE = ("json", "yaml")  # whole records, read back by ingest: escaped, not cleaned


class _Counted:
    """Records an exporter walks through (once or twice), advancing a progress bar, and
    made inert on the way unless the format keeps whole records (see ``inert_record``)."""

    def __init__(self, records, advance, clean: bool) -> None:
        self.records = records
        self.advance = advance or (lambda n=1: None)
        self.clean = clean

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self):
        for record in self.records:
            yield inert_record(record) if self.clean else record
            self.advance()


def inert_record(record: Record) -> Record:
    """A copy of *record* whose every text is inert (``text.inert``): no terminal escape,
    control character or invisible bidirectional control reaches a citation or a page."""
    changes = {
        f.name: _inert(getattr(record, f.name)) for f in dataclasses.fields(record) if f.init
    }
    changes["sources"] = [dataclasses.replace(s, name=inert(s.name)) for s in record.sources]
    return dataclasses.replace(record, **changes)


def _inert(value):
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, list):
        return [_inert(v) for v in value]
    if isinstance(value, dict):
        return {k: _inert(v) for k, v in value.items()}
    return value


def chunks(fmt: str, records, advance=None, notes=None) -> Iterator[str]:
    """The export as a stream of text pieces. *records* must be sized and iterable more
    than once (a list, or ``select.RecordStream``, which reads records lazily). *notes*
    (a Counter): what a BibTeX export said about its entries, counted."""
    module, options = FORMATS[fmt]
    if notes is not None and module == "bibtex":
        options = {**options, "notes": notes}
    exporter = importlib.import_module(f"{__name__}.{module}")
    return exporter.chunks(_Counted(records, advance, fmt not in COMPLETE), **options)


def advice(notes, total: int) -> list[str]:
    """One line for each kind of note an export counted (see ``chunks``)."""
    from .bibtex import advice as bibtex_advice

    return bibtex_advice(notes, total) if notes else []


def render(fmt: str, records, advance=None) -> str:
    return "".join(chunks(fmt, records, advance))
