"""What a pasted text names whole (search/pasted.py): here, a reference copied from a
bibliography, which holds a title among words no paper has. (Pasted ids, links and titles:
test_query.py.)"""

from __future__ import annotations

import pytest

from papercli.errors import UsageError
from papercli.search.index.paper_index import PaperIndex
from papercli.search.querying.pasted import cited_titles, named_paper
from papercli.search.questions.filters import Filters
from papercli.search.questions.search import search
from papercli.search.questions.select import select


@pytest.fixture(scope="module")
def index(seeded_template):
    from papercli.store.library import Library

    return PaperIndex(Library(seeded_template)).open()


@pytest.mark.parametrize(
    ("reference", "paper"),
    [
        (
            "J. Smith and K. Lee. Convergence of Muon with Newton-Schulz. In International "
            "Conference on Learning Representations, 2026.",
            "iclr2026-convergence-muon-newton-schulz",
        ),
        (
            "[12] Celo2: Towards Learned Optimization Free Lunch. arXiv preprint "
            "arXiv:2501.00001, 2025.",
            "iclr2026-celo2",
        ),
        (
            "Smith et al. (2026). DeepAFL: Deep Analytic Federated Learning. ICLR.",
            "iclr2026-deepafl",
        ),
        (
            'Lee, K. "DeepAFL: Deep Analytic Federated Learning," in Proc. ICLR, 2026',
            "iclr2026-deepafl",
        ),  # (IEEE style: its quotes, and a comma inside them)
        (
            'Lee, K. "DeepAFL: Deep Analytic Federated Learning, in Proc. ICLR, 2026',
            "iclr2026-deepafl",
        ),  # (a quote lost on the way: no query, still a reference)
    ],
)
def test_a_reference_pasted_from_a_bibliography_finds_its_paper(index, reference, paper):
    """Its authors and venue are no paper's words: the query finds nothing, and the title
    it holds is its paper. Export takes the same text."""
    assert [h.id for h in search(index, reference)] == [paper]
    assert select(index, reference, Filters()) == [paper]
    assert search(index, reference, filters=Filters(year=2025)) == []


def test_a_cited_papers_title_is_marked_as_a_found_one_is(index):
    from papercli.search.results.marking import MARK_END, MARK_START

    reference = "J. Smith and K. Lee. Convergence of Muon with Newton-Schulz. In ICLR, 2026."
    (hit,) = search(index, reference)
    a, b = MARK_START, MARK_END
    assert hit.title_marked == f"{a}Convergence{b} of {a}Muon{b} with {a}Newton-Schulz{b}"


def test_a_reference_list_finds_each_title_it_holds(index):
    text = (
        "DeepAFL: Deep Analytic Federated Learning. ICLR 2026. Convergence of Muon with "
        "Newton-Schulz. ICLR 2026. Zzqq Qqzz."
    )
    assert {h.id for h in search(index, text)} == {
        "iclr2026-deepafl",
        "iclr2026-convergence-muon-newton-schulz",
    }


def test_a_short_title_or_a_title_cut_mid_word_is_no_reference(seeded_library, tmp_path):
    """A short title is a word or two of the query ("Muon Is Scalable" in "muon is
    scalable zzqq"); a title must end where a word of the text ends."""
    from papercli.ingest import ingest

    (tmp_path / "refs.bib").write_text(
        "@inproceedings{a, title={Muon Is Scalable}, year={2025}, booktitle={ICML}}\n"
        "@inproceedings{b, title={Federated Learning Rates}, year={2025}, booktitle={ICML}}\n",
        "utf-8",
    )
    assert len(ingest(seeded_library, [tmp_path / "refs.bib"]).new) == 2
    index = PaperIndex(seeded_library).open()
    assert search(index, "Smith. Muon is scalable zzqq. 2025") == []
    assert search(index, "Smith. Federated Learning Ratesx zzqq. 2025") == []
    assert [h.id for h in search(index, "Smith. Federated Learning Rates. zzqq 2025")] == [
        "icml2025-federated-learning-rates"
    ]


def test_text_that_neither_parses_nor_holds_a_title_is_still_an_error(index):
    with pytest.raises(UsageError, match="unbalanced quote"):
        search(index, 'Smith, "A Paper Nobody Wrote, 2026')
    with pytest.raises(UsageError, match="unbalanced quote"):
        select(index, 'Smith, "A Paper Nobody Wrote, 2026', Filters())


def test_a_title_or_reference_pasted_with_its_colours_is_still_its_title(index):
    """A title copied from a coloured terminal carries escape sequences; the index read them
    as spaces, and so does the lookup of the title (the key held "31m" and "0m")."""
    coloured = "Convergence of \x1b[31mMuon\x1b[0m with Newton-Schulz"
    paper = {"iclr2026-convergence-muon-newton-schulz"}
    assert {h.id for h in index.run(named_paper(index, coloured), limit=3)} == paper
    cited = cited_titles(index, f"J. Smith. {coloured}. In ICLR, 2026.")
    assert {h.id for h in index.run(cited, limit=3)} == paper
