"""What a matched paper (OpenReview's, arXiv's or Crossref's) adds to a record.

A field the record lacks is filled (``fill``); a list gains what it lacks (``add``); a
field that already holds a different value keeps it, and the service's value is kept as a
conflict (``conflict``), as the merge rule keeps a second document's disagreement. A value
the user edited is a value the record holds: it is never overwritten. Equal values
(compared as the merge rule compares them) change nothing, so running again changes
nothing.

The record then cites the paper in ``sources`` (``openreview:<forum>``, ``arxiv:<id>``,
``crossref:<doi>``), with the fields it gave and the day the service answered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..remote.found import Found
from ..store.merge import text_key
from ..store.record import Record, Source
from ..text import fold_key

ADDED = ("urls", "keywords")  # lists: what they lack is added (the others: filled when empty)


@dataclass(frozen=True)
class Change:
    field: str
    action: str  # "fill", "add" or "conflict"
    value: Any  # the new value; for "add", the items added
    old: Any = None  # for "conflict", the value kept
    source: str | None = None  # the paper it comes from: "arxiv:2501.01234v2", …

    def as_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "action": self.action,
            "value": self.value,
            "kept": self.old,
            "source": self.source,
        }


def source_of(paper: Found) -> Source:
    return Source(
        document=paper.document,
        name=paper.service,
        line=0,
        format=paper.service.casefold(),
        fetched=paper.fetched,
    )


def name_key(name: str) -> str:
    """One person's name however it is written: "Family, Given" or "Given Family"."""
    family, comma, given = name.partition(",")
    return fold_key(f"{given} {family}" if comma else name)


def _same(name: str, old: Any, new: Any) -> bool:
    if name == "authors":
        return [name_key(a) for a in old] == [name_key(a) for a in new]
    return text_key(old) == text_key(new)


def offered(paper: Found) -> dict[str, Any]:
    """What the paper can give a record, field by field (nothing it does not hold). Its
    venue and year are not among them: the record's are what its documents say."""
    values = {
        "title": paper.title,
        "authors": list(paper.authors),
        "abstract": paper.abstract,
        "urls": list(dict.fromkeys(paper.urls)),
        "keywords": list(paper.keywords),
    }
    return {k: v for k, v in values.items() if v}


def changes(record: Record, paper: Found) -> list[Change]:
    """What *paper* would change in *record* (nothing is changed here)."""
    out = []
    conflicted = {(c.get("field"), str(c.get("value"))) for c in record.conflicts}
    for name, value in offered(paper).items():
        current = getattr(record, name)
        if name in ADDED:
            new = [v for v in value if v not in current]
            if new:
                out.append(Change(name, "add", new, source=paper.document))
        elif not current:
            out.append(Change(name, "fill", value, source=paper.document))
        elif not _same(name, current, value) and (name, str(value)) not in conflicted:
            out.append(Change(name, "conflict", value, current, paper.document))
    return out


def apply(record: Record, paper: Found, found: list[Change]) -> None:
    """Make *found* (from ``changes``) part of *record*, and cite the paper."""
    source = source_of(paper)
    given = []
    for change in found:
        if change.action == "conflict":
            record.add_conflict(
                {"field": change.field, "value": change.value, "source": source.document}
            )
            continue
        if change.action == "fill":
            setattr(record, change.field, change.value)
        else:
            getattr(record, change.field).extend(change.value)
        given.append(change.field)
    if not record.cites(source):
        record.add_source(source)
    cited = next(s for s in record.sources if s.document == source.document)
    cited.fields.extend(f for f in given if f not in cited.fields)
