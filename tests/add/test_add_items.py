"""What an item of ``papers add`` names, read from its text; the words a title search asks
for; the venue a journal reference names; how candidates are grouped and decided."""

from __future__ import annotations

import pytest

from papercli.add.items import Item, parse_item
from papercli.add.lookup import decide, group, query_words
from papercli.errors import UsageError
from papercli.remote.arxiv import journal_venue
from papercli.remote.found import Found


@pytest.mark.parametrize(
    ("given", "kind", "value"),
    [
        ("2501.01234", "arxiv", "2501.01234"),
        ("2501.01234v2", "arxiv", "2501.01234v2"),
        ("arXiv:2501.01234", "arxiv", "2501.01234"),
        ("arxiv: 2501.01234v3", "arxiv", "2501.01234v3"),
        ("https://arxiv.org/abs/2501.01234", "arxiv", "2501.01234"),
        ("https://arxiv.org/abs/2501.01234v2", "arxiv", "2501.01234v2"),
        ("https://arxiv.org/pdf/2501.01234", "arxiv", "2501.01234"),
        ("http://export.arxiv.org/pdf/2501.01234v1.pdf", "arxiv", "2501.01234v1"),
        ("cs/0112017", "arxiv", "cs/0112017"),
        ("arXiv:math.GT/0309136v1", "arxiv", "math.GT/0309136v1"),
        ("https://arxiv.org/abs/hep-th/9901001", "arxiv", "hep-th/9901001"),
        ("10.48550/arXiv.2501.01234", "arxiv", "2501.01234"),
        ("https://openreview.net/forum?id=3d5CIRG1n2", "openreview", "3d5CIRG1n2"),
        ("https://openreview.net/pdf?id=3d5CIRG1n2", "openreview", "3d5CIRG1n2"),
        ("openreview.net/forum?id=rJl-b3RcF7&noteId=xyz", "openreview", "rJl-b3RcF7"),
        ("openreview:BJJsrmfCZ", "openreview", "BJJsrmfCZ"),
        ("10.1145/3292500.3330701", "doi", "10.1145/3292500.3330701"),
        ("doi:10.1038/nature14539", "doi", "10.1038/nature14539"),
        ("DOI: 10.1038/nature14539.", "doi", "10.1038/nature14539"),
        ("https://doi.org/10.1109/CVPR.2016.90", "doi", "10.1109/CVPR.2016.90"),
        ("http://dx.doi.org/10.1109/CVPR.2016.90", "doi", "10.1109/CVPR.2016.90"),
        ("Attention Is All You Need", "text", "Attention Is All You Need"),
        ("  Deep\n  residual\tlearning ", "text", "Deep residual learning"),
        ("adam", "text", "adam"),
        ("transformers", "text", "transformers"),
    ],
)
def test_every_form_of_an_item(given, kind, value):
    item = parse_item(given)
    assert (item.kind, item.value, item.maybe_text) == (kind, value, False)


@pytest.mark.parametrize("given", ["3d5CIRG1n2", "BJJsrmfCZ", "rJl-b3RcF7", "BERTScore"])
def test_a_bare_forum_id_may_also_be_a_title(given):
    assert parse_item(given) == Item(given, "openreview", given, maybe_text=True)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("", "an empty item: give an arXiv id, a DOI, an OpenReview link or a title"),
        (
            "\x1b[31m \x1b[0m",
            "an empty item: give an arXiv id, a DOI, an OpenReview link or a title",
        ),
        (
            "https://example.org/paper.html",
            "https://example.org/paper.html: not an arXiv, OpenReview or DOI link; give the paper's title instead",
        ),
        (
            "word " * 500,
            "a text of 2,499 characters is no title or reference (at most 2,000): paste one reference at a time",
        ),
    ],
)
def test_an_item_papers_cannot_use(given, message):
    with pytest.raises(UsageError) as caught:
        parse_item(given)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Attention Is All You Need", ["attention", "all", "you", "need"]),
        (
            "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. ICLR.",
            ["adam", "method", "stochastic", "optimization"],
        ),
        (
            "Vaswani A, Shazeer N, Parmar N, Uszkoreit J, Jones L, Gomez AN, Kaiser L, "
            "Polosukhin I. Attention is all you need. NeurIPS 2017.",
            ["attention", "all", "you", "need"],
        ),
        (
            'K. He et al., "Deep Residual Learning for Image Recognition," in CVPR, 2016.',
            ["deep", "residual", "learning", "image", "recognition"],
        ),
    ],
)
def test_the_words_a_title_search_asks_for(text, words):
    assert query_words(text) == words


