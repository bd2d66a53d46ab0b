"""The ranking: Whoosh's, with equal scores ordered by paper id instead of by docnum."""

from __future__ import annotations

import pytest

from papercli.engine.ranking import ranked
from papercli.engine.unions import unions
from papercli.search.index.paper_index import PaperIndex
from papercli.search.querying.parse import parse_query
from papercli.store.library import Library

QUERIES = [
    "muon",
    "federated learning",
    "tag:optimizer",
    "tag:muon OR tag:llm",
    "联邦学习",
    "convergence",
    "year:2026",
    "theory",
    "optimization",
    "gradient descent",
]


@pytest.fixture(scope="module")
def index(seeded_template):
    return PaperIndex(Library(seeded_template))


def _whooshs_ranking_by_id(searcher, q) -> list[tuple[float, str]]:
    """Every match as Whoosh's own collector scores it, then by score and id."""
    found = searcher.search(q, limit=None).top_n
    return sorted(
        ((score, searcher.stored_fields(n)["id"]) for score, n in found),
        key=lambda hit: (-hit[0], hit[1]),
    )


@pytest.mark.parametrize("text", QUERIES)
def test_the_ranking_is_whooshs_with_ties_by_id(index, text):
    q = unions(parse_query(index, text, exact=True))
    with index.searcher() as searcher:
        expected = _whooshs_ranking_by_id(searcher, q)
        assert expected, text
        for limit in (None, 1, 3, 10, len(expected)):
            got = [
                (score, searcher.stored_fields(n)["id"]) for score, n in ranked(searcher, q, limit)
            ]
            assert got == expected[:limit], (text, limit)
            top = searcher.search(q, limit=limit).top_n  # (Whoosh's own: the same scores)
            assert [score for score, _id in got] == [score for score, _n in top]


def test_ties_are_ordered_by_id_not_by_docnum(index):
    """tag:optimizer scores the papers with the same number of tags alike; Whoosh lists
    those by docnum, the order they were indexed in."""
    q = unions(parse_query(index, "tag:optimizer", exact=True))
    with index.searcher() as searcher:
        by_docnum = searcher.search(q, limit=None).top_n
        ours = ranked(searcher, q, None)
        assert sorted(by_docnum) == sorted(ours)
        assert by_docnum != ours  # (the index's docnums are not in id order)
        scores = [score for score, _n in ours]
        assert len(set(scores)) < len(scores)  # (there are ties)
