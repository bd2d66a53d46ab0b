"""What the index gives back: a paper's stored record, with its score, why it matched,
and the plain readings of its LaTeX (stored at indexing time, so that showing a hit never
converts LaTeX again: pylatexenc takes ~20 ms to import)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property

from ...store.record import Record, derived_label


@dataclass
class Hit:
    id: str
    data: dict  # the record as stored (Record.to_dict(), unpickled with the stored fields)
    plain: dict[str, str] = field(default_factory=dict)  # readings that differ from the text
    score: float | None = None
    snippet: str | None = None  # why it matched, with marks (see ``snippets``, ``marking``)
    terms: frozenset[str] = frozenset()  # the query's words, to mark in the title
    concepts_json: str = ""  # concept -> the paper's words, as stored (read when asked)
    docnum: int | None = None  # its number in the searcher that found it (streamed hits)
    derived: str | None = None  # an untitled paper's label, as derived when indexed
    passing: bool = False  # it names the query's concepts only in passing
    pending: bool = False  # its snippet is not made yet (``search.passages`` makes it)

    @cached_property
    def concepts(self) -> dict[str, str]:
        """The concepts of the glossary the paper speaks of: id -> its words for it."""
        return json.loads(self.concepts_json) if self.concepts_json else {}

    @cached_property
    def title_marked(self) -> str | None:
        """The title with the query's words marked (None: none in it); made when a table
        asks for it, not for a piped line, which shows no marks."""
        from .marking import mark

        return mark(self.text("title") or "", self.terms)

    @property
    def record(self) -> Record:
        return Record.from_dict(self.data, self.id)

    def text(self, name: str) -> str | None:
        """Field *name* as it reads: its stored plain reading, else the text itself."""
        value = self.data.get(name)
        return self.plain.get(name, value) if isinstance(value, str) else None

    @property
    def label(self) -> str:
        """The title as it reads, or an untitled paper's derived label."""
        if self.data.get("title"):
            return self.text("title") or ""
        if self.derived:
            return self.derived
        return derived_label(
            self.data.get("short_name"), self.text("abstract"), self.text("summary_zh"), reading=str
        )


def hit_from(fields: dict, score: float | None = None) -> Hit:
    """A hit from a paper's stored fields, as unpickled: the record and its readings are
    dicts already (decoding them from JSON was 7 of a piped hit's ~80 µs); the concepts are
    parsed only when asked."""
    hit = Hit(fields["id"], fields["data"], fields["plain"], score)
    hit.concepts_json = fields["concepts"]
    hit.derived = fields["label"] or None
    return hit
