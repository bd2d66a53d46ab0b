"""Which of a service's papers a record is: one of a venue's accepted papers on OpenReview,
or one of the few an arXiv or Crossref search gave.

In order, and the first that decides wins:

1. the abstract, compared on its plain reading (LaTeX read as text; wrapping, spacing,
   punctuation and case do not matter), as the merge rule compares abstracts;
2. the title, normalised as the merge rule normalises it;
3. a fuzzy score: the share of the record's words (title, short name, abstract), weighted
   by how rare each is among the candidates, that the candidate's title and abstract
   contain. Accepted only at ``ACCEPT`` or above and ``MARGIN`` ahead of the runner-up;
   a near tie is ``ambiguous`` and is left alone.

Two candidates with the same abstract or title are ambiguous too.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from ..remote.found import Found
from ..store.merge import text_key
from ..store.record import Record
from ..text import STOP_WORDS
from ..text.latex import latex_to_text

ACCEPT = 0.6  # at least this share of the record's (weighted) words in the candidate
MARGIN = 0.15  # and this far ahead of the runner-up
_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
CANDIDATES = 10  # scored in full: the papers sharing most of the record's rarer words
COMMON = 0.05  # words in more than this share of the candidates only score, never select
FEW = 20  # (a word in this many papers or fewer always selects: a small list has no common words)


@dataclass(frozen=True)
class Match:
    how: str  # "link", "abstract", "title", "fuzzy", "ambiguous" or "none"
    paper: Found | None = None
    score: float | None = None  # fuzzy only
    runner_up: Found | None = None  # ambiguous: the other candidate
    runner_score: float | None = None

    @property
    def found(self) -> bool:
        return self.paper is not None and self.how != "ambiguous"

    def describe(self) -> str:
        if self.how == "ambiguous" and self.paper and self.runner_up:
            scores = ""
            if self.score is not None and self.runner_score is not None:
                scores = f" (scores {self.score:.2f} and {self.runner_score:.2f})"
            names = f"{self.paper.document} or {self.runner_up.document}"
            return f"could be {names}{scores}; left alone"
        if self.how == "fuzzy" and self.score is not None:
            runner = f", runner-up {self.runner_score:.2f}" if self.runner_score else ""
            return f"fuzzy {self.score:.2f}{runner}"
        return self.how


def words(text: str | None) -> set[str]:
    """The content words of a text's plain reading."""
    if not text:
        return set()
    return {w for w in _WORD_RE.findall(latex_to_text(text).lower()) if w not in STOP_WORDS}


class Matcher:
    """The candidates (a venue's accepted papers, a search's results), keyed for matching."""

    def __init__(self, papers: list[Found]) -> None:
        self.papers = papers
        self.by_abstract: dict[str, list[Found]] = defaultdict(list)
        self.by_title: dict[str, list[Found]] = defaultdict(list)
        self.postings: dict[str, list[int]] = defaultdict(list)
        self.words: list[set[str]] = []
        for n, paper in enumerate(papers):
            if paper.abstract and (key := text_key(paper.abstract)):
                self.by_abstract[key].append(paper)
            if paper.title and (key := text_key(paper.title)):
                self.by_title[key].append(paper)
            found = words(paper.title) | words(paper.abstract)
            self.words.append(found)
            for word in found:
                self.postings[word].append(n)
        total = max(len(papers), 1)
        self.idf = {w: math.log(1 + total / len(p)) for w, p in self.postings.items()}
        self.common = max(COMMON * total, FEW)

    def match(self, record: Record) -> Match:
        for how, table, text in (
            ("abstract", self.by_abstract, record.abstract),
            ("title", self.by_title, record.title),
        ):
            found = table.get(text_key(text)) if text else None
            if found:
                if len(found) > 1:
                    return Match("ambiguous", found[0], runner_up=found[1])
                return Match(how, found[0])
        return self._fuzzy(record)

    def _fuzzy(self, record: Record) -> Match:
        mine = words(record.title) | words(record.short_name) | words(record.abstract)
        weights = {w: self.idf[w] for w in mine if w in self.idf}
        # words no candidate uses still count against every candidate
        total = sum(weights.values()) + math.log(1 + len(self.papers)) * (len(mine) - len(weights))
        if not weights or total <= 0:
            return Match("none")
        selective: Counter[int] = Counter()  # candidates: those sharing the rarer words
        for word, weight in weights.items():
            postings = self.postings[word]
            if len(postings) <= self.common:
                for n in postings:
                    selective[n] += weight
        ranked = sorted(
            ((self._score(n, weights, total), n) for n, _ in selective.most_common(CANDIDATES)),
            reverse=True,
        )
        if not ranked:
            return Match("none")
        (best, best_n), (runner, runner_n) = ranked[0], (ranked[1:] or [(0.0, None)])[0]
        runner_up = self.papers[runner_n] if runner_n is not None else None
        if best < ACCEPT:
            return Match("none", score=round(best, 3))
        how = "ambiguous" if best - runner < MARGIN else "fuzzy"
        return Match(how, self.papers[best_n], round(best, 3), runner_up, round(runner, 3))

    def _score(self, n: int, weights: dict[str, float], total: float) -> float:
        theirs = self.words[n]
        return sum(w for word, w in weights.items() if word in theirs) / total
