"""Listings without a query: the papers the filters keep, the papers closest to one
paper, the tags in use and what ``papers stats`` counts.

In: the open index, filters, a paper's id. Out: hits (by title, or closest first) and
counts.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..index.paper_index import PaperIndex
from ..results.hits import Hit
from .filters import Filters, filter_query
from .lookup import get_paper


def similar(index: PaperIndex, rid: str, limit: int = 10) -> tuple[Hit, list[Hit]]:
    """The papers closest to one paper: its key terms, in English and Chinese, as a query."""
    from whoosh import query

    paper = get_paper(index, rid)
    texts = {
        "title": paper.text("title") or "",
        "name": paper.data.get("short_name") or "",
        "abstract": paper.text("abstract") or "",
        "summary": paper.text("summary_zh") or "",
    }
    parts = []
    with index.searcher() as searcher:
        for field, text in texts.items():
            if text:
                for term, weight in searcher.key_terms_from_text(field, text, numterms=12):
                    parts.append(query.Term(field, term, boost=weight))
    parts += [query.Term("tag", t) for t in paper.data.get("tags", [])]  # bridges the languages
    if not parts:
        return paper, []
    q = query.And([query.Or(parts), query.Not(query.Term("id", paper.id))])
    hits = index.run(q, limit)
    return paper, hits


def list_papers(
    index: PaperIndex, filters: Filters, limit: int | None = None, stream: bool = False
) -> list[Hit] | Iterator[Hit]:
    """Papers matching the filters, ordered by title (or derived label); with *stream*,
    one at a time as they are consumed (see ``PaperIndex.stream``)."""
    from whoosh import query

    q = filter_query(filters) or query.Every()
    if stream:
        return index.stream(q, limit, sort=True)
    return index.run(q, limit=limit, sort=True)


def tag_counts(index: PaperIndex) -> list[tuple[str, int]]:
    """Every tag in the library with its number of papers, most used first."""
    from whoosh import query

    counts = []
    with index.searcher() as searcher:
        for tag in sorted({t.decode("utf-8") for t in searcher.lexicon("tag")}):
            n = len(list(searcher.docs_for_query(query.Term("tag", tag))))
            if n:
                counts.append((tag, n))
    return sorted(counts, key=lambda tc: (-tc[1], tc[0]))


STAT_SECTIONS = ("venue", "year", "category", "source", "title", "languages")


def stats(index: PaperIndex) -> dict[str, list[tuple[str, int]]]:
    """Papers per venue, year, category, source document, titled/untitled, languages, tag."""
    from whoosh import query

    out: dict[str, list[tuple[str, int]]] = {s: [] for s in STAT_SECTIONS}
    with index.searcher() as searcher:
        for term in searcher.lexicon("facets"):
            text = term.decode("utf-8")
            section, _sep, value = text.partition(":")
            n = len(list(searcher.docs_for_query(query.Term("facets", text))))
            if n and section in out:
                out[section].append((value, n))
    for section, rows in out.items():
        numeric = section == "year"
        rows.sort(key=lambda r: (r[0],) if numeric else (-r[1], r[0]))
    out["tag"] = tag_counts(index)
    out["papers"] = [("all", index.doc_count())]
    return out
