"""The ranking metrics of the search-quality report (``benchmarks/eval.py``).

Relevance is binary, as the judged sets (tests/data/judged*.yaml) give it: a paper listed
under a concept's ``relevant`` has gain 1; one listed under ``not`` (judged not relevant) and
one not listed at all have gain 0. A ranking is the list of paper ids a search returns, best
first, each id once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

CUTOFF = 10  # P@10 and nDCG@10: the first screen of a listing


def relevant_ids(concept: dict) -> set[str]:
    """The ids judged relevant to a concept of a judged set (its ``not`` ids have gain 0)."""
    return set(concept.get("relevant") or {})


def found(ranking: Sequence[str], relevant: set[str]) -> int:
    """How many relevant papers the ranking holds, at any rank."""
    return len(set(ranking) & relevant)


def recall(ranking: Sequence[str], relevant: set[str]) -> float:
    """The share of the relevant papers the ranking holds, at any rank."""
    return found(ranking, relevant) / len(relevant)


def precision_at(ranking: Sequence[str], relevant: set[str], k: int = CUTOFF) -> float:
    """The relevant papers among the first *k*, over *k*: a listing shorter than *k* is
    not excused, since the screen's empty rows could have shown a relevant paper."""
    return found(ranking[:k], relevant) / k


def dcg_at(ranking: Sequence[str], relevant: set[str], k: int = CUTOFF) -> float:
    """Discounted cumulative gain of the first *k*: gain 1 at rank r counts 1/log2(r + 1)."""
    return sum(
        1 / math.log2(rank + 1) for rank, rid in enumerate(ranking[:k], 1) if rid in relevant
    )


def ndcg_at(ranking: Sequence[str], relevant: set[str], k: int = CUTOFF) -> float:
    """DCG@k over the DCG@k of the ideal ranking (every relevant paper first): 1.0 when the
    first min(k, R) ranks are all relevant papers, R being how many there are."""
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(k, len(relevant)) + 1))
    return dcg_at(ranking, relevant, k) / ideal


@dataclass
class Summary:
    """One mode's scores over the queries of a set: recall pooled over the queries (found /
    relevant, as the tests' floors count it), the share of all hits that are relevant, and
    the mean of the per-query P@10 and nDCG@10. A query with no relevant paper counts only
    its hits (all wrong): no ranking of its is better than another, so it has no P@10 or
    nDCG@10."""

    found: int = 0
    relevant: int = 0
    retrieved: int = 0
    p_at_k: list[float] = field(default_factory=list)
    ndcg: list[float] = field(default_factory=list)

    def add(self, ranking: Sequence[str], relevant: set[str]) -> None:
        self.found += found(ranking, relevant)
        self.relevant += len(relevant)
        self.retrieved += len(ranking)
        if not relevant:
            return
        self.p_at_k.append(precision_at(ranking, relevant))
        self.ndcg.append(ndcg_at(ranking, relevant))

    @property
    def recall(self) -> float:
        return self.found / self.relevant if self.relevant else 0.0

    @property
    def precision(self) -> float:
        return self.found / self.retrieved if self.retrieved else 0.0

    @property
    def mean_p_at_k(self) -> float:
        return sum(self.p_at_k) / len(self.p_at_k) if self.p_at_k else 0.0

    @property
    def mean_ndcg(self) -> float:
        return sum(self.ndcg) / len(self.ndcg) if self.ndcg else 0.0
