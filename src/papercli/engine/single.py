"""Which of a few documents a query matches, without collecting all its matches.

A listing asks, for the 20 papers it shows, whether the query as written matches each.
Collecting every match of that query cost 17 ms for ``large language model`` at 10,000
papers; one matcher per segment, moved forward through the sorted documents, reads only
the postings up to the last of them.
"""

from __future__ import annotations


def matching(searcher, q, docnums) -> set[int]:
    """The numbers among *docnums* (of *searcher*'s documents) of those *q* matches."""
    out = set()
    wanted = sorted(set(docnums))
    for leaf, offset in searcher.leaf_searchers():
        inside = [d - offset for d in wanted if offset <= d < offset + leaf.doc_count_all()]
        if not inside:
            continue
        m = q.matcher(leaf)
        for d in inside:
            if m.is_active() and m.id() < d:
                m.skip_to(d)
            if not m.is_active():
                break
            if m.id() == d:
                out.add(d + offset)
    return out
