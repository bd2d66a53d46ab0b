"""BibTeX in: fields mapped onto records, exported BibTeX reads back to the same records."""

from __future__ import annotations

import yaml

from papercli.export import render
from papercli.ingest import ingest
from papercli.parsers import parse_bytes
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.filters import Filters
from papercli.search.questions.listing import list_papers
from papercli.store.library import Library
from papercli.text.latex import latex_to_text
from testing import BUNDLED

REFS = r"""% my references
@article{smith2020muon,
  author = {Smith, Jane and M{\"u}ller, Hans},
  title = {Muon: {An} Optimizer for $O(\sqrt{T})$ Rates \& More},
  journal = {Journal of Machine Learning Research},
  year = 2020,
  pages = {1--20},
  doi = {10.1000/xyz},
  keywords = {muon, reading-list},
  abstract = {We propose Muon, an optimizer. It uses 5\% less memory.},
}

@inproceedings{ours,
  title = {A {Neural}IPS Paper},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2025},
  annotation = {提出一种新方法。},
}

@misc{broken, title = {no closing brace
"""


def test_fields_are_mapped():
    doc = parse_bytes(REFS.encode(), "refs.bib")
    assert doc.format == "bibtex"
    first, second = doc.entries
    assert first.title == r"Muon: An Optimizer for $O(\sqrt{T})$ Rates & More"
    assert first.authors == ["Smith, Jane", "Müller, Hans"]
    assert (first.venue, first.year, first.citekey) == (
        "Journal of Machine Learning Research",
        2020,
        "smith2020muon",
    )
    assert first.short_name == "Muon"
    assert first.abstract == "We propose Muon, an optimizer. It uses 5% less memory."
    assert first.urls == ["https://doi.org/10.1000/xyz"]
    assert first.keywords == ["muon", "reading-list"]
    assert (second.venue, second.year, second.summary_zh) == ("NeurIPS", 2025, "提出一种新方法。")
    assert [(w.line, w.message) for w in doc.warnings] == [
        (20, "an entry BibTeX cannot read (unbalanced braces or quotes?); skipped"),
        (1, "fields with no place in a record, kept in the source copy only: pages (1)"),
    ]


def test_keywords_the_taxonomy_does_not_give_become_user_tags(tmp_library, tmp_path):
    refs = tmp_path / "refs.bib"
    refs.write_text(REFS, encoding="utf-8")
    report = ingest(tmp_library, [refs])
    assert len(report.new) == 2 and len(report.warnings) == 2
    record = tmp_library.load(report.new[0])
    assert record.citekey == "smith2020muon" and record.authors == ["Smith, Jane", "Müller, Hans"]
    assert "reading-list" in record.tags and record.tag_edits == {"added": ["reading-list"]}
    assert "muon" in record.tags  # the taxonomy finds it too


def test_exported_biblatex_reads_back_to_the_same_records(tmp_path):
    bundled = Library(BUNDLED)  # the records themselves, not an index over them
    records = [bundled.load_path(p) for p in sorted(bundled.papers_dir.glob("*.yaml"))]
    bib = tmp_path / "all.bib"
    bib.write_text(render("biblatex", records), encoding="utf-8")
    fresh = Library(tmp_path / "fresh")
    report = ingest(fresh, [bib])
    assert (len(report.new), report.warnings) == (63, [])
    for original in records:
        back = fresh.load(original.id)  # same id
        same = ("citekey", "title", "short_name", "venue", "year", "tags", "tag_edits", "authors")
        assert {k: getattr(back, k) for k in same} == {k: getattr(original, k) for k in same}
        for text in ("abstract", "summary_zh"):  # the same text; LaTeX spelling may differ
            assert latex_to_text(getattr(back, text) or "") == latex_to_text(
                getattr(original, text) or ""
            )
    again = ingest(fresh, [bib])
    assert (again.new, again.unchanged) == ([], 63)


LITERALS = r"""@misc{lit, year = 2026,
  title = {A \{Braced\} Set at \$5 or \$10, {50\%} \textbackslash{} Off}}
"""


def test_literal_braces_and_dollars_are_kept_as_bibtex_wrote_them(tmp_path):
    r"""BibTeX's ``\{x\}`` and ``\$5`` are the characters themselves. Read as ``{x}`` and
    ``$5``, the record's text lost them when shown (grouping braces; ``$5 or $10`` as
    math), and an export wrote the braces as grouping."""
    (entry,) = parse_bytes(LITERALS.encode(), "lit.bib").entries
    shown = "A {Braced} Set at $5 or $10, 50% \\ Off"
    assert latex_to_text(entry.title) == shown
    library = Library(tmp_path / "lib")
    (tmp_path / "lit.bib").write_text(LITERALS, encoding="utf-8")
    ingest(library, [tmp_path / "lit.bib"])
    (record,) = [library.load_path(p) for p in library.papers_dir.glob("*.yaml")]
    (tmp_path / "out.bib").write_text(render("bibtex", [record]), encoding="utf-8")
    (back,) = parse_bytes((tmp_path / "out.bib").read_bytes(), "out.bib").entries
    assert latex_to_text(back.title) == shown


