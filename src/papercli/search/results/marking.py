"""Where a query's words stand in a text, and the text with them marked.

Matched words are found by running the same bilingual analyzer over the text and
comparing its tokens with the query's terms (prefix and fuzzy terms expanded against the
index), so stemmed English (``optimizers`` for ``optimizer``) and Chinese inside a longer
run (``联邦学习`` inside ``聚类联邦学习框架``) are both marked.

A snippet is a string with the matches between ``MARK_START`` and ``MARK_END``; renderers
turn the marks into a style (terminal) or drop them (plain text, JSON).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import lru_cache

from ...text import CJK_RE, HYPHENATED_RE, STOP_WORDS
from ...text.variants import GREEK, normalize, normalize_with_origins, traditional_chars
from ..analysis import TOKEN_RE, stem_latin
from .passage import in_word, window

MARK_START, MARK_END = "\ue010", "\ue011"
PHRASE = "\t"  # in a term: English words asked for together, then their slop ("learn rate\t3")
_JOINED_RE = re.compile(f"{MARK_END}([-‐]?){MARK_START}")
SNIPPET_FIELDS = ("abstract", "summary", "title", "name")


def query_terms(q, reader) -> frozenset[str]:
    """The words of *q* (expanded for prefix/fuzzy terms) that occur in the text fields.

    A Chinese word of the query is one term, not its bigrams: for 联邦学习 the 学习 inside
    表征学习 is not marked. English words asked for together (a name, a quoted phrase) are
    one term too (``PHRASE``): for "learning rate" the "Learning" of "Deep Learning" is not
    marked."""
    terms = set()
    for leaf in q.leaves():
        if leaf.field() not in SNIPPET_FIELDS:
            continue
        chinese = _chinese_phrase(leaf)
        if chinese:
            terms.add(chinese)
            continue
        words = getattr(leaf, "words", None)
        if words and len(words) > 1 and not any(CJK_RE.search(w) for w in words):
            if all((leaf.field(), w.encode("utf-8")) in reader for w in words):
                terms.add(" ".join(words) + PHRASE + str(getattr(leaf, "slop", 1)))
            continue
        for field, text in leaf.expanded_terms(reader, phrases=True):
            if field not in SNIPPET_FIELDS:
                continue
            btext = text if isinstance(text, bytes) else text.encode("utf-8")
            if (field, btext) in reader:
                terms.add(btext.decode("utf-8"))
    return frozenset(terms)


def _chinese_phrase(leaf) -> str | None:
    """The Chinese text a phrase of overlapping bigrams stands for (联邦 邦学 学习 →
    联邦学习), or None for any other query leaf."""
    words = getattr(leaf, "words", None)
    if not words or not all(
        len(w) == 2 and CJK_RE.match(w[0]) and CJK_RE.match(w[1]) for w in words
    ):
        return None
    if any(a[1] != b[0] for a, b in itertools.pairwise(words)):
        return None
    return words[0] + "".join(w[1] for w in words[1:])


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
def _candidates(terms: frozenset[str]) -> tuple[re.Pattern, re.Pattern] | None:
    """Word-character runs that begin like one of the Latin terms: the only ones worth
    stemming (a common word's hits would otherwise stem every word of every abstract).
    Two patterns: one for the text in any case, and one for the text lower-cased, which
    the regular expression engine scans for its literal start several times faster."""
    words = [w for t in terms for w in (t.split(PHRASE)[0].split() if PHRASE in t else [t])]
    heads = sorted({w[:4] for w in words if not CJK_RE.match(w)})
    if not heads:
        return None
    caseless = "|".join("∇" if h == "∇" else _caseless(h) + r"\w*" for h in heads)
    lower = "|".join("∇" if h == "∇" else re.escape(h) + r"\w*" for h in heads)
    return re.compile(caseless), re.compile(lower)


def _candidate_matches(text: str, patterns: tuple[re.Pattern, re.Pattern]) -> Iterator:
    """(start, end) of each candidate run in *text*."""
    caseless, lower = patterns
    lowered = text.lower()
    if len(lowered) != len(text):  # (a few letters lower-case to two characters)
        return ((m.start(), m.end()) for m in caseless.finditer(text))
    return ((m.start(), m.end()) for m in lower.finditer(lowered))


@lru_cache(maxsize=64)
def _chinese_terms(terms: frozenset[str]) -> tuple[str, ...]:
    return tuple(t for t in terms if CJK_RE.match(t))


@lru_cache(maxsize=64)
def _phrases(terms: frozenset[str]) -> tuple[tuple[tuple[tuple[str, ...], int], ...], frozenset]:
    """The English phrases among *terms*, each its words (as indexed) and slop, and all
    their words."""
    out = []
    for t in terms:
        if PHRASE in t:
            words, slop = t.split(PHRASE)
            out.append((tuple(words.split()), int(slop)))
    return tuple(out), frozenset(w for words, _slop in out for w in words)


_GAP_WORD_RE = re.compile(r"[^\W_]+")


def _near(text: str, end: int, start: int, slop: int) -> bool:
    """Whether the words of *text* between *end* and *start* are few enough for a phrase of
    *slop* (as the index counts them: common words are not there, a Chinese character is
    a place of its own)."""
    places = 0
    for m in _GAP_WORD_RE.finditer(text, end, start):
        word = m.group()
        places += len(word) if CJK_RE.match(word) else word.lower() not in STOP_WORDS
    return places < slop


def _phrase_spans(text: str, found: list[tuple[int, int, str]], phrases) -> list:
    """Where each phrase's words stand in order, each near the one before: from its
    first word's start to its last word's end. *found*: the phrases' words in *text*."""
    spans = []
    for words, slop in phrases:
        for k, (start, end, token) in enumerate(found):
            if token != words[0]:
                continue
            last, j = end, k
            for word in words[1:]:
                j = next((i for i in range(j + 1, len(found)) if found[i][2] == word), None)
                if j is None or not _near(text, last, found[j][0], slop):
                    break
                last = found[j][1]
            else:
                spans.append((start, last))
    return spans


def _spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Where the query's terms occur in *text*, as the analyzer would find them.

    Latin runs (cut where a CJK character begins, as the analyzer cuts them) are
    lower-cased and stemmed exactly like the index does (so ``optimizers`` matches
    ``optim``); Chinese terms (bigrams and single characters) are found as substrings,
    which is what their tokens are. This avoids re-running the whole analyzer chain over
    every hit's abstract (~2 ms a hit). (The checks are written out in the loop: as
    function calls they were a fifth of a piped hit's snippet.)
    """
    spans = []
    phrases, in_phrases = _phrases(terms)
    found = []  # (start, end, token) of the phrases' words
    candidates = _candidates(terms)
    if candidates is not None:
        for start, end in _candidate_matches(text, candidates):
            word = text[start:end]
            if start and word != "∇":
                before = text[start - 1]
                if (before.isalnum() or before == "_") and not CJK_RE.match(before):
                    continue  # inside a longer word
            if not word.isascii():
                cut = CJK_RE.search(word)
                if cut:
                    word = word[: cut.start()]
            token = _token(word)
            if token in terms:
                spans.append((start, start + len(word)))
            elif text.startswith("-", start + len(word)):  # multi-modal, for "multimodal"
                joined = HYPHENATED_RE.match(text, start)
                if joined and _token(joined.group().replace("-", "")) in terms:
                    spans.append((start, joined.end()))
            if in_phrases and token in in_phrases:
                found.append((start, start + len(word), token))
    if phrases:  # (a phrase first, over its words marked alone: 学习率 / learning rate)
        spans += _phrase_spans(text, found, phrases)
        return sorted(spans, key=lambda span: (span[0], -span[1]))
    for term in _chinese_terms(terms):
        start = text.find(term)
        while start != -1:
            spans.append((start, start + len(term)))
            start = text.find(term, start + 1)
    return sorted(spans)


def mark(text: str, terms: frozenset[str], maxcells: int | None = None) -> str | None:
    """*text*, or its best passage of at most *maxcells* terminal cells, with *terms* marked
    (None: no match)."""
    if not text or not terms:
        return None
    spans = _spans(text, terms)
    if not spans and not (text.isascii() and "_" not in text):
        spans = _normalized_spans(text, terms)
    return mark_spans(text, spans, maxcells)


# Characters the one spelling makes Latin letters or digits of, or drops: an underscore,
# full-width letters and digits, letterlike symbols (ℓ), ligatures, super- and subscripts,
# enclosed and squared letters, mathematical alphanumerics; and Greek letters (their names).
_RESPELT = (
    "_\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u2100-\u214f\ufb00-\ufb06\u2070-\u209f"
    "\u2460-\u24ff\u3371-\u33df\U0001d400-\U0001d7ff"
)


@lru_cache(maxsize=64)
def _respelt_chars(terms: frozenset[str]) -> re.Pattern:
    """What may become one of the Latin *terms* once respelt: Greek letters only when a
    term holds a letter's name (beta, epsilon), not for ``learn``; 223 of the 3,553 hits
    of "learning" at 10,000 papers have Greek letters in their summaries."""
    named = any(name in term for term in terms for name in GREEK)
    return re.compile(f"[{_RESPELT}\u0370-\u03ff]" if named else f"[{_RESPELT}]")  # (~0.3 ms)


def _normalized_spans(text: str, terms: frozenset[str]) -> list[tuple[int, int]]:
    """Where the terms occur in *text* once it is in the index's one spelling (``ℓ_1`` as
    ``l1``, ``ＧＲＰＯ`` as ``GRPO``, ``聯邦學習`` as ``联邦学习``), as spans of *text*. Asked
    only when the text as written has none: a text's spelling rarely differs."""
    if not _respelt_word_matches(text, terms) and (
        not _chinese_terms(terms) or traditional_chars().isdisjoint(text)
    ):
        return []
    normalized, origins = normalize_with_origins(text)
    return [(origins[start], origins[end - 1] + 1) for start, end in _spans(normalized, terms)]


