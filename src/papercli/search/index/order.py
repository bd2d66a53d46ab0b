"""The order a listing reads its hits in: best first (equal scores by id), or by title."""

from __future__ import annotations

from collections.abc import Iterator

from ...engine.unions import unions
from .schema import ids_by_docnum

FIRST = 20  # hits of an unlimited listing ranked before the rest (see ranked_hits)
MANY = 10_000  # matches (as Whoosh estimates them) from which those come first


def ranked_hits(
    searcher, q, limit: int | None, sort: bool, allow=None, restrict=None
) -> Iterator[tuple[float, int]]:
    """(score, docnum) of *q*'s matches, best first (or by title when *sort*); only the
    docnums of *allow* (None: all) and none of *restrict*.

    Unlimited and by score, with ``MANY`` matches or more, the best ``FIRST`` come from a
    top-N search first, so that the first line is out before every match is ranked
    (Whoosh skips blocks that cannot reach the top); the rest follow from the full
    ranking, less those already given. With fewer matches there is little to skip, and
    the top-N search would only rank twice."""
    from ...engine.ranking import ranked

    order, q = ("sortkey" if sort else None), unions(q)
    # A library of fewer than MANY papers has fewer matches: no estimate is asked for (it
    # looks up each term's count, seven a word of the query, and is capped at that size).
    few = searcher.reader().doc_count_all() < MANY
    if limit is not None or sort or few or q.estimate_size(searcher.reader()) < MANY:
        yield from ranked(searcher, q, limit, order, ids_by_docnum(searcher), allow, restrict)
        return
    given = set()
    ids = ids_by_docnum(searcher)
    for score, docnum in ranked(searcher, q, FIRST, None, ids, allow, restrict):
        given.add(docnum)
        yield score, docnum
    if len(given) < FIRST:
        return  # (that was every match)
    for score, docnum in ranked(searcher, q, None, None, ids, allow, restrict):
        if docnum not in given:
            yield score, docnum
