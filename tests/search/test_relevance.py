"""The judged query set (tests/data/relevance.yaml) against the bundled library.

Fails when a query loses a paper it must find, finds one it must not, or ranks the
judged best paper lower. Each query kind the query language offers is represented.
"""

from __future__ import annotations

import pytest
import yaml

from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search
from papercli.store.library import Library
from testing import BUNDLED, TEST_DATA

JUDGED = yaml.safe_load((TEST_DATA / "relevance.yaml").read_text("utf-8"))


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    import shutil

    root = tmp_path_factory.mktemp("bundled") / "library"
    shutil.copytree(BUNDLED, root, ignore=shutil.ignore_patterns(".index", ".lock"))
    return PaperIndex(Library(root)).open()


def test_every_query_kind_is_judged():
    kinds = {j["kind"] for j in JUDGED}
    assert kinds == {
        "english",
        "chinese",
        "mixed",
        "identifier",
        "phrase",
        "field",
        "fuzzy",
        "prefix",
        "boolean",
    }
    assert {"muon", "联邦学习", '"vehicle routing"', "Newton-Schulz"} <= {
        j["query"] for j in JUDGED
    }


@pytest.mark.parametrize("judged", JUDGED, ids=[j["query"] for j in JUDGED])
def test_judged_query(index, judged):
    """With --exact, exactly the literal matches; with the glossary's bridge (the default),
    those and the papers judged to speak of the same concept in other words (bridged)."""
    exact = [hit.id for hit in search(index, judged["query"], exact=True)]
    assert sorted(exact) == sorted(judged["expect"])
    ranked = [hit.id for hit in search(index, judged["query"])]
    assert sorted(ranked) == sorted(judged["expect"] + judged.get("bridged", []))
    literal = set(judged["expect"])  # a literal match ranks above one made by the bridge
    assert all(r in literal for r in ranked[: len(literal)]), ranked
    if "first" in judged:
        assert ranked[0] == judged["first"]
    if "top" in judged:
        assert set(ranked[: len(judged["top"])]) == set(judged["top"])


def test_a_title_match_outranks_a_passing_mention(index):
    ranked = [hit.id for hit in search(index, "muon")]
    title = ranked.index("iclr2026-convergence-muon-newton-schulz")
    passing = ranked.index("iclr2026-convergence-analysis-adaptive-optimizers-under")
    assert title < passing
