"""The library's English words as written, for "Did you mean …?".

The index stems its words (``federated`` → ``feder``), so suggestions need the words as
written. They used to be a Whoosh field of their own, which cost a quarter of all indexing
time for a lookup made only when a search finds nothing. Now they are a file beside the
index, ``.index/words.json``: word → how often it occurs in titles, short names and
abstracts. ``PaperIndex.writer`` keeps it in step with every change (adding a paper's
words, subtracting an old version's); ``papers index --rebuild`` recounts it from scratch
(a damaged file is read as empty: suggestions are a hint, never a reason to fail).
A suggestion is the most frequent known word within a small edit distance, found with
Whoosh's Levenshtein automata over the sorted word list.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from pathlib import Path

from ...store.record import Record

FILE = "words.json"
# How much more frequent the likeliest correction must be than the next to be run in the
# query's place (a choice, not tuned on any set: twice is a clear majority of the two).
CLEAR = 2
# Words of two or more letters; identifiers with digits (GSM8K, Qwen2.5) are not words.
_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z'-]*[A-Za-z](?![A-Za-z0-9])")


def words_of(record: Record) -> Counter[str]:
    """The lower-cased English words of a record's title, short name and abstract."""
    text = "\n".join(filter(None, (record.title, record.short_name, record.abstract)))
    return Counter(w.lower() for w in _WORD_RE.findall(text))


class Vocabulary:
    def __init__(self, counts: dict[str, int] | None = None) -> None:
        self.counts: dict[str, int] = counts or {}

    @classmethod
    def load(cls, index_dir: Path) -> Vocabulary:
        try:
            data = json.loads((index_dir / FILE).read_text("utf-8"))
        except (OSError, ValueError):  # missing or damaged: suggestions are only a hint
            return cls()
        if not isinstance(data, dict):
            return cls()
        return cls({w: n for w, n in data.items() if type(n) is int and n > 0})

    def to_json(self) -> bytes:
        return json.dumps(self.counts, ensure_ascii=False, sort_keys=True).encode("utf-8")

    def add(self, words: Counter[str]) -> None:
        counts = self.counts
        for word, n in words.items():
            counts[word] = counts.get(word, 0) + n

    def remove(self, words: Counter[str]) -> None:
        counts = self.counts
        for word, n in words.items():
            left = counts.get(word, 0) - n
            if left > 0:
                counts[word] = left
            else:
                counts.pop(word, None)

    def __contains__(self, word: str) -> bool:
        return word in self.counts

    def suggest(self, word: str, maxdist: int) -> str | None:
        """The most frequent known word within *maxdist* edits of *word* (None if none)."""
        options = (w for w in self.near(word, maxdist) if w != word)
        best = max(((self.counts[w], w) for w in options), default=None)
        return best[1] if best else None

    def correct(self, word: str) -> str | None:
        """The known word *word* is likeliest a typo of, or None (see ``correction``)."""
        return self.correction(word)[0]

    def correction(self, word: str) -> tuple[str | None, bool]:
        """The known word *word* is likeliest a typo of, or None, and whether it is clearly
        the one: the most frequent word one edit away (federatd: federated); else two
        letters swapped (sapmle: sample, moun: muon, which the edit distance counts as
        two); else, for a word of eight letters or more, two edits (learnign). Six letters
        two edits apart are as often two words: "survey" is no typo of "server". Clearly:
        its forms (one stem: algorithm, algorithms) ``CLEAR`` times as frequent as the next
        word's, or none so near."""
        swapped = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}
        for options in (
            lambda: self.near(word, 1),
            lambda: [w for w in swapped if w in self.counts],
            lambda: self.near(word, 2) if len(word) >= 8 else [],
        ):
            ranked = sorted(((self.counts[w], w) for w in options() if w != word), reverse=True)
            if ranked:
                return ranked[0][1], _clear(ranked)
        return None, False

    def near(self, word: str, maxdist: int) -> list[str]:
        """Every known word within *maxdist* edits of *word*, itself included.

        A Levenshtein automaton walks the sorted word list (Whoosh's own ``ListCorrector``
        skips matches: it finds nothing for ``federatd`` in [federate, learning])."""
        from whoosh.automata.fsa import find_all_matches
        from whoosh.automata.lev import levenshtein_automaton

        ordered = sorted(self.counts)

        def at_or_after(key: str) -> str | None:
            i = bisect_left(ordered, key)
            return ordered[i] if i < len(ordered) else None

        dfa = levenshtein_automaton(word, maxdist, 0).to_dfa()
        return list(find_all_matches(dfa, at_or_after))


def _clear(ranked: list[tuple[int, str]]) -> bool:
    """Whether the first word of *ranked* (count, word), with the other forms of its stem,
    is ``CLEAR`` times as frequent as any other stem's words."""
    from ..analysis import stem_latin

    stems: dict[str, int] = {}
    for count, word in ranked:
        key = stem_latin(word)
        stems[key] = stems.get(key, 0) + count
    first = stems.pop(stem_latin(ranked[0][1]))
    return not stems or first >= CLEAR * max(stems.values())
