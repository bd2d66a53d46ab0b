"""Exporters: one module per output format, each with ``render(records, **options) -> str``.

    markdown   GitHub-flavoured Markdown: an index table and a section per paper
    bibtex     BibTeX in ASCII with LaTeX escapes, for classic bibtex
    biblatex   BibTeX in UTF-8, for biber/biblatex
    csl-json   CSL-JSON for pandoc's citeproc and Zotero
    json       full records, as JSON (``papers ingest`` reads it back)
    yaml       full records, as YAML (``papers ingest`` reads it back)

Modules are imported only when their format is asked for.
"""

from __future__ import annotations

import importlib

from ..record import Record

# format name -> (module, options for its render function)
FORMATS: dict[str, tuple[str, dict]] = {
    "markdown": ("markdown", {}),
    "bibtex": ("bibtex", {"ascii_only": True}),
    "biblatex": ("bibtex", {"ascii_only": False}),
    "csl-json": ("csljson", {}),
    "json": ("records", {"fmt": "json"}),
    "yaml": ("records", {"fmt": "yaml"}),
}


class _Counted(list):
    """The records, advancing a progress bar as an exporter walks through them."""

    def __init__(self, records: list[Record], advance) -> None:
        super().__init__(records)
        self.advance = advance

    def __iter__(self):
        for record in super().__iter__():
            yield record
            self.advance()


def render(fmt: str, records: list[Record], advance=None) -> str:
    module, options = FORMATS[fmt]
    if advance is not None:
        records = _Counted(records, advance)
    return importlib.import_module(f"{__name__}.{module}").render(records, **options)
