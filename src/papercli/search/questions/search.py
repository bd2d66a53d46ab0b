"""A search: the papers a query matches, best first, each with a snippet saying why.

In: the query as typed, the open index, the filters. Out: hits, one at a time as they are
consumed: the paper the text names whole first, then the query's, then the papers that
name its concepts only in passing (marked so); if none, the papers whose titles a pasted
reference holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...engine.single import matching
from ...engine.unions import unions
from ...errors import UsageError
from ..index.paper_index import PaperIndex
from ..querying.bridge import TRANSLATED, TRANSLATION_BOOST
from ..querying.parse import TagResolver, parse_query
from ..querying.pasted import cited_titles, named_paper
from ..results.hits import Hit
from .categorized import Categorized
from .filters import Filters, filter_query


def search(
    index: PaperIndex,
    text: str,
    limit: int | None = None,
    filters: Filters | None = None,
    snippet_cells: int = 200,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
    passing: bool = True,
) -> list[Hit]:
    """``search_stream``'s hits as a list (for tables, which lay out every row first)."""
    return list(
        search_stream(index, text, limit, filters, snippet_cells, resolve_tag, exact, passing)
    )


def search_stream(
    index: PaperIndex,
    text: str,
    limit: int | None = None,
    filters: Filters | None = None,
    snippet_cells: int = 200,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
    passing: bool = True,
) -> Iterator[Hit]:
    """Best matches first, each with its score and a snippet showing why it matched, one
    at a time as they are consumed (see ``PaperIndex.stream``). *exact*: no bridge through
    the glossary (only the words as written, and their forms). The papers that name the
    query's concepts only in passing (``concepts.passing``) are listed after the others, marked
    (``IN_PASSING``); without *passing*, left out. The query is parsed, and a malformed one
    rejected, before the first hit is asked for."""
    from whoosh import query

    bridges: dict[str, str] = {}  # concept -> the query's words that named it
    extra = filter_query(filters or Filters())

    def filtered(node):
        return node if extra is None else query.And([node, extra])

    pasted = named_paper(index, text)
    pasted = filtered(pasted) if pasted is not None else None
    try:
        q = parse_query(index, text, resolve_tag, exact, bridges)
    except UsageError:
        # a title the query language cannot read ('The "Right" Way', an unbalanced quote)
        # still finds its paper when pasted whole, and so does a reference holding it
        named = pasted if pasted is not None and index.run(pasted, limit=1, fresh=False) else None
        named = named or _filtered(cited_titles(index, text), filtered)
        if named is None:
            raise
        return _stream(index, named, named, None, limit, {}, snippet_cells)
    hits = _stream(index, filtered(q), q, pasted, limit, bridges, snippet_cells, passing)
    return _or_cited(hits, index, text, q, filtered, limit, snippet_cells)


def _or_cited(hits, index, text, q, filtered, limit, snippet_cells) -> Iterator[Hit]:
    """*hits*; if there is none, the papers whose titles *text* holds whole (a reference
    copied from a bibliography: its authors and venue are no paper's words), their titles
    marked with the words of *q* they hold."""
    found = False
    for hit in hits:
        found = True
        yield hit
    if not found and (cited := _filtered(cited_titles(index, text), filtered)) is not None:
        yield from _stream(index, cited, q, None, limit, {}, snippet_cells)


def _filtered(node, filtered):
    return None if node is None else filtered(node)


def passing_docs(searcher, bridges: dict) -> set[int]:
    """The docnums of the papers that name the query's concepts only in passing."""
    aside = in_passing(bridges)
    return set() if aside is None else set(searcher.docs_for_query(aside))


def in_passing(bridges: dict):
    """The query matching the papers that name every concept of *bridges* they speak of
    only in passing (``concepts.passing``, decided when each paper is indexed); None when the query
    names no concept."""
    from whoosh import query

    named = sorted(c for c in bridges if not c.startswith(TRANSLATED))
    if not named:
        return None
    about = [query.AndNot(query.Term("concept", c), query.Term("aside", c)) for c in named]
    return query.AndNot(query.Or([query.Term("aside", c) for c in named]), query.Or(about))


