"""engine.single: which listed papers a query matches, against Whoosh's own answer."""

from __future__ import annotations

import pytest

from papercli.engine.single import matching
from papercli.search.index.paper_index import PaperIndex
from papercli.search.querying.parse import parse_query
from papercli.store.library import Library


@pytest.fixture(scope="module")
def index(seeded_template):
    return PaperIndex(Library(seeded_template)).open()


@pytest.mark.parametrize(
    "text",
    [
        "muon",
        "优化器",
        "学习率",
        "learning rate",
        '"learning rate"',
        "federated OR 梯度",
        "zephyrine",
    ],
)
def test_matching_agrees_with_collecting_every_match(index, text):
    """For every document, one pass over all of them and a pass over each alone give what
    ``docs_for_query`` collects."""
    q = parse_query(index, text, None, True, {})
    with index.searcher() as searcher:
        every = set(searcher.docs_for_query(q))
        docnums = list(range(searcher.doc_count_all()))
        assert matching(searcher, q, docnums) == every
        assert {d for d in docnums if matching(searcher, q, [d])} == every
        assert matching(searcher, q, docnums[::-3]) == every & set(docnums[::-3])
    assert every or text == "zephyrine"
