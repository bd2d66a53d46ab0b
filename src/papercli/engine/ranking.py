"""The best hits of a query, equal scores ordered by paper id.

Every match is scored (``scoring.scores``) and the best kept: Whoosh's top-N search
dropped real hits, so a listing depended on its limit. Whoosh orders equal scores by
docnum, and docnums depend on the order papers were indexed in: which indexing process took
which batch, and what was re-indexed since. Here ties go by the paper's id, whatever the
index's history; an id is read (from its stored fields) only where a tie decides the order.
"""

from __future__ import annotations

from collections.abc import Callable

from .scoring import scores


def ranked(
    searcher,
    q,
    limit: int | None,
    sortedby=None,
    id_of: Callable[[int], str] | None = None,
    allow: set[int] | None = None,
    restrict: set[int] | None = None,
) -> list[tuple[float, int]]:
    """(score, docnum) of the best *limit* matches of *q* (every match: None), best first
    and equal scores by id; or, with *sortedby*, in that order (a sort key of its own for
    each paper, or Whoosh's docnum order among equal keys). *id_of*: docnum -> paper id,
    where the schema has a cheaper way than the stored fields' "id". Only the docnums of
    *allow* (None: all), none of *restrict*."""
    if allow is not None and not allow:
        return []  # (Whoosh reads an empty set as no filter)
    if sortedby is not None:
        return searcher.search(
            q, limit=limit, sortedby=sortedby, filter=allow, mask=restrict or None
        ).top_n
    found = scores(searcher, q)
    if allow is not None:
        found = {d: s for d, s in found.items() if d in allow}
    if restrict:
        found = {d: s for d, s in found.items() if d not in restrict}
    items = sorted(((s, d) for d, s in found.items()), key=lambda item: -item[0])
    if limit is not None and limit < len(items):
        end = limit  # (the run of scores equal to the last kept one is ordered whole)
        while end < len(items) and items[end][0] == items[limit - 1][0]:
            end += 1
        items = items[:end]
    _ties_by_id(items, _IdReader(searcher, id_of))
    return items if limit is None else items[:limit]


def _ties_by_id(items: list[tuple[float, int]], id_of: Callable[[int], str]) -> None:
    """Order each run of equal scores of *items* (sorted by score) by paper id, in place."""
    start = 0
    while start < len(items):
        end = start + 1
        while end < len(items) and items[end][0] == items[start][0]:
            end += 1
        if end - start > 1:
            items[start:end] = sorted(items[start:end], key=lambda item: id_of(item[1]))
        start = end


class _IdReader:
    """docnum -> paper id, each read once."""

    def __init__(self, searcher, id_of: Callable[[int], str] | None = None) -> None:
        if id_of is None:
            from .codec import stored_fields_reader

            stored = stored_fields_reader(searcher)
            id_of = lambda docnum: stored(docnum)["id"]  # noqa: E731
        self._id_of = id_of
        self._ids: dict[int, str] = {}

    def __call__(self, docnum: int) -> str:
        rid = self._ids.get(docnum)
        if rid is None:
            rid = self._ids[docnum] = self._id_of(docnum)
        return rid