def _stream(index, q, text_q, pasted, limit, bridges, snippet_cells, passing=True) -> Iterator[Hit]:
    """The hits of *q* with their snippets (*text_q*: the query without the filters); the
    paper whose id or link was pasted (*pasted*) first. The papers that name the query's
    concepts only in passing come after the others, marked so (without *passing*, not
    at all)."""
    from ..results import snippets
    from ..results.marking import query_terms
    from ..results.passage import cells

    with index.searcher() as searcher:
        terms = query_terms(text_q, searcher.reader())
        # the papers found only through a category (its passage says which)
        categorized = Categorized(index, searcher, q, text_q)
        asked = bool(categorized.asked)
        # the papers the query as written matches: the others were found through the glossary
        literal = unions(_literal(q)) if bridges else None
        rendered = {
            key: key.removeprefix(TRANSLATED) for key in bridges if key.startswith(TRANSLATED)
        }  # (梯度 → gradient: as the paper's words)

        def passage(hit: Hit, page: dict, room: int) -> str | None:
            texts = {name: hit.text(name) for name in ("abstract", "summary_zh")}
            if literal is not None and not _literal_match(
                index, searcher, literal, hit, page.get("literal")
            ):
                texts["title"] = hit.text("title")
                found = {**rendered, **hit.concepts} if rendered else hit.concepts
                # (or the literal passage: "sampled" for 采样, a stem whose rendering
                # "sampling" is not written in it)
                return snippets.bridged(texts, bridges, found, room) or snippets.snippet(
                    texts, terms, room
                )
            return snippets.snippet(texts, terms, room)

        def shown(hit: Hit, aside: bool = False, page: dict | None = None) -> Hit:
            page = page or {}
            head, text = categorized.head(hit, page.get("category")) if asked else (None, True)
            if head is None:
                hit.snippet = passage(hit, page, snippet_cells)
            elif text:  # (then where its text holds the query's other words: muon 优化/理论)
                room = max(40, snippet_cells - cells(head, 0, len(head)) - 3)
                hit.snippet = " · ".join(filter(None, [head, passage(hit, page, room)]))
            else:
                hit.snippet = head
            if aside:
                hit.passing = True
                hit.snippet = IN_PASSING + (hit.snippet or "")
            hit.terms = terms
            return hit

        first = list(index.stream(pasted, 3, searcher=searcher)) if pasted is not None else []
        ids = {h.id for h in first}
        yield from map(shown, first)
        left = None if limit is None else limit - len(first)
        aside = passing_docs(searcher, bridges)
        parts = [({"restrict": aside}, False)] + ([({"allow": aside}, True)] if passing else [])
        for where, marked in parts:
            if left == 0 or where.get("allow") == set():
                return
            more = None if left is None else left + len(ids)  # (room for those listed)
            hits = index.stream(q, more, searcher=searcher, **where)
            page = {}
            if (literal is not None or asked) and more is not None:
                hits = list(hits)  # (a page: asked of its papers alone)
                if literal is not None:
                    docnums = [h.docnum for h in hits if h.docnum is not None]
                    page["literal"] = matching(searcher, literal, docnums)
                if asked:
                    page["category"] = categorized.page(hits)
            for hit in hits:
                if hit.id in ids:
                    continue
                if left is not None:
                    if left == 0:
                        return
                    left -= 1
                ids.add(hit.id)
                yield shown(hit, marked, page)


IN_PASSING = "only in passing · "  # (the snippet of a paper naming the concept in passing)


def _literal(q):
    """*q* without its ``concept:`` alternatives and a common word's renderings in the other
    language (weighted ``TRANSLATION_BOOST``): the query as written."""
    from whoosh import query

    def bridged(node) -> bool:
        concept = isinstance(node, query.Term) and node.fieldname == "concept"
        return concept or getattr(node, "boost", 1.0) == TRANSLATION_BOOST

    def strip(node):
        if isinstance(node, query.Or):
            kept = [s for s in node.subqueries if not bridged(s)]
            if len(kept) != len(node.subqueries):
                return kept[0] if len(kept) == 1 else query.Or(kept)
        return node

    return q.accept(strip)


def _literal_match(index: PaperIndex, searcher, literal, hit: Hit, written) -> bool:
    """Whether the query as written (*literal*) matches *hit*: *written* holds the numbers
    of the listed papers it matches (None: not asked yet). A hit re-read after its file
    changed has no number in the listing's searcher: asked again."""
    from whoosh import query

    if hit.docnum is None:
        found = index.run(query.And([literal, query.Term("id", hit.id)]), limit=1, fresh=False)
        return bool(found)
    if written is None:
        written = matching(searcher, literal, [hit.docnum])
    return hit.docnum in written
