"""Why a paper matched: a passage of its abstract or summary with the matched words marked.

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
from collections.abc import Iterator, Mapping
from functools import lru_cache

from ..text import CJK_RE, HYPHENATED_RE, STOP_WORDS, strip_controls
from ..text.variants import GREEK, normalize, normalize_with_origins, traditional_chars
from .analysis import TOKEN_RE, stem_latin

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


def _cells(text: str, begin: int, end: int) -> int:
    """About the terminal cells of ``text[begin:end]``, where a Chinese character takes two.

    Estimated from the UTF-8 length, which costs nothing: ASCII is one byte a cell, Chinese
    three bytes for two cells. (A regular expression for the wide characters takes ~5 ms to
    compile, a search's whole query time; the exact widths are the table layout's job.)"""
    if text.isascii():  # (a flag of the string: no scan)
        return end - begin
    piece = text[begin:end]
    return (len(piece) + len(piece.encode("utf-8", "surrogatepass"))) // 2


def _reach(text: str, begin: int, maxcells: int) -> int:
    """The furthest end such that ``text[begin:end]`` takes at most *maxcells* cells."""
    end = min(len(text), begin + maxcells)
    if text.isascii():
        return end
    while (excess := _cells(text, begin, end) - maxcells) > 0:
        end -= (excess + 1) // 2  # each character removed frees one or two cells
    return end


CLAUSE_ENDS = frozenset("，。、；：！？）】》」』”’…—),;:!?")  # a passage may start after these
OPENING = frozenset("（【《「『“‘(")  # and at these


def _clause_start(text: str, i: int) -> bool:
    """Whether a passage may start at *i*: at the text's start, after a space or a mark
    that ends a clause (，。、）…), or at an opening bracket or quote. Chinese has no
    spaces between words: a passage that starts anywhere else may start mid-word (化器状态
    for 优化器状态)."""
    if i == 0 or text[i - 1].isspace() or text[i - 1] in CLAUSE_ENDS:
        return True
    return i < len(text) and text[i] in OPENING


def _context_start(text: str, best: int, maxcells: int) -> int:
    """Where a passage showing the match at *best* starts: some context before it, back to
    the nearest place a passage may start at least a third of the budget before the match
    and at most half of it; else the furthest such place within half; else the match.

    English text (ASCII before the match: a cell a character) looks back from the third
    for the nearest such place, then forward, a few characters in all: a regular
    expression over the whole half took 6 of a piped hit's ~90 µs. (``_clause_start`` is
    written out in the loops: called, it was half of this function's time.)"""
    third, half = maxcells // 3, maxcells // 2
    lo = max(0, best - half)
    if not text.isascii() and not text[lo:best].isascii():
        return _context_start_slowly(text, best, maxcells)
    near = best - third  # the places at or before this leave a third of context or more
    for i in range(min(near, best), lo - 1, -1):  # (0, when reached, is a place)
        if i == 0:
            return 0
        before = text[i - 1]
        if before.isspace() or before in CLAUSE_ENDS or text[i] in OPENING:
            return i
    for i in range(max(near + 1, lo), best + 1):
        if i == 0:
            return 0
        before = text[i - 1]
        if before.isspace() or before in CLAUSE_ENDS or text[i] in OPENING:
            return i
    return best


def _context_start_slowly(text: str, best: int, maxcells: int) -> int:
    """``_context_start``, a character at a time (Chinese takes two cells)."""
    begin, cells = best, 0
    for i in range(best, -1, -1):
        if _clause_start(text, i):
            begin = i
            if cells >= maxcells // 3:
                break
        if i == 0:
            break
        cells += 2 if ord(text[i - 1]) >= 0x0800 else 1
        if cells > maxcells // 2:
            break
    return begin


def _in_word(ch: str) -> bool:
    return (ch.isalnum() or ch in "-_") and not CJK_RE.match(ch)


_ASCII_WORD = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"  # (_in_word)


def _densest(text: str, spans: list[tuple[int, int]], maxcells: int) -> int:
    """The start of the span from which *maxcells* cells hold the most whole spans (the
    first such; the first span when none fits)."""
    best, best_count = spans[0][0], 0
    first, previous = 0, None  # (spans are sorted: those from *start* on begin at *first*)
    for j, (start, _end) in enumerate(spans):
        if start != previous:
            first, previous = j, start
        reach = _reach(text, start, maxcells)
        count = 0
        for s, e in itertools.islice(spans, first, None):
            if s > reach:
                break
            if e <= reach:
                count += 1
        if count > best_count:
            best, best_count = start, count
    return best


def _window(text: str, spans: list[tuple[int, int]], maxcells: int) -> tuple[int, int]:
    """The stretch of at most *maxcells* terminal cells holding the most matches, starting
    at a word or clause and not ending inside a Latin word."""
    best = _densest(text, spans, maxcells) if len(spans) > 1 else spans[0][0]
    begin = _context_start(text, best, maxcells)
    end = _reach(text, begin, maxcells)
    ascii = text.isascii()
    if end < len(text) and not ascii and CJK_RE.match(text, end - 1):
        # Chinese: end after the last clause mark of the passage's last quarter, if any
        stop = max(text.rfind(mark, begin, end) for mark in "，。；！？")
        if stop > 0 and _cells(text, stop, end) <= maxcells // 4:
            end = stop + 1
    if end < len(text) and _in_word(text[end - 1]) and _in_word(text[end]):
        # a Latin word (Newton-Schulz) is not cut, unless it holds the match: then the
        # budget cuts it (a walk that did not stop at the match went past the text's start)
        if ascii:
            cut = best + len(text[best:end].rstrip(_ASCII_WORD))
        else:
            cut = end
            while cut > best and _in_word(text[cut - 1]):
                cut -= 1
        end = cut if cut > best else end
    return begin, max(end, best + 1)


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
        while start and _in_word(text[start - 1]):
            start -= 1
        while end < len(text) and _in_word(text[end]):
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
    begin, end = (0, len(text)) if maxcells is None else _window(text, spans, maxcells)
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
    room = max(40, maxcells - _cells(head, 0, len(head)))
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
