"""How the taxonomy's terms are found in a text: whole words of an English term (an acronym
as written), an exclusion's phrase in the same forms, and the shortcuts that keep a search
of ~1,000 terms over an abstract fast (looking for a term only near its longest word).

In: a text and a term or phrase. Out: compiled patterns, a text's word set, and the
matches of a pattern near its needle.
"""

from __future__ import annotations

import re

PLAIN_WORD_RE = re.compile(r"[a-z0-9]+")
SPACE_RUN_RE = re.compile(r"[\s-]{2,}")


def word_set(lowered: str) -> set[str]:
    """The words of a lower-cased text, with their singulars: what a needle is checked in."""
    words = set(PLAIN_WORD_RE.findall(lowered))
    words |= {w[:-1] for w in words if w.endswith("s")} | {
        w[:-2] for w in words if w.endswith("es")
    }
    return words


def word_pattern(word: str) -> str:
    """An acronym-like word (2+ capitals: LLM, GRPO, FL) matches as written; others in any case."""
    if sum(c.isupper() for c in word) >= 2:
        return re.escape(word)
    return f"(?i:{re.escape(word)})"


def phrase_pattern(phrase: str) -> re.Pattern:
    """A *phrase* (an exclusion) in the forms an alias matches: its words written with 2+
    capitals as written (see ``word_pattern``), the rest in any case, a space or hyphen
    between words as either ("gradient-alignment"), and a plural after a last word
    ("vision-language models" holds the alias "language models")."""
    pieces = re.split(r"([A-Za-z0-9]+)", phrase)
    body = "".join(
        word_pattern(p)
        if i % 2
        else r"[\s-]+"
        if p and re.fullmatch(r"[\s-]+", p)
        else f"(?i:{re.escape(p)})"
        for i, p in enumerate(pieces)
    )
    return re.compile(body + ("(?i:s|es)?" if pieces[-1] == "" and len(pieces) > 1 else ""))


def phrase_needle(phrase: str) -> str:
    """What a text must hold (lower-cased) for *phrase* to match in it: its longest piece
    between spaces and hyphens."""
    return max(re.split(r"[\s-]+", phrase.lower()), key=len)


NON_ASCII_RUN_RE = re.compile(r"[^\x00-\x7f]+")


def needle_starts(lowered: str, ascii_keys: list[str]) -> set[str]:
    """The one- or two-character starts in *lowered* of the needles that are not plain
    words: every character, every pair that starts with a non-ASCII character, and those
    of *ascii_keys* (pairs starting with an ASCII character: "ad" of "adam 优化器") that
    occur. Every pair of a whole abstract took 3.9 s of ingesting 10,000 papers."""
    out = set(lowered)
    for m in NON_ASCII_RUN_RE.finditer(lowered):
        out.update(lowered[i : i + 2] for i in range(m.start(), m.end()))
    out.update(key for key in ascii_keys if key in lowered)
    return out


def prepare(text: str) -> tuple[str, str, set[str], bool]:
    """*text* with what ``Tag.matches`` works out from it: its lower case, its words, and
    whether aliases may be looked for near their needles only."""
    lowered = text.lower()
    return text, lowered, word_set(lowered), windowed(text, lowered)


def windowed(text: str, lowered: str) -> bool:
    """Whether aliases may be looked for only near their needles (see ``near``): the words
    are separated by single characters and lower-casing kept every position."""
    return len(lowered) == len(text) and not SPACE_RUN_RE.search(text)


def near(pattern: re.Pattern, needle: str, text: str, lowered: str, reach: int):
    """The matches of *pattern* in *text*, searched only around each occurrence of *needle*
    in *lowered* (a 1.5 kB abstract is not scanned once per alias: 2× faster tagging).

    Exact when ``windowed``: a match contains the needle and reaches less than *reach*
    characters to either side of it; one the window cuts at its right edge is searched
    again without the bound."""
    n = len(text)
    i = lowered.find(needle)
    while i != -1:
        lo, hi = max(0, i - reach), min(n, i + len(needle) + reach)
        for m in pattern.finditer(text, lo, hi):
            if m.end() == hi < n:  # the window's end may have cut it: look again, unbounded
                m = pattern.search(text, m.start())
                if m is None:
                    continue
            yield m
        i = lowered.find(needle, i + 1)