def test_reimport_into_the_same_library_adds_provenance_only(seeded_library, tmp_path):
    records = [h.record for h in list_papers(PaperIndex(seeded_library).open(), Filters())]
    bib = tmp_path / "all.bib"
    bib.write_text(render("biblatex", records), encoding="utf-8")
    before = {r.id: r for r in records}
    report = ingest(seeded_library, [bib])
    assert report.new == [] and len(report.merged) == 63
    for rid, original in before.items():
        data = yaml.safe_load(seeded_library.record_path(rid).read_text("utf-8"))
        assert data["title"] == original.title and data["tags"] == original.tags
        assert [s["name"] for s in data["sources"]][-1] == "all.bib"


MACROS = r"""@string{iclr = "International Conference on Learning Representations"}
@string{conf = "Proc. " # iclr}
@inproceedings{joined,
  title = "Muon " # {Is} # " Scalable",
  booktitle = iclr,
  year = 2026,
}
@inproceedings{nested, title = conf # " " # 2026, booktitle = conf, year = "20" # "26"}
@inproceedings{monthly, title = {Third} # " (" # jan # ")", booktitle = neurips, year = 2026}
@inproceedings{stray, title = {Fourth}, booktitle = {ICML} {2026}, year = 2026}
"""


def test_concatenations_and_macros_read_as_bibtex_reads_them():
    doc = parse_bytes(MACROS.encode(), "macros.bib")
    got = [(e.citekey, e.title, e.venue, e.year) for e in doc.entries]
    assert got == [
        ("joined", "Muon Is Scalable", "ICLR", 2026),
        ("nested", "Proc. International Conference on Learning Representations 2026", "ICLR", 2026),
        ("monthly", "Third (January)", None, 2026),  # not a venue named 'neurips'
        ("stray", "Fourth", None, 2026),
    ]
    assert [(w.line, w.message) for w in doc.warnings] == [
        (
            9,
            "entry 'monthly': booktitle uses 'neurips', which no @string defines; read as "
            "empty, as BibTeX reads it",
        ),
        (
            10,
            "entry 'stray': booktitle holds an unexpected '{' (pieces are joined by #); the "
            "field is left out",
        ),
    ]


EXPORTERS = r"""@article{kingma2014adam,
  title={Adam: A method for stochastic optimization},
  author={Kingma, Diederik P and Ba, Jimmy},
  journal={arXiv preprint arXiv:1412.6980},
  year={2014}
}
@misc{kingma2017adam,
      title={Adam: A Method for Stochastic Optimization},
      author={Diederik P. Kingma and Jimmy Ba},
      year={2017},
      eprint={1412.6980},
      archivePrefix={arXiv},
      primaryClass={cs.LG},
      url={https://arxiv.org/abs/1412.6980},
}
@article{DBLP:journals/corr/abs-2106-09685,
  title        = {LoRA: Low-Rank Adaptation of Large Language Models},
  journal      = {CoRR},
  volume       = {abs/2106.09685},
  year         = {2021},
  eprinttype    = {arXiv},
  eprint       = {2106.09685},
}
@article{Hu2021LoRALA,
  title={LoRA: Low-Rank Adaptation of Large Language Models},
  journal={ArXiv},
  year={2021},
  volume={abs/2106.09685},
}
@inproceedings{he2016deep,
  title={Deep residual learning for image recognition},
  booktitle={Proceedings of the IEEE conference on computer vision and pattern recognition},
  year={2016}
}
@inproceedings{liu2024dora,
  title={Do{RA}: Weight-Decomposed Low-Rank Adaptation},
  booktitle={Forty-first International Conference on Machine Learning},
  year={2024},
  url={https://openreview.net/forum?id=3d5CIRG1n2},
  eprint={2402.09353}, archiveprefix={arXiv},
}
@inproceedings{vaswani2017,
  title={Attention is all you need},
  booktitle={Advances in Neural Information Processing Systems},
  volume={30},
  year={2017}
}
@inproceedings{icmla, title={Not ICML}, year={2020},
  booktitle={2020 19th IEEE International Conference on Machine Learning and Applications (ICMLA)}}
@inproceedings{workshop, title={A Workshop Paper}, year={2023},
  booktitle={ICLR 2023 Workshop on Mathematical and Empirical Understanding of Foundation Models}}
@article{gödel, title={Über formal unentscheidbare Sätze}, year={1931},
  journal={Monatshefte f{\"u}r Mathematik und Physik}}
@misc{kingma_adam_2017,
	title = {Adam: {A} {Method} for {Stochastic} {Optimization}},
	doi = {10.48550/arXiv.1412.6980},
	publisher = {arXiv},
	author = {Kingma, Diederik P. and Ba, Jimmy},
	year = {2017},
}
"""


