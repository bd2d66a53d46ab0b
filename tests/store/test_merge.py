"""The merge rule: each positive case has a negative twin that must stay separate."""

from __future__ import annotations

import dataclasses

from papercli.parsers import parse_file
from papercli.parsers.base import Entry
from papercli.store.merge import entry_keys, merge_entry, new_record, same_paper
from papercli.store.record import Source
from testing import ABSTRACTS, DIGEST

SRC = Source("sources/a.txt", "a.txt", 1, "digest", [])
SRC2 = Source("sources/b.txt", "b.txt", 9, "abstracts", [])


def seed_entry(doc_path, predicate):
    doc, _ = parse_file(doc_path)
    [entry] = [e for e in doc.entries if predicate(e)]
    return entry


def test_rrnco_digest_entry_and_abstract_are_one_paper():
    digest = seed_entry(DIGEST, lambda e: e.short_name == "RRNCO")
    abstract = seed_entry(ABSTRACTS, lambda e: e.short_name == "RRNCO")
    record = new_record("iclr2026-rrnco", digest, SRC)
    assert same_paper(record, abstract)
    merge_entry(record, abstract, SRC2)
    assert (
        record.title == "RRNCO: Towards Real-World Routing with Neural Combinatorial Optimization"
    )
    assert record.abstract == abstract.abstract
    assert record.summary_zh == digest.summary_zh
    assert record.sources == [SRC, SRC2]
    assert record.conflicts == []


def test_same_short_name_but_unrelated_abstract_stays_separate():
    digest = seed_entry(DIGEST, lambda e: e.short_name == "RRNCO")
    other = Entry(
        line=3,
        venue="ICLR",
        year=2026,
        short_name="RRNCO",
        abstract="We introduce RRNCO, a recurrent network for protein folding that predicts "
        "contact maps from sequence alone and beats strong baselines on CASP benchmarks.",
    )
    assert not same_paper(new_record("x", digest, SRC), other)


def test_same_short_name_at_another_venue_or_year_stays_separate():
    digest = seed_entry(DIGEST, lambda e: e.short_name == "RRNCO")
    abstract = seed_entry(ABSTRACTS, lambda e: e.short_name == "RRNCO")
    abstract.year = 2025
    assert not set(entry_keys(digest)) & set(entry_keys(abstract))
    assert not same_paper(new_record("x", digest, SRC), abstract)


def test_titles_differing_in_case_spacing_and_dashes_are_one_paper():
    a = Entry(line=1, venue="ICLR", year=2026, title="Convergence of Muon with Newton-Schulz")
    b = Entry(line=1, venue="ICLR", year=2026, title="convergence of  MUON with Newton–Schulz")
    c = Entry(line=1, venue="ICLR", year=2026, title="Convergence of Adam with Newton-Schulz")
    record = new_record("x", a, SRC)
    assert same_paper(record, b)
    assert not same_paper(record, c)


def test_rewrapped_abstract_is_one_paper_and_an_edited_one_is_not():
    abstract = seed_entry(ABSTRACTS, lambda e: e.short_name == "QZO")
    words = abstract.abstract.split(" ")
    rewrapped = Entry(line=1, abstract="\n".join([" ".join(words[:9]), " ".join(words[9:])]))
    rewrapped.abstract = "  ".join(rewrapped.abstract.split("\n"))
    edited = Entry(line=1, abstract=abstract.abstract.replace("18$\\times$", "19$\\times$"))
    record = new_record("x", abstract, SRC)
    assert same_paper(record, rewrapped)
    assert not same_paper(record, edited)


def test_cross_listed_entry_unions_categories_and_notes_disagreement():
    a = Entry(
        line=5, venue="ICLR", year=2026, title="T", summary_zh="一。", categories=["优化/理论"]
    )
    b = Entry(line=8, venue="ICLR", year=2026, title="T", summary_zh="二。", categories=["LLM"])
    record = new_record("x", a, SRC)
    merge_entry(record, b, SRC2)
    assert record.categories == ["优化/理论", "LLM"]
    assert record.summary_zh == "一。"
    assert record.conflicts == [{"field": "summary_zh", "value": "二。", "source": "b.txt:9"}]


def test_merging_the_same_entry_twice_changes_nothing():
    a = Entry(line=5, venue="ICLR", year=2026, title="T", categories=["C"])
    record = new_record("x", a, SRC)
    before = record.to_dict()
    merge_entry(record, a, SRC)
    assert record.to_dict() == before


