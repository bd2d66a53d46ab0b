"""A link's key: one for every spelling of it, none for text that is not a link."""

from __future__ import annotations

import pytest

from papercli.store.links import link_key, link_keys


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("1412.6980", "x:1412.6980"),
        (" arXiv:1412.6980v2 ", "x:1412.6980"),
        ("https://arxiv.org/abs/1412.6980v9", "x:1412.6980"),
        ("http://export.arxiv.org/pdf/1412.6980.pdf", "x:1412.6980"),
        ("https://doi.org/10.48550/arXiv.1412.6980", "x:1412.6980"),
        ("https://arxiv.org/abs/1412.6980?context=cs", "x:1412.6980"),
        ("hep-th/9901001", "x:hep-th/9901001"),
        ("doi:10.1000/XYZ.42", "d:10.1000/xyz.42"),
        ("https://dx.doi.org/10.1000/xyz.42", "d:10.1000/xyz.42"),
        ("https://openreview.net/forum?id=3d5CIRG1n2&noteId=x", "o:3d5CIRG1n2"),
        ("https://openreview.net/pdf?id=3d5CIRG1n2", "o:3d5CIRG1n2"),
        ("https://www.Example.org/a,b/#top", "u:example.org/a%2Cb"),
        ("muon optimizer", None),
        ("2026", None),
        ("e.g.", None),
        ("10.5", None),
        ("title:muon", None),
    ],
)
def test_link_key(text, key):
    assert link_key(text) == key


def test_a_records_arxiv_identifier_is_read_from_any_spelling_of_its_link():
    from papercli.store.links import arxiv_id

    assert (
        arxiv_id(["https://example.org/a", "https://doi.org/10.48550/arXiv.1412.6980"])
        == "1412.6980"
    )
    assert arxiv_id(["http://export.arxiv.org/pdf/hep-th/9901001v2.pdf"]) == "hep-th/9901001"
    assert arxiv_id(["https://example.org/a"]) is None


def test_a_records_links_give_each_key_once():
    urls = ["https://arxiv.org/abs/1412.6980", "https://arxiv.org/pdf/1412.6980v2", "notes"]
    assert link_keys(urls) == ["x:1412.6980"]
