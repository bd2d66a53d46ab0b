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
    passages: int | None = None,
) -> Iterator[Hit]:
    """Best matches first, each with its score and a snippet showing why it matched, one
    at a time as they are consumed (see ``PaperIndex.stream``). *exact*: no bridge through
    the glossary (only the words as written, and their forms). The papers that name the
    query's concepts only in passing (``concepts.passing``) are listed after the others, marked
    (``IN_PASSING``); without *passing*, left out. The query is parsed, and a malformed one
    rejected, before the first hit is asked for. *passages*: only the first so many hits
    of the query get their snippet (None: every hit); ``passages`` makes the others'."""
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
    hits = _stream(index, filtered(q), q, pasted, limit, bridges, snippet_cells, passing, passages)
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


def _stream(
    index, q, text_q, pasted, limit, bridges, snippet_cells, passing=True, passages=None
) -> Iterator[Hit]:
    """The hits of *q* with their snippets (*text_q*: the query without the filters); the
    paper whose id or link was pasted (*pasted*) first. The papers that name the query's
    concepts only in passing come after the others, marked so (without *passing*, not
    at all). Only the first *passages* hits get their snippet (None: every hit)."""
    with index.searcher() as searcher:
        why = _Passages(index, searcher, q, text_q, bridges, snippet_cells)
        given = 0

        def shown(hit: Hit, aside: bool = False, page: dict | None = None) -> Hit:
            nonlocal given
            given += 1
            if passages is not None and given > passages:
                hit.pending = True
                return why.pending(hit, aside)
            return why.shown(hit, aside, page or {})

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
            if why.paged and more is not None and passages is None:
                hits = list(hits)  # (a page: asked of its papers alone)
                page = why.page(hits)
            for hit in hits:
                if hit.id in ids:
                    continue
                if left is not None:
                    if left == 0:
                        return
                    left -= 1
                ids.add(hit.id)
                yield shown(hit, marked, page)


def passages(
    index: PaperIndex,
    text: str,
    hits: list[Hit],
    filters: Filters | None = None,
    snippet_cells: int = 200,
    resolve_tag: TagResolver | None = None,
    exact: bool = False,
) -> None:
    """The snippets of *hits*, listed by ``search_stream`` of *text* without them (its
    *passages*), as it would have made them: from the index as it is."""
    from whoosh import query

    waiting = [h for h in hits if h.pending]
    if not waiting:
        return
    bridges: dict[str, str] = {}
    extra = filter_query(filters or Filters())
    text_q = parse_query(index, text, resolve_tag, exact, bridges)
    q = text_q if extra is None else query.And([text_q, extra])
    with index.searcher() as searcher:
        why = _Passages(index, searcher, q, text_q, bridges, snippet_cells)
        numbered = []
        for hit in waiting:  # (numbered as this searcher numbers them; unchanged after)
            docnum = searcher.document_number(id=hit.id)
            numbered.append((hit, hit.docnum))
            hit.docnum = docnum
        try:
            page = why.page(waiting) if why.paged else {}
            for hit, _docnum in numbered:
                why.shown(hit, hit.passing, page)
                hit.pending = False
        finally:
            for hit, docnum in numbered:
                hit.docnum = docnum


class _Passages:
    """Why each hit of *q* matched (*text_q*: the query without the filters): its snippet,
    made from the papers' text within *searcher*."""

    def __init__(self, index, searcher, q, text_q, bridges, snippet_cells) -> None:
        from ..results.marking import query_terms

        self.index, self.searcher, self.bridges = index, searcher, bridges
        self.cells = snippet_cells
        self.terms = query_terms(text_q, searcher.reader())
        # the papers found only through a category (its passage says which)
        self.categorized = Categorized(index, searcher, q, text_q)
        self.asked = bool(self.categorized.asked)
        # the papers the query as written matches: the others were found through the glossary
        self.literal = unions(_literal(q)) if bridges else None
        self.rendered = {
            key: key.removeprefix(TRANSLATED) for key in bridges if key.startswith(TRANSLATED)
        }  # (梯度 → gradient: as the paper's words)
        self.paged = self.literal is not None or self.asked

    def page(self, hits: list[Hit]) -> dict:
        """What the snippets of *hits* (a page) ask of the index, asked of them at once."""
        page = {}
        if self.literal is not None:
            docnums = [h.docnum for h in hits if h.docnum is not None]
            page["literal"] = matching(self.searcher, self.literal, docnums)
        if self.asked:
            page["category"] = self.categorized.page(hits)
        return page

    def passage(self, hit: Hit, page: dict, room: int) -> str | None:
        from ..results import snippets

        texts = {name: hit.text(name) for name in ("abstract", "summary_zh")}
        if self.literal is not None and not _literal_match(
            self.index, self.searcher, self.literal, hit, page.get("literal")
        ):
            texts["title"] = hit.text("title")
            rendered = self.rendered
            found = {**rendered, **hit.concepts} if rendered else hit.concepts
            # (or the literal passage: "sampled" for 采样, a stem whose rendering
            # "sampling" is not written in it)
            return snippets.bridged(texts, self.bridges, found, room) or snippets.snippet(
                texts, self.terms, room
            )
        return snippets.snippet(texts, self.terms, room)

    def shown(self, hit: Hit, aside: bool, page: dict) -> Hit:
        from ..results.passage import cells

        if self.asked:
            head, text = self.categorized.head(hit, page.get("category"))
        else:
            head, text = None, True
        if head is None:
            hit.snippet = self.passage(hit, page, self.cells)
        elif text:  # (then where its text holds the query's other words: muon 优化/理论)
            room = max(40, self.cells - cells(head, 0, len(head)) - 3)
            hit.snippet = " · ".join(filter(None, [head, self.passage(hit, page, room)]))
        else:
            hit.snippet = head
        if aside:
            hit.snippet = IN_PASSING + (hit.snippet or "")
        return self.pending(hit, aside)

    def pending(self, hit: Hit, aside: bool) -> Hit:
        """*hit* without its snippet (``passages`` makes it)."""
        hit.passing = hit.passing or aside
        hit.terms = self.terms
        return hit


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