def test_one_arxiv_identifier_is_one_paper_and_the_conference_takes_arxivs_place():
    """Google Scholar dates Adam's preprint 2014, arXiv's own entry 2017 (its last version):
    one paper. Its ICLR 2015 entry naming the preprint joins it and gives the venue. Another
    preprint of the same short name, venue and year is another paper."""
    title = "Adam: A method for stochastic optimization"
    scholar = Entry(
        line=1,
        venue="arXiv",
        year=2014,
        title=title,
        short_name="Adam",
        urls=["https://arxiv.org/abs/1412.6980"],
    )
    arxiv = Entry(
        line=9,
        venue="arXiv",
        year=2017,
        title=title.title(),
        urls=["https://arxiv.org/pdf/1412.6980v9"],
    )
    published = Entry(
        line=20,
        venue="ICLR",
        year=2015,
        title=title.title(),
        urls=["https://arxiv.org/abs/1412.6980"],
    )
    other = Entry(
        line=30,
        venue="arXiv",
        year=2014,
        short_name="Adam",
        abstract="Adam, an optimizer for stochastic objectives, adapts its steps.",
        urls=["https://arxiv.org/abs/1412.6981"],
    )
    record = new_record("arxiv2014-adam", scholar, SRC)
    assert same_paper(record, arxiv) and not same_paper(record, other)
    merge_entry(record, arxiv, SRC2)
    assert (record.venue, record.year, record.conflicts) == ("arXiv", 2014, [])
    assert record.urls == ["https://arxiv.org/abs/1412.6980", "https://arxiv.org/pdf/1412.6980v9"]
    assert same_paper(record, published)
    merge_entry(record, published, Source("sources/c.bib", "c.bib", 20, "bibtex", []))
    assert (record.venue, record.year) == ("ICLR", 2015)


def test_a_preprint_meets_its_published_version_by_title_and_two_venues_do_not():
    preprint = Entry(
        line=1, venue="arXiv", year=2024, title="DoRA: Weight-Decomposed Low-Rank Adaptation"
    )
    published = Entry(
        line=5, venue="ICML", year=2024, title="DoRA: Weight-decomposed low-rank adaptation"
    )
    elsewhere = Entry(line=9, venue="NeurIPS", year=2024, title=published.title)
    record = new_record("arxiv2024-dora", preprint, SRC)
    assert same_paper(record, published)
    merge_entry(record, published, SRC2)
    assert (record.venue, record.year) == ("ICML", 2024)
    conference = new_record("icml2024-dora", published, SRC)
    assert not same_paper(conference, elsewhere)  # two conferences: two papers, as before
    one = Entry(
        line=1,
        venue="arXiv",
        year=2024,
        title="Scaling Laws",
        urls=["https://arxiv.org/abs/2401.00001"],
    )
    other = dataclasses.replace(one, line=2, urls=["https://arxiv.org/abs/2402.00002"])
    assert not same_paper(new_record("arxiv2024-scaling-laws", one, SRC), other)  # two preprints


def test_a_revised_bibtex_entry_changes_what_its_file_changed_and_nothing_else():
    """The digest gave the title and the Chinese summary; refs.bib gave the title, the
    abstract and a link. Its new version fixes the title, drops the abstract and changes
    the link: those change (the abstract goes: only that file gave it); the summary, and
    the short name the user set by hand, stay."""
    from papercli.store.merge import earlier_version, revise_entry

    digest = Entry(
        line=5, venue="ICLR", year=2026, title="Muon for Jounrals", summary_zh="提出 Muon。"
    )
    v1_entry = Entry(
        line=1,
        venue="ICLR",
        year=2026,
        title="Muon for Jounrals",
        abstract="We study Muon.",
        urls=["https://a.org/1"],
        citekey="muon26",
    )
    v2_entry = Entry(
        line=3,
        venue="ICLR",
        year=2026,
        title="Muon for Journals",
        urls=["https://a.org/2"],
        citekey="muon26",
    )
    v1 = Source("sources/refs-aaa.bib", "refs.bib", 1, "bibtex", v1_entry.fields())
    v2 = Source("sources/refs-bbb.bib", "refs.bib", 3, "bibtex", v2_entry.fields())
    record = new_record(
        "iclr2026-muon-jounrals",
        digest,
        Source("sources/d.txt", "d.txt", 5, "digest", digest.fields()),
    )
    merge_entry(record, v1_entry, v1)
    record.short_name = "MuonJ"  # (by hand)
    assert earlier_version(record, v2_entry, v2) == v1
    assert revise_entry(record, v2_entry, v1_entry, v2, v1)
    assert (record.title, record.abstract, record.summary_zh, record.short_name, record.urls) == (
        "Muon for Journals",
        None,
        "提出 Muon。",
        "MuonJ",
        ["https://a.org/2"],
    )
    assert [s.document for s in record.sources] == ["sources/d.txt", "sources/refs-bbb.bib"]
    unrelated = Entry(
        line=3, venue="ICLR", year=2026, title="Sparse Attention at Scale", citekey="muon26"
    )
    other = Source("sources/refs-ccc.bib", "refs.bib", 3, "bibtex", ["title"])
    assert earlier_version(record, unrelated, other) is None  # another project's refs.bib
    again = Source("sources/refs-ddd.bib", "refs.bib", 3, "bibtex", v2_entry.fields())
    assert not revise_entry(record, v2_entry, v2_entry, again, v2)  # the entry did not change
    assert [s.document for s in record.sources] == ["sources/d.txt", "sources/refs-bbb.bib"]
