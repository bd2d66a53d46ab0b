"""The paper record: the one normalised shape every document format is turned into.

A record is what lives on disk as ``papers/<id>.yaml``. This module knows its fields,
their order, how to validate a mapping read from YAML, and how to label a paper that
has no title. It does no I/O (see ``store.library``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import RecordError
from ..text import first_sentence
from ..text.latex import latex_to_text

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
# What BibTeX, biber and pandoc read as one key; '/' and ':' for DBLP's (DBLP:conf/nips/X17)
CITEKEY_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:./+-]{0,79}$")
KIND_RE = re.compile(r"^[a-z]{1,30}$")
# Sources that are a service's reply (papers enrich, papers add), not a document copy
REMOTE_PREFIXES = ("openreview:", "arxiv:", "crossref:")

# Field order on disk and in JSON output.
FIELDS = (
    "id",
    "citekey",
    "aliases",
    "title",
    "authors",
    "short_name",
    "venue",
    "year",
    "kind",
    "categories",
    "keywords",
    "tags",
    "tag_edits",
    "abstract",
    "summary_zh",
    "urls",
    "sources",
    "conflicts",
)


@dataclass
class Source:
    """Where (part of) a record came from: a stored copy of the document, a line, a format."""

    document: str  # the stored copy, relative to the library: sources/<name>-<sha>.<ext>
    name: str  # the file name the user ingested
    line: int
    format: str
    fields: list[str] = field(default_factory=list)
    fetched: str | None = None  # a service's reply (``openreview:<forum>``): the day it was fetched

    @property
    def remote(self) -> bool:
        """Whether this source is a service's reply rather than a stored document copy."""
        return self.document.startswith(REMOTE_PREFIXES)

    @property
    def place(self) -> str:
        """Where to look: ``digest.txt:12``, or ``openreview:abc (fetched 2026-12-01)``."""
        if self.remote:
            return f"{self.document} (fetched {self.fetched or 'on an unknown day'})"
        return f"{self.name}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        out = {
            "document": self.document,
            "name": self.name,
            "line": self.line,
            "format": self.format,
            "fields": list(self.fields),
        }
        if self.fetched:
            out["fetched"] = self.fetched
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Source:
        if not isinstance(data, dict):
            raise RecordError(f"{where}: each source must be a mapping")
        try:
            return cls(
                document=_str(data["document"], f"{where}.document"),
                name=_str(data["name"], f"{where}.name"),
                line=_int(data["line"], f"{where}.line"),
                format=_str(data["format"], f"{where}.format"),
                fields=_str_list(data.get("fields") or [], f"{where}.fields"),
                fetched=_opt_str(data.get("fetched"), f"{where}.fetched"),
            )
        except KeyError as exc:
            raise RecordError(f"{where}: missing key {exc.args[0]!r}") from None


