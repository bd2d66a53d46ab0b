"""A term's postings and a phrase's matches, read a block at a time from Whoosh's posting
lists (``W3LeafMatcher``'s own arrays) and scored as Whoosh's matchers score them: the
same operations on the same numbers, so the same floats.

Whoosh's matchers made about eight Python calls a posting (is_active, id, score, the
scorer, the field's length through two readers, next), and a phrase walked the
intersection of its words' matchers and their spans a document at a time: most of a
common word's search, and of a Chinese query's (a phrase of its bigrams).

In: a query of one segment (a ``Term`` or a ``Phrase``), that segment's searcher.
Out: docnum -> score, the class of the matcher Whoosh would have built and whether it
would match anything (``scoring._Node``); None for any other query, or a posting list
these readers do not know.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType

KEEP = 100_000  # postings kept scored for each segment's searcher (about 10 MB at most)


def scored(q, sub, context) -> tuple[Mapping[int, float], type, bool] | None:
    """*q*'s matches in the segment *sub*, scored; None where Whoosh's matcher must walk.

    What a searcher has scored is kept while it lives (``KEEP``): a searcher reads one
    commit of the index, so a term scores the same each time. papers browse keeps its
    searcher from one keystroke to the next, and each keystroke searches again the words
    typed before it: only the word being typed is read."""
    query = _whoosh().query
    kind = type(q)
    if kind is query.Term:
        key = (kind, q.fieldname, q.text, q.boost, context.weighting)
    elif kind is query.Phrase and q.slop == 1:
        key = (kind, q.fieldname, tuple(q.words), q.boost, context.weighting)
    else:
        return None
    kept = _KEPT.setdefault(sub, _Kept())
    read = kept.get(key)
    if read is None:
        read = _scored(q, sub, context)
        if read is not None:
            read = (MappingProxyType(read[0]), read[1], read[2])  # (shared: never changed)
            kept.put(key, read)
    return read


class _Kept:
    """A searcher's scored terms and phrases, the least recently used dropped first."""

    def __init__(self) -> None:
        self._items: OrderedDict = OrderedDict()
        self._postings = 0

    def get(self, key):
        read = self._items.get(key)
        if read is not None:
            self._items.move_to_end(key)
        return read

    def put(self, key, read) -> None:
        self._items[key] = read
        self._postings += len(read[0])
        while self._postings > KEEP and len(self._items) > 1:
            _key, (found, _cls, _active) = self._items.popitem(last=False)
            self._postings -= len(found)


_KEPT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # searcher -> _Kept


def _scored(q, sub, context) -> tuple[dict[int, float], type, bool] | None:
    query = _whoosh().query
    if type(q) is query.Term:
        matcher = q.matcher(sub, context)
        active = matcher.is_active()  # (before it is read to its end)
        if type(matcher) is _whoosh().matching.NullMatcherClass:
            return {}, type(matcher), False  # (a word the segment lacks)
        found = _term_scores(matcher, sub)
        return None if found is None else (found, type(matcher), active)
    if type(q) is query.Phrase and q.slop == 1:
        return _phrase_scores(q, sub, context)
    return None


def _term_scores(matcher, sub) -> dict[int, float] | None:
    """A term's matcher (boosted or not) read whole and scored; None if not ours to read."""
    leaf, boost = matcher, None
    if type(matcher) is _whoosh().matching.WrappingMatcher:
        leaf, boost = matcher.child, matcher.boost
    read = _read(leaf)
    if read is None:
        return None
    ids, weights, _values = read
    found = dict(zip(ids, _scores(leaf, sub, ids, weights), strict=True))
    if boost is not None:  # (WrappingMatcher.score: the child's times the boost)
        return {docnum: value * boost for docnum, value in found.items()}
    return found