def _respelt_word_matches(text: str, terms: frozenset[str]) -> bool:
    """Whether a word of *text* that the one spelling changes (``ϵ-greedy``, ``ℓ_1``) is a
    term once changed. Only those words are read (normalizing a whole summary for it took
    ~13 µs); a text with none takes one search for them (~0.4 µs)."""
    seen = set()
    for m in _respelt_chars(terms).finditer(text):
        start = end = m.start()
        while start and in_word(text[start - 1]):
            start -= 1
        while end < len(text) and in_word(text[end]):
            end += 1
        word = text[start:end]
        if word not in seen:
            seen.add(word)
            if any(_token(piece) in terms for piece in TOKEN_RE.findall(normalize(word))):
                return True
    return False


def mark_spans(text: str, spans: list[tuple[int, int]], maxcells: int | None = None) -> str | None:
    """*text*, or its best passage of at most *maxcells* cells, with *spans* marked."""
    if not spans:
        return None
    begin, end = (0, len(text)) if maxcells is None else window(text, spans, maxcells)
    out, pos = [], begin
    for start, stop in spans:
        if start < pos or stop > end:
            continue  # overlapping (联邦 / 邦学) or outside the passage
        out += [text[pos:start], MARK_START, text[start:stop], MARK_END]
        pos = stop
    out.append(text[pos:end])
    marked = "".join(out).strip()
    if len(out) < 9:  # (one mark: none to join)
        return marked
    # 联邦 + 学习 → one mark for 联邦学习; Newton + Schulz → one for Newton-Schulz
    return _JOINED_RE.sub(lambda m: m.group(1), marked)


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
