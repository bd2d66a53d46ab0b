"""The query language: our extensions are rewritten, mistakes get a one-line explanation."""

from __future__ import annotations

import pytest

from papercli.errors import UsageError
from papercli.search.querylang import rewrite


def resolve(name):
    return {"联邦学习": "federated-learning", "fl": "federated-learning"}.get(name.lower())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("muon adam", "muon adam"),
        ("year:2026", "year:2026"),
        ("year:2025..2026", "year:[2025 TO 2026]"),
        ("year:2025..", "year:>=2025"),
        ("year:..2025", "year:<=2025"),
        ("year:>=2025", "year:>=2025"),
        ("tag:联邦学习 muon", "tag:federated-learning muon"),
        ("Tags:FL", "tag:federated-learning"),
        ("tag:my-own-tag", "tag:my-own-tag"),
        ("short_name:QZO", "name:QZO"),
        ('title:"vehicle routing"', 'title:"vehicle routing"'),
        ("muon NOT (adam OR sgd)", "muon NOT ( adam OR sgd )"),
        ("https://github.com/x", '"https://github.com/x"'),
        ("doi:10.1234/abc", '"doi:10.1234/abc"'),
        ("arXiv:2401.12345", '"arXiv:2401.12345"'),
        ("federatd~ optim*", "federatd~ optim*"),
    ],
)
def test_rewrite(text, expected):
    assert rewrite(text, resolve) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"unclosed', "unbalanced quote in '\"unclosed'"),
        ("(muon", "'(' without ')' in '(muon'"),
        ("muon)", "')' without '(' in 'muon)'"),
        ("AND", "AND needs a word on its left in 'AND'"),
        ("OR muon", "OR needs a word on its left in 'OR muon'"),
        ("muon AND", "AND needs a word on its right in 'muon AND'"),
        ("muon NOT", "NOT needs a word on its right in 'muon NOT'"),
        ("muon AND OR adam", "OR needs a word on its left in 'muon AND OR adam'"),
        (
            "foo:bar",
            "unknown field 'foo' in 'foo:bar' (fields: title: name: author: keyword: tag: abstract: summary: venue: year: category:)",
        ),
        ("title:", "title: needs a value in 'title:'"),
        ("year:abc", "year:abc is not a year; write year:2026, year:2025..2026 or year:>=2025"),
        ("year:..", "year:.. is not a year; write year:2026, year:2025..2026 or year:>=2025"),
        (
            "year:2026..2025",
            "year:2026..2025 runs backwards and matches nothing; did you mean year:2025..2026?",
        ),
        ("*", "'*' alone matches nothing useful; add letters to it"),
        ("   ", "the query '   ' has no words to search for"),
        ("( )", "the query '( )' has no words to search for"),
    ],
)
def test_malformed_queries_are_explained(text, message):
    with pytest.raises(UsageError) as err:
        rewrite(text, resolve)
    assert str(err.value) == message


def test_a_long_query_is_quoted_back_cut_short():
    pasted = "muon " * 30 + '"unclosed'
    with pytest.raises(UsageError) as err:
        rewrite(pasted, resolve)
    assert str(err.value) == f"unbalanced quote in {pasted[:59] + '…'!r}"
