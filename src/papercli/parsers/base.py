"""What every document parser produces: a ``Document`` of ``Entry`` objects and warnings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..store.record import Paper, Record

# "- Title" starts an entry in list-shaped documents.
ENTRY_RE = re.compile(r"^[ \t]*[-•*][ \t]+(\S.*)$")
# A URL, without the punctuation that ends the sentence around it.
URL_RE = re.compile(r"https?://[^\s<>()\[\]（）]+[^\s<>()\[\].,;:!?'\"（）。，；]")


@dataclass(kw_only=True)
class Entry(Paper):
    """One paper as a document states it, before it is merged into the library."""

    line: int  # 1-based line where the entry starts
    citekey: str | None = None  # a key the source gives (BibTeX), kept when free
    keywords: list[str] = field(default_factory=list)  # tags the source gives
    record: Record | None = None  # a whole record, from a records export read back in

    def fields(self) -> list[str]:
        """Names of the record fields this entry supplies (for provenance)."""
        names = ["title", "authors", "short_name", "abstract", "summary_zh", "urls"]
        return [n for n in names if getattr(self, n)]


@dataclass
class ParseWarning:
    line: int
    message: str


@dataclass
class Document:
    format: str
    venue: str | None = None
    year: int | None = None
    category: str | None = None
    declared_count: int | None = None
    entries: list[Entry] = field(default_factory=list)
    warnings: list[ParseWarning] = field(default_factory=list)
    # (line, what) when another document begins inside this one: refused, not half-parsed
    foreign: tuple[int, str] | None = None

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(ParseWarning(line, message))
