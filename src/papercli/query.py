"""Questions asked of the index: search, list by filters, count tags, select for export.

Plain functions over a ``PaperIndex``; the CLI only parses options and prints.

Search syntax (Whoosh's query language over title, short name, tags, abstract and
Chinese summary): words are ANDed; ``OR``, ``NOT``, ``"quoted phrases"``, ``prefix*``,
``term~`` (fuzzy), and fields ``title:``, ``name:``, ``tag:``, ``venue:``, ``year:``,
``category:``, ``abstract:``, ``summary:``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import UsageError
from .index import TEXT_FIELDS, Hit, PaperIndex
from .taxonomy import Taxonomy


@dataclass
class Filters:
    tags: tuple[str, ...] = ()
    any_tag: bool = False
    venue: str | None = None
    year: int | None = None

    def describe(self) -> str:
        parts = []
        if self.tags:
            parts.append("tag " + (" or " if self.any_tag else " and ").join(self.tags))
        if self.venue:
            parts.append(f"venue {self.venue}")
        if self.year:
            parts.append(f"year {self.year}")
        return ", ".join(parts)


def resolve_tags(tags: Iterable[str], taxonomy: Taxonomy | None) -> tuple[str, ...]:
    """Turn aliases into tags (联邦学习 → federated-learning); unknown names stay as given."""
    out = []
    for tag in tags:
        resolved = taxonomy.resolve(tag) if taxonomy else None
        out.append(resolved or tag.strip().lower())
    return tuple(out)


def _filter_query(filters: Filters):
    from whoosh import query

    parts = []
    if filters.tags:
        terms = [query.Term("tag", t) for t in filters.tags]
        parts.append(query.Or(terms) if filters.any_tag else query.And(terms))
    if filters.venue:
        parts.append(query.Term("venue", filters.venue.lower()))
    if filters.year:
        parts.append(query.NumericRange("year", filters.year, filters.year))
    return query.And(parts) if parts else None


def parse_query(index: PaperIndex, text: str):
    """A Whoosh query from the user's text; a malformed query is a one-line ``UsageError``."""
    from whoosh import qparser, query

    parser = qparser.MultifieldParser(list(TEXT_FIELDS), index.ix.schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    try:
        q = parser.parse(text)
    except Exception as exc:  # Whoosh raises a variety of types for odd input
        raise UsageError(f"cannot understand the query {text!r}: {exc}") from None
    if q is query.NullQuery:
        raise UsageError(f"the query {text!r} has no words to search for")
    return q


def search(
    index: PaperIndex, text: str, limit: int | None = None, filters: Filters | None = None
) -> list[Hit]:
    """Best matches first, each with its score."""
    from whoosh import query

    q = parse_query(index, text)
    extra = _filter_query(filters or Filters())
    if extra is not None:
        q = query.And([q, extra])
    return index.run(q, limit=limit)


def list_papers(index: PaperIndex, filters: Filters, limit: int | None = None) -> list[Hit]:
    """Papers matching the filters, ordered by title (or derived label)."""
    from whoosh import query

    q = _filter_query(filters) or query.Every()
    return index.run(q, limit=limit, sort=True)


def tag_counts(index: PaperIndex) -> list[tuple[str, int]]:
    """Every tag in the library with its number of papers, most used first."""
    from whoosh import query

    counts = []
    with index.ix.searcher() as searcher:
        for tag in sorted({t.decode("utf-8") for t in searcher.lexicon("tag")}):
            n = len(list(searcher.docs_for_query(query.Term("tag", tag))))
            if n:
                counts.append((tag, n))
    return sorted(counts, key=lambda tc: (-tc[1], tc[0]))


def get_paper(index: PaperIndex, rid: str) -> Hit:
    """One paper by id (exact, or a unique prefix)."""
    from whoosh import query

    rid = rid.strip()
    hits = index.run(query.Term("id", rid), limit=1)
    if hits:
        return hits[0]
    if rid:
        hits = index.run(query.Prefix("id", rid), limit=3)
        if len(hits) == 1:
            return hits[0]
        if hits:
            ids = ", ".join(h.id for h in hits[:2])
            raise UsageError(f"{rid!r} matches several papers ({ids}, …); give more of the id")
    raise UsageError(f"no paper with id {rid!r}")


def select(
    index: PaperIndex, text: str | None, filters: Filters, ids: Iterable[str] = ()
) -> list[Hit]:
    """Papers for export: by query and/or filters, plus explicit ids; ordered by id."""
    chosen: dict[str, Hit] = {}
    ids = list(ids)
    for rid in ids:
        hit = get_paper(index, rid)
        chosen[hit.id] = hit
    if text:
        chosen.update((h.id, h) for h in search(index, text, None, filters))
    elif filters.tags or filters.venue or filters.year or not ids:
        chosen.update((h.id, h) for h in list_papers(index, filters))
    return [chosen[k] for k in sorted(chosen)]