def test_venues_and_preprints_as_scholar_arxiv_dblp_and_openreview_write_them():
    """Each exporter names a venue its own way: the paper's venue is the conference, or
    arXiv for a preprint, and the arXiv identifier becomes a link."""
    doc = parse_bytes(EXPORTERS.encode(), "refs.bib")
    got = [(e.citekey, e.venue, e.year, e.urls) for e in doc.entries]
    abs_ = "https://arxiv.org/abs/"
    assert got == [
        ("kingma2014adam", "arXiv", 2014, [abs_ + "1412.6980"]),  # Google Scholar
        ("kingma2017adam", "arXiv", 2017, [abs_ + "1412.6980"]),  # arXiv
        ("DBLP:journals/corr/abs-2106-09685", "arXiv", 2021, [abs_ + "2106.09685"]),  # DBLP
        ("Hu2021LoRALA", "arXiv", 2021, [abs_ + "2106.09685"]),  # Semantic Scholar
        ("he2016deep", "CVPR", 2016, []),
        (
            "liu2024dora",
            "ICML",
            2024,
            ["https://openreview.net/forum?id=3d5CIRG1n2", abs_ + "2402.09353"],
        ),  # OpenReview
        ("vaswani2017", "NeurIPS", 2017, []),
        (
            "icmla",
            "2020 19th IEEE International Conference on Machine Learning and Applications (ICMLA)",
            2020,
            [],
        ),  # not ICML
        (
            "workshop",
            "ICLR 2023 Workshop on Mathematical and Empirical Understanding of Foundation Models",
            2023,
            [],
        ),  # not the conference
        (None, "Monatshefte für Mathematik und Physik", 1931, []),
        (
            "kingma_adam_2017",
            "arXiv",
            2017,
            ["https://doi.org/10.48550/arXiv.1412.6980", abs_ + "1412.6980"],
        ),  # Zotero
    ]
    assert [(w.line, w.message) for w in doc.warnings] == [
        (52, "entry 'gödel': a citation key cannot hold 'ö'; the paper gets a key of its own"),
        (
            1,
            "fields with no place in a record, kept in the source copy only: primaryclass (1), "
            "publisher (1), volume (3)",
        ),
    ]


def test_the_entry_type_is_kept_and_howpublished_names_a_venue_when_nothing_else_does():
    text = rb"""@article{a, title={A}, journal={Nature}, year=2020}
@misc{b, title={B}, howpublished={Some Workshop}, year=2021}
@misc{c, title={C}, howpublished={\url{https://example.org/c}}, year=2021}
@inproceedings{d, title={D}, booktitle={ICML}, howpublished={Kept in the copy}, year=2021}
@article{e, title={E}, journal={Nature}, year=2022, eprint={hal-01234567}, eprinttype={hal}}
"""
    doc = parse_bytes(text, "kinds.bib")
    assert [(e.citekey, e.kind, e.venue, e.urls) for e in doc.entries] == [
        ("a", "article", "Nature", []),
        ("b", "misc", "Some Workshop", []),
        ("c", "misc", None, ["https://example.org/c"]),
        ("d", "inproceedings", "ICML", []),
        ("e", "article", "Nature", []),
    ]
    assert [w.message for w in doc.warnings] == [
        "fields with no place in a record, kept in the source copy only: eprint (1), "
        "eprinttype (1), howpublished (1)"
    ]


def test_font_switches_are_no_words_in_any_format(tmp_library, tmp_path):
    """{\\em some words} came out as "em some words" in show, Markdown and BibTeX."""
    from papercli.export import FORMATS, render

    refs = tmp_path / "refs.bib"
    refs.write_text(
        "@inproceedings{a, title={Learning {\\em Fast} Models}, year={2025}, booktitle={ICML},\n"
        "  abstract={We train {\\bf small} models {\\it quickly} and {\\sc well}.}}\n",
        encoding="utf-8",
    )
    report = ingest(tmp_library, [refs])
    record = tmp_library.load(report.new[0])
    assert latex_to_text(record.title) == "Learning Fast Models"
    assert latex_to_text(record.abstract) == "We train small models quickly and well."
    for fmt in FORMATS:
        text = render(fmt, [record])
        for switch in ("em Fast", "bf small", "it quickly", "sc well"):
            assert switch not in text, (fmt, switch)


def test_font_commands_pylatexenc_lacks_read_as_their_words():
    """\\texttt{FooBar} came out as "textttFooBar": pylatexenc does not know it."""
    text = r"We run \texttt{FooBar} with \textsf{Foo {\em Bar}} on \mbox{5\% of} \uline{a}{b}."
    assert latex_to_text(text) == "We run FooBar with Foo Bar on 5% of ab."
