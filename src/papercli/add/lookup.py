"""A pasted title or reference among the papers the services offer: which one it is, or
that it cannot be told.

The services' answers are first grouped into papers: answers sharing an arXiv id, a DOI,
a forum or a title (as the merge rule compares titles) are one paper in several places,
a preprint and its published version among them. Then, as ``papers enrich`` decides:

1. a paper whose title is the text (case, spacing, punctuation and dashes aside) is it,
   unless two papers have that title;
2. else each paper is scored: the share of the text's words, each weighted by how rare it
   is among the candidates (``enrich.match``'s weights), that the paper's title, abstract,
   authors, venue and year contain. The best is taken only at ``ACCEPT`` or above and
   ``MARGIN`` ahead of the runner-up, enrich's thresholds.

Anything else is for the user to choose: the candidates, best first.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..enrich.match import ACCEPT, MARGIN, words
from ..remote.arxiv import search_words
from ..remote.found import Found
from ..store.merge import text_key

SHOWN = 5  # candidates listed to choose from
ORDER = ("arXiv", "OpenReview", "Crossref")  # whose text a paper shows first (abstracts)
_QUOTED_RE = re.compile(r"[\"“”«»]([^\"“”«»]{10,})[\"“”«»]")
_SENTENCE_RE = re.compile(r"(?<=[.?!])\s+")


@dataclass
class Candidate:
    """One paper as one or more services gave it, and how well it fits the text."""

    parts: list[Found]
    score: float = 0.0
    how: str = "fuzzy"  # "title" or "fuzzy"

    def ordered(self) -> list[Found]:
        """Its parts, arXiv's first (the fullest text), the published ones after."""
        return sorted(self.parts, key=lambda f: ORDER.index(f.service))

    @property
    def title(self) -> str | None:
        return next((f.title for f in self.ordered() if f.title), None)

    @property
    def authors(self) -> list[str]:
        return next((f.authors for f in self.ordered() if f.authors), [])

    @property
    def venue_year(self) -> tuple[str | None, int | None]:
        """The published venue when a part names one (OpenReview's, Crossref's, arXiv's
        journal reference), else the preprint's."""
        published = [f for f in self.ordered() if f.published]
        best = (published or self.ordered())[0] if self.parts else None
        return (best.venue, best.year) if best else (None, None)

    @property
    def sources(self) -> list[str]:
        return list(dict.fromkeys(f.service for f in self.ordered()))

    def words(self) -> set[str]:
        out: set[str] = set()
        for f in self.parts:
            out |= words(f.title) | words(f.abstract) | words(" ".join(f.authors))
            out |= words(f.venue) | ({str(f.year)} if f.year else set())
        return out

    def summary(self) -> dict:
        venue, year = self.venue_year
        first = self.ordered()[0]
        return {
            "title": self.title,
            "authors": list(self.authors),
            "venue": venue,
            "year": year,
            "sources": self.sources,
            "link": first.urls[0] if first.urls else None,
            "score": round(self.score, 3),
        }


@dataclass
class Decision:
    chosen: Candidate | None
    candidates: list[Candidate] = field(default_factory=list)  # best first

    @property
    def clear(self) -> bool:
        return self.chosen is not None


def query_words(text: str) -> list[str]:
    """The words of the title *text* holds, for a search: a quoted title, else its
    sentence with the most words and the fewest commas (a reference's authors are a
    sentence of commas), without stop words."""
    quoted = _QUOTED_RE.search(text)
    if quoted:
        segment = quoted.group(1)
    else:
        segments = [s for s in _SENTENCE_RE.split(text) if s.strip()] or [text]
        segment = max(segments, key=lambda s: len(s.split()) - 2 * s.count(","))
    return search_words(segment)


def group(found: list[Found]) -> list[Candidate]:
    """The services' answers as papers (see the module's docstring), in order of first
    appearance. Two different arXiv ids are two papers, whatever else they share."""
    parent = list(range(len(found)))
    preprints = [{f.arxiv} if f.arxiv else set() for f in found]  # of each group's root

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, f in enumerate(found):
        keys = f.link_keys() + ([f"t:{text_key(f.title)}"] if f.title else [])
        for key in keys:
            if key not in owner:
                owner[key] = i
                continue
            a, b = root(owner[key]), root(i)
            if a != b and not (preprints[a] and preprints[b] and preprints[a] != preprints[b]):
                parent[b] = a
                preprints[a] |= preprints[b]
    groups: dict[int, list[Found]] = {}
    for i, f in enumerate(found):
        groups.setdefault(root(i), []).append(f)
    return [Candidate(parts) for parts in groups.values()]


def decide(text: str, found: list[Found]) -> Decision:
    """Which paper *text* names among *found*, or the candidates to choose from."""
    candidates = group(found)
    if not candidates:
        return Decision(None)
    _score(text, candidates)
    key = text_key(text)
    titled = [c for c in candidates if key and any(text_key(f.title or "") == key for f in c.parts)]
    for c in titled:
        c.how = "title"
    ranked = sorted(candidates, key=lambda c: (c not in titled, -c.score))
    if len(titled) == 1:
        return Decision(titled[0], ranked[:SHOWN])
    if titled:
        return Decision(None, ranked[:SHOWN])
    best = ranked[0]
    runner = ranked[1].score if len(ranked) > 1 else 0.0
    if best.score >= ACCEPT and best.score - runner >= MARGIN:
        return Decision(best, ranked[:SHOWN])
    return Decision(None, ranked[:SHOWN])


def _score(text: str, candidates: list[Candidate]) -> None:
    """Each candidate's share of the text's words, weighted by their rarity among the
    candidates; a word no candidate holds counts against all (``enrich.match``)."""
    mine = words(text)
    theirs = [c.words() for c in candidates]
    n = len(candidates)
    held = {w: sum(w in t for t in theirs) for w in mine}
    weights = {w: math.log(1 + n / k) for w, k in held.items() if k}
    total = sum(weights.values()) + math.log(1 + n) * sum(1 for k in held.values() if not k)
    for candidate, words_of in zip(candidates, theirs, strict=True):
        got = sum(w for word, w in weights.items() if word in words_of)
        candidate.score = got / total if total else 0.0