def _phrase_scores(q, sub, context) -> tuple[dict[int, float], type, bool] | None:
    """A phrase (its words next to each other, in order) as ``Phrase.matcher`` finds it:
    the papers holding every word, where the words' positions run on from one another
    (``SpanNear2`` with slop 1); each scored as the words' intersection, summed in the
    shape of its binary tree, times the phrase's boost."""
    whoosh = _whoosh()
    if not q.words or q.fieldname not in sub.schema:
        return None
    if not sub.schema[q.fieldname].format.supports("positions"):
        return None  # (Whoosh's own matcher: its error)
    leaves = [whoosh.query.Term(q.fieldname, word).matcher(sub, context) for word in q.words]
    if any(type(leaf) is whoosh.matching.NullMatcherClass for leaf in leaves):
        return {}, whoosh.matching.NullMatcherClass, False  # (a word the segment lacks)
    reads = [_read(leaf) for leaf in leaves]
    if any(read is None for read in reads):
        return None
    postings = [dict(zip(ids, range(len(ids)), strict=True)) for ids, _w, _v in reads]
    rarest = min(range(len(reads)), key=lambda i: len(reads[i][0]))
    common = [d for d in reads[rarest][0] if all(d in p for p in postings)]
    decode = [leaf.format.decoder("positions") for leaf in leaves]
    found_ids = []
    for docnum in common:
        starts = None
        for k, (read, at, positions) in enumerate(zip(reads, postings, decode, strict=True)):
            shifted = {p - k for p in positions(read[2][at[docnum]])}
            starts = shifted if starts is None else starts & shifted
            if not starts:
                break
        if starts:
            found_ids.append(docnum)
    columns = []  # (each word's score in each matching paper)
    for leaf, (_ids, weights, _values), at in zip(leaves, reads, postings, strict=True):
        columns.append(_scores(leaf, sub, found_ids, [weights[at[docnum]] for docnum in found_ids]))
    found = {d: _tree_sum([c[i] for c in columns]) for i, d in enumerate(found_ids)}
    if q.boost != 1.0:  # (WrappingMatcher around the phrase's matcher)
        found = {docnum: value * q.boost for docnum, value in found.items()}
        return found, whoosh.matching.WrappingMatcher, bool(found)
    return found, whoosh.spans.SpanNear2.SpanNear2Matcher, bool(found)


def _tree_sum(values: list[float]) -> float:
    """``make_binary_tree(IntersectionMatcher, ...).score()``: halves summed, in order."""
    if len(values) == 1:
        return values[0]
    half = len(values) // 2
    return _tree_sum(values[:half]) + _tree_sum(values[half:])


def _read(leaf) -> tuple[list[int], list, list] | None:
    """A posting list's docnums, weights and raw values from where *leaf* stands (Whoosh's
    own readers of each block's arrays); None for a matcher of another kind or scorer."""
    whoosh = _whoosh()
    if type(leaf) is not whoosh.whoosh3.W3LeafMatcher or type(leaf.scorer) not in (
        whoosh.scoring.BM25FScorer,
        whoosh.scoring.WeightScorer,
    ):
        return None
    ids: list[int] = []
    weights: list = []
    values: list = []
    while leaf.is_active():
        if leaf._ids is None:
            leaf._read_ids()
        if leaf._weights is None:
            leaf._read_weights()
        if leaf._values is None:
            leaf._read_values()
        start, end = leaf._i, leaf._blocklength
        ids.extend(leaf._ids[start:end])
        weights.extend(leaf._weights[start:end])
        values.extend(leaf._values[start:end])
        leaf._next_block()
    return ids, weights, values


def _scores(leaf, sub, docnums: list[int], weights: list) -> list[float]:
    """Each posting's score as *leaf*'s scorer gives it: BM25F's ``bm25(idf, tf, fl,
    avgfl, B, K1)`` written out, fl as ``doc_field_length(docnum, field, 1)``; or the
    weight (an unscored field's ``WeightScorer``)."""
    scorer = leaf.scorer
    if type(scorer) is _whoosh().scoring.WeightScorer:
        return list(weights)
    idf, avgfl, b, k1 = scorer.idf, scorer.avgfl, scorer.B, scorer.K1
    k1_1, b_1 = k1 + 1, 1 - b
    fls = _lengths(sub, leaf._term[0], docnums)
    return [
        idf * ((w * k1_1) / (w + k1 * (b_1 + b * fl / avgfl)))
        for w, fl in zip(weights, fls, strict=True)
    ]


def _lengths(sub, fieldname: str, docnums: list[int]) -> list:
    """The field's length in each of *docnums*, as the segment's searcher *sub* reads it
    for BM25F (``doc_field_length(docnum, fieldname, 1)``): from our codec's length bytes."""
    from whoosh.util.numeric import byte_to_length

    from .codec import lengths_reader

    lengths = lengths_reader(sub.reader(), fieldname)
    if lengths is None:  # (another codec's segment: Whoosh's own reading)
        return [sub.doc_field_length(d, fieldname, 1) for d in docnums]
    table = [None, *map(byte_to_length, range(1, 256))]  # (byte 0: None, as Whoosh's)
    end = len(lengths)
    return [table[lengths[d]] if d < end else None for d in docnums]


@functools.cache
def _whoosh():
    """Whoosh's modules, imported when first asked for (commands import Whoosh lean)."""
    from types import SimpleNamespace

    from whoosh import matching, query, scoring
    from whoosh.codec import whoosh3
    from whoosh.query import spans

    return SimpleNamespace(
        matching=matching, query=query, scoring=scoring, whoosh3=whoosh3, spans=spans
    )
