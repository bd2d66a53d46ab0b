"""The queries the "no paper" check of ``benchmarks/eval.py`` asks, and the literal scan that
tells whether "no paper" was true.

A contradiction is a query for which ``papers search`` lists no paper while some record holds
every whitespace-separated word of the query in its text, case-folded (a substring match:
``GSM`` is in ``GSM8K``). The queries: the judged concepts' own, the parts of the names the
records write (``Qwen`` of ``Qwen2.5-Math-7B``, as Lucene's word-delimiter filter splits), and
a fixed sample of the records' words and Chinese 2-4 character strings.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from papercli.search.querying.syntax import ASKING_WORDS, OPERATORS
from papercli.store.record import Record
from papercli.text import STOP_WORDS
from papercli.venues import known_venue

SEED = 41  # the sample is the same on every run (issue 41)

# A run of ASCII letters and digits, with inner hyphens or dots (Qwen2.5-Math-7B).
_TOKEN_RE = re.compile(r"[A-Za-z0-9]+(?:[-.][A-Za-z0-9]+)*")
# What makes a token a name to split: a lower-to-upper change, a letter next to a digit.
_NAME_RE = re.compile(r"[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]")
_TO_RE = re.compile(r"[A-Za-z]+-to-[A-Za-z]+")  # offline-to-online
_CAMEL_RE = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A whole word of letters: not part of a name, a hyphenated word or a number, nor a LaTeX
# command (\tilde: the index reads $\tilde{O}$ as the reader sees it, Õ).
_WORD_RE = re.compile(r"(?<![A-Za-z0-9_.\\-])[A-Za-z]{3,}(?![A-Za-z0-9_-]|\.[A-Za-z0-9])")
_HAN_RUN_RE = re.compile(r"[\u4e00-\u9fff]{2,}")


def record_text(record: Record) -> str:
    """The fields the search indexes as text, as written (the case of a name splits it); a
    literal scan reads them case-folded."""
    fields = [record.title, record.short_name, record.abstract, record.summary_zh]
    fields += [*record.keywords, *record.authors, *record.tags]
    return "\n".join(f for f in fields if f)


def literal_matches(query: str, texts: dict[str, str]) -> list[str]:
    """The ids whose text (``record_text``, case-folded) holds every word of *query*."""
    words = query.casefold().split()
    return [rid for rid, text in texts.items() if all(w in text for w in words)]


def word_parts(token: str) -> list[str]:
    """A token split as Lucene's word-delimiter filter splits it: at every character that
    is not a letter or digit, between letters and digits, and where a lower-case letter
    is followed by an upper-case one (``RFedAGS`` -> ``RFed``, ``AGS``)."""
    parts = []
    for run in re.findall(r"[A-Za-z]+|[0-9]+", token):
        parts += _CAMEL_RE.split(run)
    return parts


def name_parts(text: str) -> list[str]:
    """The parts of the names in *text* a search should find them by, in order of first
    appearance, each once (case-folded): the letter parts (two or more letters, not a
    common word) of a token with a case change or a letter next to a digit, and both sides
    of an ``X-to-Y`` compound. Plain hyphenated words are left out: their parts are words."""
    seen: dict[str, str] = {}
    for token in _TOKEN_RE.findall(text):
        if not (_NAME_RE.search(token) or _TO_RE.fullmatch(token)):
            continue
        for part in word_parts(token):
            if part.isalpha() and len(part) >= 2 and part.casefold() not in STOP_WORDS:
                seen.setdefault(part.casefold(), part)
    return list(seen.values())


def _searchable(word: str) -> bool:
    """Whether the query language reads *word* as a word to search for: not a common word
    it leaves out, an operator or a venue it reads as a field."""
    folded = word.casefold()
    return not (
        folded in STOP_WORDS
        or folded in ASKING_WORDS
        or word in OPERATORS
        or known_venue(word) is not None
    )


def sample_words(texts: Iterable[str], size: int, seed: int = SEED) -> list[str]:
    """*size* distinct whole words of three or more letters, drawn without replacement."""
    words: dict[str, str] = {}  # case-folded -> as first written
    for text in texts:
        for word in _WORD_RE.findall(text):
            if _searchable(word):
                words.setdefault(word.casefold(), word)
    pool = [words[k] for k in sorted(words)]
    return random.Random(seed).sample(pool, min(size, len(pool)))


def sample_chinese(texts: Iterable[str], size: int, seed: int = SEED) -> list[str]:
    """*size* distinct strings of 2-4 Chinese characters cut from the texts' runs of them,
    drawn without replacement (a cut may cross a word boundary: the text holds it all the
    same)."""
    strings = set()
    for text in texts:
        for run in _HAN_RUN_RE.findall(text):
            for n in (2, 3, 4):
                strings.update(run[i : i + n] for i in range(len(run) - n + 1))
    strings = {s for s in strings if _searchable(s)}
    return random.Random(seed).sample(sorted(strings), min(size, len(strings)))


def scan_queries(concepts: Iterable[dict], records: list[Record]) -> dict[str, list[str]]:
    """The queries of the check by where they come from, each query once over all groups."""
    seen: set[str] = set()

    def fresh(queries: Iterable[str], limit: int | None = None) -> list[str]:
        out: list[str] = []
        for q in queries:
            if len(out) == limit:
                break
            if q.strip() and q.casefold() not in seen and not q.startswith("-"):
                seen.add(q.casefold())
                out.append(q)
        return out

    prose = [
        "\n".join(f for f in (r.title, r.abstract, r.summary_zh) if f) for r in records
    ]  # the titles, abstracts and summaries the sample is drawn from
    names = name_parts("\n".join(record_text(r) for r in records))
    return {
        "judged concepts": fresh(c[lang] for c in concepts for lang in ("en", "zh")),
        "name parts": fresh(names),
        # 50 of each that no group before holds
        "sampled words": fresh(sample_words(prose, 100), 50),
        "sampled Chinese": fresh(sample_chinese(prose, 100), 50),
    }