@pytest.mark.parametrize(
    ("ref", "venue"),
    [
        ("ICLR 2024", ("ICLR", 2024)),
        ("Published as a conference paper at ICLR 2025", ("ICLR", 2025)),
        ("NeurIPS 2023 (spotlight)", ("NeurIPS", 2023)),
        (
            "Proceedings of the 40th International Conference on Machine Learning, PMLR 202, 2023",
            ("ICML", 2023),
        ),
        ("Phys. Rev. D 76, 013009 (2007)", ("Phys. Rev. D", 2007)),
        (
            "Transactions on Machine Learning Research (2023)",
            ("Transactions on Machine Learning Research", 2023),
        ),
        ("CoRL 2023", ("CoRL", 2023)),
        ("Nature", None),  # no year: not guessed
        ("12 pages, 3 figures", None),
    ],
)
def test_the_venue_a_journal_reference_names(ref, venue):
    assert journal_venue(ref) == venue


def found(service, title, **kw) -> Found:
    return Found(
        service=service, document=f"{service}:{title}", fetched="2026-12-01", title=title, **kw
    )


def test_a_preprint_and_its_published_version_are_one_candidate():
    parts = [
        found("arXiv", "Adam: A Method for Stochastic Optimization", arxiv="1412.6980"),
        found("Crossref", "Adam: a method for stochastic optimization.", doi="10.1000/adam"),
        found("Crossref", "Deep Residual Learning", doi="10.1000/resnet"),
        found("OpenReview", "Renamed at the venue", forum="F1", arxiv=None),
        found("arXiv", "Renamed at the venue v2", arxiv="1111.0001"),
    ]
    parts[-1].doi = "10.1000/resnet"  # (a preprint whose DOI is the published version's)
    grouped = group(parts)
    assert [[p.document for p in c.parts] for c in grouped] == [
        [
            "arXiv:Adam: A Method for Stochastic Optimization",
            "Crossref:Adam: a method for stochastic optimization.",
        ],
        ["Crossref:Deep Residual Learning", "arXiv:Renamed at the venue v2"],
        ["OpenReview:Renamed at the venue"],
    ]


def test_the_title_itself_decides_unless_two_papers_have_it():
    a = found("arXiv", "Adam: A Method for Stochastic Optimization", arxiv="1412.6980")
    b = found("arXiv", "Adam Is a Method for Stochastic Optimization Too", arxiv="2000.00001")
    decision = decide("adam - a method for stochastic  OPTIMIZATION", [b, a])
    assert decision.chosen.parts == [a] and decision.chosen.how == "title"
    twin = found("Crossref", "Adam: A Method for Stochastic Optimization", doi="10.1000/other")
    twin.arxiv = "1999.00001"  # (another paper of the same title: a different preprint)
    decision = decide("Adam: A Method for Stochastic Optimization", [a, twin])
    assert decision.chosen is None and len(decision.candidates) == 2


def test_a_fuzzy_match_needs_a_clear_margin():
    adam = found(
        "arXiv",
        "Adam: A Method for Stochastic Optimization",
        arxiv="1412.6980",
        authors=["Diederik P. Kingma", "Jimmy Ba"],
        venue="ICLR",
        year=2015,
    )
    other = found(
        "Crossref",
        "Stochastic Optimization in Practice",
        doi="10.1000/x",
        authors=["Grace Hopper"],
        venue="Journal of Examples",
        year=2019,
    )
    reference = "Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. ICLR."
    decision = decide(reference, [other, adam])
    assert decision.chosen.parts == [adam]
    assert [round(c.score, 3) for c in decision.candidates] == [0.805, 0.123]
    near = found(  # (the same words, the same authors: as close as can be)
        "arXiv",
        "A Method for Stochastic Optimization: Adam Revisited",
        arxiv="2000.00002",
        authors=["Diederik P. Kingma", "Jimmy Ba"],
        venue="ICLR",
        year=2015,
    )
    decision = decide(reference, [adam, near, other])
    assert decision.chosen is None
    assert [c.parts[0].arxiv for c in decision.candidates[:2]] == ["1412.6980", "2000.00002"]
