"""Why a paper matched: a passage of its abstract or summary with the matched words marked.

In: a hit's texts (their plain readings) and the query's words (``marking.query_terms``),
or, for a paper found only through the glossary, the concepts that found it. Out: the
snippet, a string marked as ``marking`` marks it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...text import strip_controls
from ...text.variants import normalize, normalize_with_origins
from .marking import mark, mark_spans
from .passage import cells


def snippet(
    texts: Mapping[str, str | None], terms: frozenset[str], maxcells: int = 200
) -> str | None:
    """The passage that best shows why the paper matched: from the abstract, else the
    summary (*texts*: their plain readings, as ``Hit.text`` gives them)."""
    for key in ("abstract", "summary_zh"):
        marked = mark(strip_controls(texts.get(key) or ""), terms, maxcells)
        if marked:
            return marked
    return None


def bridged(
    texts: Mapping[str, str | None],
    bridges: Mapping[str, str],
    found: Mapping[str, str],
    maxcells: int = 200,
) -> str | None:
    """For a paper found only through the glossary: how it matched, then where
    (``联邦学习 → federated learning: …a passage with it marked…``). *bridges*: concept id
    -> the query's words that named it; *found*: concept id -> the paper's words that speak
    of it (stored when it was indexed: a name or a sign of the concept). The passage is
    the one that holds the most of the query's concepts (``大模型微调``: LLM and 微调), each
    marked; the head names those the paper speaks of in other words."""
    best: tuple[str, list[tuple[str, tuple[int, int]]]] | None = None
    wanted = len(set(bridges.values()))
    for key in ("abstract", "summary_zh", "title"):
        text = strip_controls(texts.get(key) or "")
        located: dict[str, list[tuple[int, int]]] = {}  # the query's words -> where
        for cid, asked in bridges.items():
            term = found.get(cid)
            spans = _find_all(text, term) if term and asked not in located else []
            if spans:
                located[asked] = spans
        if located and (best is None or len(located) > len(best[1])):
            best = (text, _closest(located))
            if len(located) == wanted:
                break  # (every concept in one passage: no need to look further)
    if best is None:
        return None
    text, located = best
    arrows = [(asked, text[start:end]) for asked, (start, end) in located]
    other = [a for a in arrows if normalize(a[0]).lower() != normalize(a[1]).lower()]
    head = ", ".join(f"{asked} → {words}" for asked, words in other or arrows[:1]) + ": "
    spans, last = [], -1
    for start, end in sorted(span for _asked, span in located):
        if start >= last:  # (two concepts in one word: the first)
            spans.append((start, end))
            last = end
    room = max(40, maxcells - cells(head, 0, len(head)))
    return head + (mark_spans(text, spans, room) or "")


def _find_all(text: str, term: str) -> list[tuple[int, int]]:
    """Where *term* (words of the paper as they were matched: in the one spelling) is in
    *text* as written: each place, up to ``_PLACES``."""
    found = _places(text, term)
    if found:
        return found
    # A common word's rendering, as the query wrote it: "gradient" for "Gradient".
    if term.isascii() and len(lowered := text.lower()) == len(text):
        found = _places(lowered, term.lower())
        if found:
            return found
    if text.isascii() and "_" not in text:
        return []
    normalized, origins = normalize_with_origins(text)
    return [(origins[start], origins[end - 1] + 1) for start, end in _places(normalized, term)]


_PLACES = 50  # (a word's places a passage is chosen among: an abstract says "learning" ~10)


def _places(text: str, term: str) -> list[tuple[int, int]]:
    out, start = [], text.find(term) if term else -1
    while start != -1 and len(out) < _PLACES:
        out.append((start, start + len(term)))
        start = text.find(term, start + 1)
    return out


def _closest(located: dict[str, list[tuple[int, int]]]) -> list[tuple[str, tuple[int, int]]]:
    """One place for each of the query's words, as close together as they come (the first
    such): AtteNT's 训练 first stands in 训练过程, far from its only 加速, which 加速训练
    writes beside another 训练."""
    from bisect import bisect_left

    def nearest(spans: list[tuple[int, int]], at: int) -> tuple[int, int]:
        i = bisect_left(spans, (at,))  # (places are in order: two to compare, not all)
        return min(spans[max(i - 1, 0) : i + 1], key=lambda s: abs(s[0] - at))

    best, best_key = None, None
    for anchor_word, places in located.items():
        for anchor in places:
            pick = {word: nearest(spans, anchor[0]) for word, spans in located.items()}
            pick[anchor_word] = anchor
            key = (
                max(e for _s, e in pick.values()) - min(s for s, _e in pick.values()),
                min(s for s, _e in pick.values()),
            )
            if best_key is None or key < best_key:
                best, best_key = pick, key
    return list(best.items())