@dataclass(kw_only=True)
class Paper:
    """What a document can say about a paper: one document's view of it (``Entry``) and the
    library's merged one (``Record``) share these fields."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)  # as written: "Family, Given" (BibTeX)
    short_name: str | None = None
    venue: str | None = None
    year: int | None = None
    # What was published at the venue, when a source says: BibTeX's entry type (article:
    # a journal; inproceedings: a conference). None: a conference's list (digests, abstracts).
    kind: str | None = None
    categories: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)  # the authors' own (OpenReview's)
    abstract: str | None = None
    summary_zh: str | None = None
    urls: list[str] = field(default_factory=list)

    def paper(self) -> dict[str, Any]:
        """These fields as keyword arguments (lists copied)."""
        return {name: _copied(getattr(self, name)) for name in PAPER_FIELDS}


PAPER_FIELDS = tuple(Paper.__dataclass_fields__)


def _copied(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


@dataclass(kw_only=True)
class Record(Paper):
    id: str
    citekey: str | None = None  # BibTeX key: unique in the library, kept once given
    # The ids and citation keys of papers merged into this one (papers merge): they still
    # name it, so a draft that cites an old key and a script that holds an old id still work.
    aliases: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    # Tags the user added or removed by hand; they survive re-ingest and retagging.
    tag_edits: dict[str, list[str]] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    # Values a later source gave for a field that already had another value.
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    _cited: tuple[int, set] | None = field(default=None, init=False, repr=False, compare=False)
    _noted: tuple[int, set] | None = field(default=None, init=False, repr=False, compare=False)

    # -- derived views -------------------------------------------------------------------

    def cites(self, source: Source) -> bool:
        """Whether this record already holds that very entry (same document copy and line):
        ingesting it again changes nothing."""
        return (source.document, source.line) in self._places()

    def add_source(self, source: Source) -> None:
        """Add *source* unless the record cites it already."""
        places = self._places()
        if (source.document, source.line) not in places:
            self.sources.append(source)
            places.add((source.document, source.line))
            self._cited = (len(self.sources), places)

    def add_conflict(self, conflict: dict[str, Any]) -> None:
        """Note a disagreement, once."""
        if self._noted is None or self._noted[0] != len(self.conflicts):
            self._noted = (len(self.conflicts), {_conflict_key(c) for c in self.conflicts})
        key = _conflict_key(conflict)
        if key not in self._noted[1]:
            self.conflicts.append(conflict)
            self._noted[1].add(key)
            self._noted = (len(self.conflicts), self._noted[1])

    def _places(self) -> set[tuple[str, int]]:
        """The places cited, as a set kept beside the list (rebuilt only when the list was
        changed directly): a paper listed 50,000 times made each lookup a scan."""
        if self._cited is None or self._cited[0] != len(self.sources):
            self._cited = (len(self.sources), {(s.document, s.line) for s in self.sources})
        return self._cited[1]

    @property
    def label(self) -> str:
        """The title, or for an untitled paper its short name and the abstract's first words."""
        if self.title:
            return self.title
        return derived_label(self.short_name, self.abstract, self.summary_zh)

    @property
    def title_is_derived(self) -> bool:
        return not self.title

    # -- (de)serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data, in field order (a copy: safe to change).

        Written out by hand: ``dataclasses.asdict`` deep-copies recursively and was a
        tenth of an ingest's time.
        """
        out: dict[str, Any] = {
            "id": self.id,
            "citekey": self.citekey,
        }
        if self.aliases:  # (only a merged paper has them)
            out["aliases"] = list(self.aliases)
        out["title"] = self.title
        if self.authors:  # none of our digests names authors: the key appears when known
            out["authors"] = list(self.authors)
        out |= {
            "short_name": self.short_name,
            "venue": self.venue,
            "year": self.year,
        }
        if self.kind:  # (only BibTeX says it: the key appears when known)
            out["kind"] = self.kind
        out["categories"] = list(self.categories)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        out["tags"] = list(self.tags)
        if self.tag_edits:  # optional sections appear only when used
            out["tag_edits"] = {k: list(v) for k, v in self.tag_edits.items()}
        out["abstract"] = self.abstract
        out["summary_zh"] = self.summary_zh
        out["urls"] = list(self.urls)
        out["sources"] = [s.to_dict() for s in self.sources]
        if self.conflicts:
            out["conflicts"] = [dict(c) for c in self.conflicts]
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "record") -> Record:
        if not isinstance(data, dict):
            raise RecordError(f"{where}: a record must be a mapping, not {type(data).__name__}")
        unknown = set(data) - set(FIELDS)
        if unknown:
            raise RecordError(f"{where}: unknown field {sorted(unknown)[0]!r}")
        rid = data.get("id")
        if not isinstance(rid, str) or not ID_RE.match(rid):
            raise RecordError(f"{where}: 'id' must be lower-case ASCII letters, digits and dashes")
        year = data.get("year")
        if year is not None:
            year = _int(year, f"{where}.year")
            if not 1000 <= year <= 9999:  # (what year: in a query takes; the index holds 16 bits)
                raise RecordError(f"{where}.year must be a year of four digits, not {year}")
        edits = data.get("tag_edits") or {}
        if not isinstance(edits, dict) or set(edits) - {"added", "removed"}:
            raise RecordError(f"{where}: 'tag_edits' may only hold 'added' and 'removed' lists")
        conflicts = data.get("conflicts") or []
        if not isinstance(conflicts, list) or not all(isinstance(c, dict) for c in conflicts):
            raise RecordError(f"{where}: 'conflicts' must be a list of mappings")
        citekey = _opt_str(data.get("citekey"), f"{where}.citekey")
        if citekey is not None and not CITEKEY_RE.match(citekey):
            raise RecordError(f"{where}: 'citekey' must be ASCII letters, digits and _:./+-")
        aliases = _str_list(data.get("aliases") or [], f"{where}.aliases")
        if not all(CITEKEY_RE.match(a) for a in aliases):  # (an id is a citekey's shape too)
            raise RecordError(
                f"{where}: 'aliases' must be ids or citation keys (letters, digits, _:./+-)"
            )
        kind = _opt_str(data.get("kind"), f"{where}.kind")
        if kind is not None and not KIND_RE.match(kind):
            raise RecordError(
                f"{where}: 'kind' must be a BibTeX entry type (article, "
                "inproceedings, …): lower-case letters"
            )
        record = cls(
            id=rid,
            citekey=citekey,
            aliases=aliases,
            title=_opt_str(data.get("title"), f"{where}.title"),
            authors=_str_list(data.get("authors") or [], f"{where}.authors"),
            short_name=_opt_str(data.get("short_name"), f"{where}.short_name"),
            venue=_opt_str(data.get("venue"), f"{where}.venue"),
            year=year,
            kind=kind,
            categories=_str_list(data.get("categories") or [], f"{where}.categories"),
            keywords=_str_list(data.get("keywords") or [], f"{where}.keywords"),
            tags=_str_list(data.get("tags") or [], f"{where}.tags"),
            tag_edits={k: _str_list(v or [], f"{where}.tag_edits.{k}") for k, v in edits.items()},
            abstract=_opt_str(data.get("abstract"), f"{where}.abstract"),
            summary_zh=_opt_str(data.get("summary_zh"), f"{where}.summary_zh"),
            urls=_str_list(data.get("urls") or [], f"{where}.urls"),
            sources=[
                Source.from_dict(s, f"{where}.sources[{i}]")
                for i, s in enumerate(_list(data.get("sources") or [], f"{where}.sources"))
            ],
            conflicts=conflicts,
        )
        if not record.sources:  # (a record cut short loses its last keys first)
            raise RecordError(
                f"{where}.sources: a record needs at least one source, the "
                "document and line it came from"
            )
        return record


def _conflict_key(conflict: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in conflict.items()))


def derived_label(
    short_name: str | None,
    abstract: str | None,
    summary: str | None,
    reading: Callable[[str], str] = latex_to_text,
) -> str:
    """A display label for an untitled paper, built only from text the paper has. *reading*
    turns the text into what it reads as (``str`` when it is a stored plain reading)."""
    # (the whole text is read: cutting the raw text could split a math span)
    opening = first_sentence(reading(abstract or summary or ""), 90)
    if short_name and opening:
        return f"{short_name} — {opening}"
    return short_name or opening or "(no title, no abstract)"


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where} must be text, not {type(value).__name__}")
    return value


def _opt_str(value: Any, where: str) -> str | None:
    return None if value is None else _str(value, where)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{where} must be a whole number, not {value!r}")
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list")
    return value


def _str_list(value: Any, where: str) -> list[str]:
    return [_str(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where))]
