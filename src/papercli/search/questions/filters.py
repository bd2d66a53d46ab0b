"""The filters a listing or a search is narrowed by: tags (all of them, or any), a venue,
a year or a range of years.

In: the options typed (``--tag``, ``--any``, ``--venue``, ``--year``) and the taxonomy (an
alias is its tag). Out: ``Filters``, and the Whoosh query they stand for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...tags.taxonomy import Taxonomy


@dataclass
class Filters:
    tags: tuple[str, ...] = ()
    any_tag: bool = False
    venue: str | None = None
    year: int | tuple[int | None, int | None] | None = None  # a year, or first and last

    def __post_init__(self) -> None:
        if isinstance(self.year, int):
            self.year = (self.year, self.year)

    def describe(self) -> str:
        parts = []
        if self.tags:
            parts.append("tag " + (" or " if self.any_tag else " and ").join(self.tags))
        if self.venue:
            parts.append(f"venue {self.venue}")
        if self.year:
            start, end = self.year
            span = str(start) if start == end else f"{start or ''}..{end or ''}"
            parts.append(f"year {span}")
        return ", ".join(parts)


def resolve_tags(tags: Iterable[str], taxonomy: Taxonomy | None) -> tuple[str, ...]:
    """Turn aliases into tags (联邦学习 → federated-learning); unknown names stay as given."""
    out = []
    for tag in tags:
        resolved = taxonomy.resolve(tag) if taxonomy else None
        out.append(resolved or tag.strip().lower())
    return tuple(out)


def filter_query(filters: Filters):
    from whoosh import query

    parts = []
    if filters.tags:
        terms = [query.Term("tag", t) for t in filters.tags]
        parts.append(query.Or(terms) if filters.any_tag else query.And(terms))
    if filters.venue:
        parts.append(query.Term("venue", filters.venue.lower()))
    if filters.year:  # (bounds past what the field holds refused the query: --year "<0000")
        start, end = (None if y is None else min(max(y, 0), 2**16 - 1) for y in filters.year)
        parts.append(query.NumericRange("year", start, end))
    return query.And(parts) if parts else None
