"""What an ingest reports: each document read, and what became of its entries."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class DocumentReport:
    path: str
    format: str
    entries: int
    venue: str | None
    year: int | None


@dataclass
class IngestReport:
    documents: list[DocumentReport] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # ids of records created
    merged: list[str] = field(default_factory=list)  # ids of records an entry was folded into
    revised: list[str] = field(default_factory=list)  # ids a new version of a .bib changed
    unchanged: int = 0  # entries already in the library
    warnings: list[str] = field(default_factory=list)  # "file:line: message"
    written: int = 0  # record files actually written

    def summary(self) -> str:
        docs = len(self.documents)
        entries = sum(d.entries for d in self.documents)
        entry_word = "entry" if entries == 1 else "entries"
        revised = f"{len(self.revised)} revised, " if self.revised else ""
        return (
            f"{docs} document{'s' * (docs != 1)}, {entries} {entry_word}: "
            f"{len(self.new)} new, {len(self.merged)} merged, {revised}{self.unchanged} unchanged, "
            f"{len(self.warnings)} warning{'s' * (len(self.warnings) != 1)}"
        )
