"""Every match of a query with its score, as Whoosh's unlimited search scores it.

Whoosh's top-N search replaces sub-matchers and skips blocks that it bounds below the Nth
best score, and those bounds are not exact for our queries: at 10,000 papers 26 of 1,002
(query, limit) listings differed from the head of the full ranking, so what a listing
showed depended on its limit. Here every match is scored. The ORs and ANDs of a query are
evaluated as maps docnum -> score, summed in the shape of Whoosh's own matcher trees, so
that every score is the unlimited search's to the bit (float sums depend on their order);
any other query is Whoosh's own matcher, walked to its end.
"""

from __future__ import annotations

import functools

from . import postings


def scores(searcher, q) -> dict[int, float]:
    """docnum (of *searcher*, across its segments) -> score, for every match of *q*."""
    context = searcher.context()
    final = searcher.weighting.final if searcher.weighting.use_final else None
    found: dict[int, float] = {}
    for sub, offset in searcher.leaf_searchers():
        node = _evaluate(q, sub, context)
        if final is None:
            found.update((docnum + offset, score) for docnum, score in node.scores.items())
        else:
            for docnum, score in node.scores.items():
                found[docnum + offset] = final(searcher, docnum + offset, score)
    return found


class _Node:
    """The matches of a sub-query, and the matcher Whoosh would have built for it: its
    class (``make_weighted_tree`` breaks equal weights by comparing matchers, whose order is
    defined by their classes) and whether it matches anything in the segment (an OR's tree
    is of those clauses only: it shapes the sums, even where only some papers are read)."""

    __slots__ = ("active", "cls", "scores")

    def __init__(self, scores: dict[int, float], cls: type, active: bool) -> None:
        self.scores, self.cls, self.active = scores, cls, active

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Node) and self.cls is other.cls

    def __lt__(self, other: _Node) -> bool:
        return other.cls is self.cls

    def __gt__(self, other: _Node) -> bool:
        return not (self < other or self == other)

    __hash__ = None  # (mutable, compared by class only)


def _evaluate(q, sub, context, within: set[int] | None = None) -> _Node:
    """*q*'s matches in the segment *sub* (only those of *within*, when given)."""
    from whoosh import query
    from whoosh.util import make_binary_tree, make_weighted_tree

    from .unions import _plain_union_tree

    kind = type(q)
    if kind is not query.And and kind is not _plain_union_tree():
        return _walked(q, sub, context, within)
    m = _matching()
    subs = q.subqueries
    if not subs:
        return _Node({}, m.NullMatcherClass, False)
    if len(subs) == 1:  # (Whoosh's compound matcher: the one sub-query's, its boost unused)
        return _evaluate(subs[0], sub, context, within)
    if kind is query.And:  # (IntersectionMatchers on a tree weighted by estimated size)
        reader = sub.reader()
        sizes = [s.estimate_size(reader) for s in subs]
        nodes: list = [None] * len(subs)
        narrowed = within
        for i in sorted(range(len(subs)), key=sizes.__getitem__):  # (the rarest first)
            nodes[i] = _evaluate(subs[i], sub, context, narrowed)
            narrowed = set(nodes[i].scores)  # (a paper must match each: the rest look there)
        weighted = [(0 - size, node) for size, node in zip(sizes, nodes, strict=True)]
        node = make_weighted_tree(_intersection, weighted)
        if within is not None and not node.scores:  # (none of those: any in the segment?)
            node.active = bool(_evaluate(q, sub, context).scores)
    else:  # (unions.PlainUnionTree: UnionMatchers of the clauses that match, in order)
        nodes = [_evaluate(s, sub, context, within) for s in subs]
        active = [n for n in nodes if n.active]
        if not active:
            return _Node({}, m.NullMatcherClass, False)
        node = make_binary_tree(_union, active)
    if q.boost != 1.0:  # (a WrappingMatcher)
        boosted = {d: s * q.boost for d, s in node.scores.items()}
        return _Node(boosted, m.WrappingMatcher, node.active)
    return node


def _walked(q, sub, context, within: set[int] | None) -> _Node:
    """*q*'s matches: a term's or a phrase's read from its postings (``postings``), any
    other's by its own Whoosh matcher, every match read (no quality bound: nothing
    skipped); with *within*, only those, skipped to when they are few beside the matches."""
    few = within is not None and len(within) * 8 < q.estimate_size(sub.reader())
    read = None if few else postings.scored(q, sub, context)
    if read is not None:
        found, cls, active = read
        if within is not None:
            found = {d: s for d, s in found.items() if d in within}
        return _Node(found, cls, active)
    matcher = q.matcher(sub, context)
    found, active = {}, matcher.is_active()
    if few:
        for docnum in sorted(within):
            if not matcher.is_active():
                break
            if matcher.id() < docnum:
                matcher.skip_to(docnum)
            if matcher.is_active() and matcher.id() == docnum:
                found[docnum] = matcher.score()
        return _Node(found, type(matcher), active)
    while matcher.is_active():
        found[matcher.id()] = matcher.score()
        matcher.next()
    if within is not None:
        found = {d: s for d, s in found.items() if d in within}
    return _Node(found, type(matcher), active)


def _union(a: _Node, b: _Node) -> _Node:
    """UnionMatcher(a, b): a paper of both scores a + b (float + commutes, so the larger
    map is copied and the smaller added in)."""
    big, small = (a.scores, b.scores) if len(a.scores) >= len(b.scores) else (b.scores, a.scores)
    found = dict(big)
    for docnum, score in small.items():
        other = found.get(docnum)
        found[docnum] = score if other is None else other + score
    return _Node(found, _matching().UnionMatcher, a.active or b.active)


def _intersection(a: _Node, b: _Node) -> _Node:
    """IntersectionMatcher(a, b): the papers of both, scored a + b."""
    sa, sb = a.scores, b.scores
    if len(sa) > len(sb):
        found = {d: sa[d] + s for d, s in sb.items() if d in sa}
    else:
        found = {d: s + sb[d] for d, s in sa.items() if d in sb}
    return _Node(found, _matching().IntersectionMatcher, bool(found))


@functools.cache
def _matching():
    from whoosh import matching

    return matching
