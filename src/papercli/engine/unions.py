"""An OR matched by a plain tree of unions of its clauses (the query-class swap).

Below 5,000 documents Whoosh matches an OR of three or more clauses by filling and clearing
an array of 2,048 scores in Python for each block; above, by a tree balanced on each
clause's size (one more lookup of each term). A plain tree of the clauses that match
something ranks the same papers with the same scores, and was the fastest of the three at
63 and at 2,064 papers (BENCHMARKS.md, "unions").
"""

from __future__ import annotations

import functools
import os


def unions(q):
    """*q*, each of its ORs (changed in place) matched by a plain tree of unions."""
    from whoosh import query

    if type(q) is query.Or and q.scale is None:  # (a coordination bonus: Whoosh's own)
        q.__class__ = _plain_union_tree()
    for child in q.children():
        unions(child)
    return q


@functools.cache
def _plain_union_tree():
    """The OR class, made when first asked for (Whoosh's query module is imported lean,
    when a command starts)."""
    from whoosh import query
    from whoosh.matching import NullMatcher, UnionMatcher, WrappingMatcher
    from whoosh.util import make_binary_tree

    class PlainUnionTree(query.Or):
        def _matcher(self, subs, searcher, context):
            # (a clause matching nothing was walked at every step of every match)
            active = [m for m in (q.matcher(searcher, context) for q in subs) if m.is_active()]
            if not active:
                return NullMatcher()
            m = make_binary_tree(UnionMatcher, active)
            return WrappingMatcher(m, self.boost) if self.boost != 1.0 else m

    return PlainUnionTree


def raised_in_whoosh(exc: BaseException) -> bool:
    """Whether the innermost frame of *exc* is Whoosh's (reading a file it cannot parse)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and f"{os.sep}whoosh{os.sep}" in tb.tb_frame.f_code.co_filename
