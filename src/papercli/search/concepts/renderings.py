"""A common word's renderings in the other language (``common_words.WORDS``), in any of
its forms: what a query asks for beside the word (梯度 or gradient).

In: a word of a query. Out: its renderings (English for Chinese, Chinese for English).
"""

from __future__ import annotations

from functools import cache

from .common_words import WORDS


def renderings(word: str) -> tuple[str, ...]:
    """*word*'s renderings in the other language: English for a Chinese word of ``WORDS``,
    Chinese for an English one as written, else in any of its forms (accelerating,
    accelerated, as the index stems them; memory: 记忆 and 内存); () for any other word."""
    if word in WORDS:
        return WORDS[word]
    lower = word.lower()
    candidates = _by_prefix().get(lower[:PREFIX]) if word.isascii() else None
    if not candidates:
        return ()
    from ..analysis import stem_latin

    exact = tuple(zh for en, zh in candidates if en == lower)
    if exact:  # (sampling is 采样, though the stemmer makes it "sample" too: 样本)
        return exact
    # Only the renderings that begin as *word* does are stemmed: a stem keeps its word's
    # first letters, and stemming them all would slow every query.
    key = stem_latin(lower)
    return tuple(dict.fromkeys(zh for en, zh in candidates if stem_latin(en) == key))


PREFIX = 4  # (letters a stem keeps: analys-, optimi-, accele-)


@cache
def _by_prefix() -> dict[str, list[tuple[str, str]]]:
    """The first letters of each English rendering -> (rendering, its Chinese word)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for chinese, english in WORDS.items():
        for word in english:
            out.setdefault(word.lower()[:PREFIX], []).append((word.lower(), chinese))
    return out
