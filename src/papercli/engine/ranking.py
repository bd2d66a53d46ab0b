"""The best hits of a query, equal scores ordered by paper id.

Whoosh orders equal scores by docnum, and docnums depend on the order papers were indexed
in: which indexing process took which batch, and what was re-indexed since. The same
library then listed tied papers in another order after ``papers index --rebuild``. Here
ties go by the paper's id, whatever the index's history. A paper's id is read (from its
stored fields) only when its score ties with another's where the order is decided.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from heapq import heappush, heapreplace

from whoosh.collectors import FilterCollector, TopCollector, UnlimitedCollector


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
    *allow* (None: all), none of *restrict*: a set, as a query's ``AndNot`` tripped an
    assertion of Whoosh's when the top-N search skipped blocks."""
    if allow is not None and not allow:
        return []  # (Whoosh reads an empty set as no filter)
    if sortedby is not None:
        return searcher.search(
            q, limit=limit, sortedby=sortedby, filter=allow, mask=restrict or None
        ).top_n
    ids = _IdReader(searcher, id_of)
    collector = _Unlimited(ids) if limit is None else _Top(ids, limit)
    if allow is not None or restrict:
        collector = FilterCollector(collector, allow=allow, restrict=restrict or None)
    searcher.search_with_collector(q, collector)
    return collector.results().top_n


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


class _Top(TopCollector):
    """Whoosh's top-N collector, with ties broken by id. The heap holds (score, id rank,
    docnum): its least item is the lowest score and, among those, the greatest id. A
    block of postings is skipped only when it cannot reach the least score (Whoosh also
    skipped those that could only tie it)."""

    def __init__(self, ids: _IdReader, limit: int) -> None:
        super().__init__(limit=limit)
        self._id = ids

    def _collect(self, global_docnum, score):
        items = self.items
        self.total += 1
        if len(items) < self.limit:
            heappush(items, (score, _Descending(self._id(global_docnum)), global_docnum))
        elif score > items[0][0] or (
            score == items[0][0] and self._id(global_docnum) < items[0][1].rid
        ):
            heapreplace(items, (score, _Descending(self._id(global_docnum)), global_docnum))
        else:
            return 0
        if len(items) == self.limit:
            self.minscore = math.nextafter(items[0][0], -math.inf)
        return 0 - score

    def remove(self, global_docnum):
        self.items = [item for item in self.items if item[2] != global_docnum]
        self.items.sort()  # (a sorted list is a heap)
        self.minscore = 0

    def results(self):
        items = sorted(self.items, key=lambda item: (-item[0], item[1].rid))
        return self._results([(score, docnum) for score, _rid, docnum in items])


class _Unlimited(UnlimitedCollector):
    """Whoosh's collector of every match, with ties broken by id."""

    def __init__(self, ids: _IdReader) -> None:
        super().__init__()
        self._id = ids

    def results(self):
        items = self.items
        items.sort(key=lambda item: (-item[0], item[1]))
        start = 0
        while start < len(items):  # (each run of equal scores sorted by id)
            end = start + 1
            while end < len(items) and items[end][0] == items[start][0]:
                end += 1
            if end - start > 1:
                items[start:end] = sorted(items[start:end], key=lambda item: self._id(item[1]))
            start = end
        return self._results(items, docset=self.docset)


class _Descending:
    """A paper id that sorts in reverse: the heap's least item has the greatest id."""

    __slots__ = ("rid",)

    def __init__(self, rid: str) -> None:
        self.rid = rid

    def __lt__(self, other: _Descending) -> bool:
        return self.rid > other.rid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.rid == other.rid
