"""Whether a concept the query names fits a paper that names it only in passing: the query's
half of telling a passing mention (``aside`` reads the other half when a paper is indexed).

In: the searcher, the concepts the query names, and each concept's broader ones. Out: the
papers to hold back (docnum -> id): those that name every concept of the query they speak of
only in passing (``aside:`` in the index), whose other concepts the concept does not fit, by
their mean pointwise mutual information with it over the library's other papers
(add-half smoothed), below one nat.

On the four judged sets the passing role alone would have dropped 22 right hits of
tests/data/judged.yaml with 22 wrong; with a fit below 1.0, none of 16 wrong (the right ones
fit from 1.06 up, the wrong ones up to 0.64), and on the blind sets 2 wrong, no right one
(``benchmarks/passing.py``).
"""

from __future__ import annotations

import json
import math

FIT = 1.0


def held_back(searcher, named: set[str], broader) -> dict[int, str]:
    """The papers (docnum -> id) that name each concept of *named* they speak of only in
    passing, and whose other concepts it does not fit. *broader*: a callable giving each
    concept's broader ones (called only if a paper names one of *named* in passing)."""
    from collections import Counter

    from whoosh.reading import TermNotFound

    from ..engine.codec import stored_fields_reader

    reader = searcher.reader()

    def docs(field: str, cid: str) -> set[int]:
        try:  # (the posting list's ids alone: no matcher scoring them, ~3x the time)
            return set(reader.postings(field, cid).all_ids())  # (deleted ones left out)
        except TermNotFound:
            return set()

    stored = stored_fields_reader(searcher)

    def concepts(docnum: int) -> set[str]:
        return set(json.loads(stored(docnum)["concepts"] or "{}"))

    aside = {cid: docs("aside", cid) for cid in named}
    candidates = set().union(*aside.values())
    if not candidates:
        return {}
    family = narrower(named, broader())
    with_query = set().union(*(docs("concept", cid) for cid in named))
    both = Counter()  # concept -> the papers that have it and one of *named*
    # One read a paper (reading a posting list a concept walked each id through Python).
    for docnum in with_query:
        both.update(concepts(docnum))
    deleted = Counter()  # (a document frequency counts the deleted versions of records)
    if reader.has_deletions():
        for docnum in range(reader.doc_count_all()):
            if reader.is_deleted(docnum):
                deleted.update(concepts(docnum))
    others = reader.doc_count() - 1
    frequency: dict[str, int] = {}  # (summed over the segments: once a concept)
    held = {}
    for docnum in sorted(candidates):
        fields = stored(docnum)
        have = set(json.loads(fields["concepts"] or "{}"))
        if not all(docnum in aside[cid] for cid in named & have):
            continue
        near = len(with_query) - (docnum in with_query)
        scores = []
        for cid in have - family:
            pair = both[cid] - (docnum in with_query)
            if cid not in frequency:
                frequency[cid] = reader.doc_frequency("concept", cid) - deleted[cid]
            alone = frequency[cid] - 1
            scores.append(math.log((pair + 0.5) * others / ((near + 0.5) * (alone + 0.5))))
        if (sum(scores) / len(scores) if scores else 0.0) < FIT:
            held[docnum] = fields["id"]
    return held


def narrower(named: set[str], broader: dict[str, list[str]]) -> set[str]:
    """*named* and every concept narrower than one of them (*broader*: each concept's
    broader ones)."""
    family, grew = set(named), True
    while grew:
        grew = False
        for cid, up in broader.items():
            if cid not in family and family.intersection(up):
                family.add(cid)
                grew = True
    return family
