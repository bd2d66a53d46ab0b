"""Why a paper matched: a passage of its abstract or summary with the matched words marked.

Matched words are found by running the same bilingual analyzer over the text and
comparing its tokens with the query's terms (prefix and fuzzy terms expanded against the
index), so stemmed English (``optimizers`` for ``optimizer``) and Chinese inside a longer
run (``联邦学习`` inside ``聚类联邦学习框架``) are both marked.

A snippet is a string with the matches between ``MARK_START`` and ``MARK_END``; renderers
turn the marks into a style (terminal) or drop them (plain text, JSON).
"""

from __future__ import annotations

import re

from .latextext import latex_to_text
from .text import strip_controls

MARK_START, MARK_END = "\ue010", "\ue011"
_JOINED_RE = re.compile(f"{MARK_END}([-‐]?){MARK_START}")
SNIPPET_FIELDS = ("abstract", "summary", "title", "name")


def query_terms(q, reader) -> frozenset[str]:
    """The words of *q* (expanded for prefix/fuzzy terms) that occur in the text fields."""
    terms = set()
    for leaf in q.leaves():
        if leaf.field() not in SNIPPET_FIELDS:
            continue
        for field, text in leaf.expanded_terms(reader, phrases=True):
            if field not in SNIPPET_FIELDS:
                continue
            btext = text if isinstance(text, bytes) else text.encode("utf-8")
            if (field, btext) in reader:
                terms.add(btext.decode("utf-8"))
    return frozenset(terms)


def _formatter():
    from whoosh.highlight import Formatter, get_text

    class Marker(Formatter):
        between = " … "

        def format_token(self, text, token, replace=False):
            return MARK_START + get_text(text, token, replace) + MARK_END

    return Marker()


def mark(text: str, terms: frozenset[str], maxchars: int | None = None) -> str | None:
    """*text*, or its best passage of at most *maxchars*, with *terms* marked (None: no match)."""
    from whoosh.highlight import ContextFragmenter, WholeFragmenter, highlight

    from .analysis import bilingual_analyzer

    if not text or not terms:
        return None
    if maxchars is None:
        fragmenter = WholeFragmenter(charlimit=None)
    else:
        fragmenter = ContextFragmenter(maxchars=maxchars, surround=max(20, maxchars // 3))
    marked = highlight(
        text, terms, bilingual_analyzer(), fragmenter, _formatter(), top=1, mode="index"
    )
    # 联邦 + 学习 → one mark for 联邦学习; Newton + Schulz → one for Newton-Schulz
    marked = _JOINED_RE.sub(lambda m: m.group(1), marked)
    return marked or None


def snippet(data: dict, terms: frozenset[str], maxchars: int = 200) -> str | None:
    """The passage that best shows why the paper matched: abstract, then summary."""
    for key in ("abstract", "summary_zh"):
        text = strip_controls(latex_to_text(data.get(key) or ""))
        marked = mark(text, terms, maxchars)
        if marked:
            return marked
    return None


def plain(marked: str) -> str:
    return marked.replace(MARK_START, "").replace(MARK_END, "")


def segments(marked: str) -> list[tuple[str, bool]]:
    """Split a marked string into (text, is_match) pieces."""
    out = []
    for i, piece in enumerate(marked.split(MARK_START)):
        if i == 0:
            out.append((piece, False))
            continue
        match, _sep, rest = piece.partition(MARK_END)
        out += [(match, True), (rest, False)]
    return [(t, m) for t, m in out if t]
