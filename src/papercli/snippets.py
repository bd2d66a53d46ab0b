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
from functools import lru_cache

from .analysis import stem_latin
from .latextext import latex_to_text
from .text import CJK_RE, strip_controls

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


@lru_cache(maxsize=65536)
def _token(word: str) -> str:
    return stem_latin(word.lower())


def _caseless(head: str) -> str:
    """A pattern for *head* in any case, without re.IGNORECASE (which would make the
    regex engine case-fold big character classes: ~13 ms to compile)."""
    out = []
    for c in head:
        lower, upper = c.lower(), c.upper()
        if lower != upper and len(lower) == len(upper) == 1:
            out.append(f"[{re.escape(lower)}{re.escape(upper)}]")
        else:
            out.append(re.escape(c))
    return "".join(out)


@lru_cache(maxsize=64)
def _candidates(terms: frozenset[str]) -> re.Pattern | None:
    """Word-character runs that begin like one of the Latin terms: the only ones worth
    stemming (a common word's hits would otherwise stem every word of every abstract)."""
    heads = sorted({t[:4] for t in terms if not CJK_RE.match(t)})
    if not heads:
        return None
    return re.compile("|".join("∇" if h == "∇" else _caseless(h) + r"\w*" for h in heads))


def _latin_word_char(ch: str) -> bool:
    return (ch.isalnum() or ch == "_") and not CJK_RE.match(ch)


def _spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Where the query's terms occur in *text*, as the analyzer would find them.

    Latin runs (cut where a CJK character begins, as the analyzer cuts them) are
    lower-cased and stemmed exactly like the index does (so ``optimizers`` matches
    ``optim``); Chinese terms (bigrams and single characters) are found as substrings,
    which is what their tokens are. This avoids re-running the whole analyzer chain over
    every hit's abstract (~2 ms a hit).
    """
    spans = []
    candidates = _candidates(terms)
    if candidates is not None:
        for m in candidates.finditer(text):
            start, word = m.start(), m.group()
            if word != "∇" and start and _latin_word_char(text[start - 1]):
                continue  # inside a longer word
            cut = CJK_RE.search(word)
            if cut:
                word = word[: cut.start()]
            if _token(word) in terms:
                spans.append((start, start + len(word)))
    for term in terms:
        if CJK_RE.match(term):
            start = text.find(term)
            while start != -1:
                spans.append((start, start + len(term)))
                start = text.find(term, start + 1)
    return sorted(spans)


def _window(text: str, spans: list[tuple[int, int]], maxchars: int) -> tuple[int, int]:
    """The stretch of at most *maxchars* holding the most matches, widened to whole words."""
    best, best_count = spans[0][0], 0
    for start, _end in spans:
        count = sum(1 for s, e in spans if start <= s and e <= start + maxchars)
        if count > best_count:
            best, best_count = start, count
    begin = best - min(maxchars // 3, best)
    while begin > 0 and not text[begin - 1].isspace() and best - begin < maxchars // 2:
        begin -= 1  # do not start in the middle of a word
    end = min(len(text), begin + maxchars)
    while end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end -= 1  # nor end in one
    return begin, max(end, best + 1)


def mark(text: str, terms: frozenset[str], maxchars: int | None = None) -> str | None:
    """*text*, or its best passage of at most *maxchars*, with *terms* marked (None: no match)."""
    if not text or not terms:
        return None
    spans = _spans(text, terms)
    if not spans:
        return None
    begin, end = (0, len(text)) if maxchars is None else _window(text, spans, maxchars)
    out, pos = [], begin
    for start, stop in spans:
        if start < pos or stop > end:
            continue  # overlapping (联邦 / 邦学) or outside the passage
        out += [text[pos:start], MARK_START, text[start:stop], MARK_END]
        pos = stop
    out.append(text[pos:end])
    marked = "".join(out).strip()
    # 联邦 + 学习 → one mark for 联邦学习; Newton + Schulz → one for Newton-Schulz
    return _JOINED_RE.sub(lambda m: m.group(1), marked)


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
