"""The papers a search found only through a category (a digest page's heading), and the
passage that says so: ``category: 强化学习 (reinforcement learning)``.

In: the query (its ``category`` terms, as ``querying.rewrite`` writes them) and the hits it
ranked. Out: for each hit, the passage head naming its category, or None when its text
matches the query too.
"""

from __future__ import annotations

from ...engine.single import matching
from ...engine.unions import unions
from ..results.hits import Hit


class Categorized:
    """Which hits of *q* the query without its categories does not match."""

    def __init__(self, index, searcher, q, text_q) -> None:
        from whoosh import query

        self.index, self.searcher, self._q = index, searcher, q
        # category as indexed -> its term's weight (as the ranking scored it)
        self.asked: dict[str, float] = {}
        for leaf in text_q.leaves():
            if isinstance(leaf, query.Term) and leaf.fieldname == "category":
                text = leaf.text.decode() if isinstance(leaf.text, bytes) else leaf.text
                self.asked[text] = max(self.asked.get(text, 0.0), leaf.boost)
        # Categories that are alternatives of the whole query (强化学习, reinforcement
        # learning, 优化/理论, category:X): a paper scoring no more than its categories'
        # weight matched no word, and one scoring more matched the words. Otherwise
        # (muon 优化/理论), or with a filter (which scores too), the query without its
        # categories is asked of the papers.
        parts = text_q.subqueries if type(text_q) is query.Or and text_q.scale is None else []
        self.alternatives = _is_category(text_q) or any(_is_category(p) for p in parts)
        self.whole = q is text_q and self.alternatives
        self._textual = None

    def held(self, hit: Hit) -> list[str]:
        """The categories of *hit* the query asks for, as the record writes them."""
        return [
            written
            for written in hit.data.get("categories") or ()
            if _indexed(written) in self.asked
        ]

    def page(self, hits: list[Hit]) -> set[int] | None:
        """The numbers among *hits* (a page) the query without its categories matches,
        asked once of those whose score does not tell (None: none to ask)."""
        docnums = [
            h.docnum for h in hits if h.docnum is not None and not self._told(h) and self.held(h)
        ]
        return matching(self.searcher, self.textual, docnums) if docnums else None

    def head(self, hit: Hit, page: set[int] | None = None) -> tuple[str | None, bool]:
        """``category: 强化学习 (reinforcement learning)`` when *hit* was found only through
        its category (*page*: ``page``'s answer for the hit's page, if asked), else None;
        and whether a passage of its text may follow: not where it matched no word (a
        lone 优化 of 优化/理论 is no match), yes where the query asks for other words too
        (muon 优化/理论)."""
        held = self.held(hit)
        if not held or self._matches_text(hit, held, page):
            return None, True
        from ..concepts.categories import passage

        return passage(self.index.query_glossary(), held[0]), not self.alternatives

    def _told(self, hit: Hit) -> bool:
        return self.whole and hit.score is not None

    def _matches_text(self, hit: Hit, held: list[str], page: set[int] | None) -> bool:
        if self._told(hit):
            weight = sum(self.asked[_indexed(w)] for w in dict.fromkeys(held))
            return hit.score > weight + 1e-6
        if hit.docnum is not None and page is not None and hit.docnum in page:
            return True
        if hit.docnum is not None and page is not None:
            return False  # (asked with its page)
        from whoosh import query

        if hit.docnum is None:  # (re-read after its file changed: not of this searcher)
            found = query.And([self.textual, query.Term("id", hit.id)])
            return bool(self.index.run(found, limit=1, fresh=False))
        return hit.docnum in matching(self.searcher, self.textual, [hit.docnum])

    @property
    def textual(self):
        """The query without its categories (built when first asked)."""
        if self._textual is None:
            from whoosh import query

            def strip(node):
                if _is_category(node):
                    return query.NullQuery
                return node

            self._textual = unions(self._q.accept(strip).normalize())
        return self._textual


def _is_category(node) -> bool:
    from whoosh import query

    return isinstance(node, query.Term) and node.fieldname == "category"


def _indexed(written: str) -> str:
    """A category as the index holds it (``schema.document``)."""
    return written.replace(",", " ").strip().lower()
