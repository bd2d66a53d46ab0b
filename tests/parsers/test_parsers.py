"""Parsers against the real seed documents and against the variations real pages show."""

from __future__ import annotations

import pytest

from papercli.errors import DocumentError
from papercli.parsers import parse_bytes, parse_file
from testing import ABSTRACTS, DIGEST


def by_title(doc, prefix):
    [entry] = [e for e in doc.entries if e.title and e.title.startswith(prefix)]
    return entry


# --- the digest page -----------------------------------------------------------------------


def test_digest_header(digest):
    assert digest.format == "digest"
    assert (digest.venue, digest.year) == ("ICLR", 2026)
    assert digest.category == "优化/理论"
    assert digest.declared_count == 45
    assert digest.warnings == []  # the hot-topics line is understood (and not a paper)


def test_digest_entries_all_found_with_lines(digest):
    assert len(digest.entries) == 45
    assert [e.line for e in digest.entries] == list(range(5, 5 + 3 * 45, 3))
    assert all(e.title and e.summary_zh and not e.abstract for e in digest.entries)
    assert all(e.categories == ["优化/理论"] for e in digest.entries)


def _without_separators(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if line != "-")


def _double_spaced(text: str) -> str:
    return "\n\n".join(text.split("\n"))


@pytest.mark.parametrize("saved", [_without_separators, _double_spaced], ids=["no-dash", "spaced"])
def test_a_digest_saved_without_its_dash_lines_or_double_spaced_reads_the_same(digest, saved):
    """A browser's copy drops the bare "-" lines, or puts a blank line after every line: the
    same 45 papers, with no warning."""
    doc = parse_bytes(saved(DIGEST.read_text("utf-8")).encode(), "x.txt")
    assert (doc.format, doc.warnings) == ("digest", [])
    same = ("title", "summary_zh", "short_name", "venue", "year", "categories")
    assert [[getattr(e, f) for f in same] for e in doc.entries] == [
        [getattr(e, f) for f in same] for e in digest.entries
    ]


def test_digest_named_entries(digest):
    muon = by_title(digest, "Convergence of Muon")
    assert muon.title == "Convergence of Muon with Newton-Schulz"
    assert muon.short_name is None  # no colon, no name after 提出
    assert muon.line == 26
    assert muon.summary_zh.startswith("首次为实际使用的 Muon 优化器")
    assert r"\(\sqrt{r}\)" in muon.summary_zh  # inline LaTeX is kept verbatim
    nabla = by_title(digest, "∇-Reasoner")
    assert nabla.short_name == "∇-Reasoner"
    assert by_title(digest, "Πnet").short_name == "Πnet"
    assert by_title(digest, "Celo2").short_name == "Celo2"
    assert by_title(digest, "Adaptive Rollout").short_name == "VIP"  # trailing "(VIP)"
    assert by_title(digest, "Markovian").summary_zh.count("GRPO风格") == 1
    # a multi-word prefix before the colon is not a name; the summary names the method
    assert by_title(digest, "Converge Faster").short_name == "HiSo"
    assert by_title(digest, "Rolling Ball").short_name == "RBO"
    assert by_title(digest, "Generalization Below").short_name is None


# --- the abstract list ---------------------------------------------------------------------

EXPECTED_NAMES = [
    "iJKOnet",
    None,
    "RRNCO",
    "LLR-BC",
    "NI Sampling",
    "EF21-Muon",
    "Semi-DPO",
    "MPU",
    "KL-Shampoo",
    "L2Seg",
    None,
    None,
    "RFedAGS",
    None,
    "GMPO",
    None,
    "BinomGBML",
    "MuonBP",
    "QZO",
]


def test_abstracts_header_and_entries(abstracts):
    assert abstracts.format == "abstracts"
    assert (abstracts.venue, abstracts.year) == ("ICLR", 2026)
    assert abstracts.warnings == []
    assert len(abstracts.entries) == 19
    assert [e.line for e in abstracts.entries] == list(range(3, 40, 2))
    assert all(e.title is None and e.summary_zh is None for e in abstracts.entries)


def test_abstract_short_names(abstracts):
    assert [e.short_name for e in abstracts.entries] == EXPECTED_NAMES


MARKED = [
    (r"We propose \textsc{Lumina}, a method for light.", None),
    (r"We propose {\sc Lumina}, a method for light.", None),
    (r"We present \textbf{Lumina} --- a method for light.", None),
    (r"We propose \texttt{FooBar}: a method for light.", None),
    (r"We introduce \emph{Lumina}, a method for light.", None),
    (r"We propose a method for light (\textsc{Lumina}).", None),
    (r"A method for light.", r"\textsc{Lumina}: Learning with Light"),
    (r"A method for light.", r"{\sc Lumina}: Learning with Light"),
    (r"A method for light.", r"Learning with Light (\textsc{Lumina})"),
]


@pytest.mark.parametrize(("abstract", "title"), MARKED)
def test_a_name_set_apart_in_type_is_the_short_name_in_plain_text(abstract, title):
    """\\textsc{Lumina} marks a name that "Lumina" alone does not; it comes out plain, from
    a BibTeX entry (whose fields are read as text on the way in) as from an abstract list."""
    name = "FooBar" if "FooBar" in abstract else "Lumina"
    fields = f"abstract={{{abstract}}}" + (f", title={{{title}}}" if title else "")
    assert parse_bytes(f"@misc{{a, {fields}}}".encode(), "refs.bib").entries[0].short_name == name
    if title is None:
        listed = f"ICLR 2026 papers\n\n{abstract} {' '.join(['word'] * 30)}.\n"
        assert parse_bytes(listed.encode(), "x.txt").entries[0].short_name == name


def test_an_emphasised_word_in_lower_case_is_no_name():
    from papercli.parsers.shortname import from_abstract

    assert from_abstract(r"We propose \emph{adaptive} step sizes for light.") is None


def test_an_abbreviation_does_not_end_the_sentence_that_names_the_method():
    from papercli.parsers.shortname import from_abstract

    text = "We propose an optimizer for models (e.g. Qwen2.5), Quick Optimizer (QOpt). It is fast."
    assert from_abstract(text) == "QOpt"


def test_abstract_text_and_urls(abstracts):
    gmpo = abstracts.entries[14]
    assert r"\Ours-7B" in gmpo.abstract  # kept as written; rendering deals with it
    assert gmpo.urls == ["https://github.com/callsys/GMPO"]
    assert abstracts.entries[0].abstract.startswith("Learning population dynamics involves")
    assert abstracts.entries[-1].abstract.endswith("within a single 24GB GPU.")


# --- detection from content, header variations --------------------------------------------


def test_format_is_detected_from_content_not_name(tmp_path):
    renamed = tmp_path / "refs.bib"
    renamed.write_bytes(DIGEST.read_bytes())
    doc, _ = parse_file(renamed)
    assert doc.format == "digest" and len(doc.entries) == 45


@pytest.mark.parametrize(
    ("header", "venue", "year", "count"),
    [
        ("🔬 NeurIPS2025 · 117 篇论文解读", "NeurIPS", 2025, 117),
        ("ICML 2025 · 58 papers", "ICML", 2025, 58),
        ("📚 neurips 2024 — 3 papers explained", "NeurIPS", 2024, 3),
        ("AAAI2026", "AAAI", 2026, None),
    ],
)
def test_digest_header_variants(header, venue, year, count):
    text = f"📐 Optimization¶\n{header}\n- A Title\n-\n摘要在这里。\n"
    doc = parse_bytes(text.encode(), "x.txt")
    assert (doc.venue, doc.year, doc.declared_count) == (venue, year, count)
    assert doc.category == "Optimization"
    assert [e.title for e in doc.entries] == ["A Title"]


@pytest.mark.parametrize(
    "header", ["NeurIPS 2025 Accepted Papers", "ICML 2025 paper list", "ICLR2026 论文列表"]
)
def test_abstract_header_variants(header):
    words = " ".join(["word"] * 30)
    doc = parse_bytes(f"{header}\n\nWe propose FooNet, a model. {words}.\n".encode(), "x.txt")
    assert doc.format == "abstracts"
    assert doc.entries[0].short_name == "FooNet"
    assert doc.venue is not None and doc.year is not None


def test_declared_count_mismatch_is_reported():
    text = "Cat¶\nICLR2026 · 3 篇论文解读\n- One\n-\n第一。\n- Two\n-\n第二。\n"
    doc = parse_bytes(text.encode(), "x.txt")
    assert len(doc.entries) == 2
    assert [(w.line, w.message) for w in doc.warnings] == [
        (1, "the page declares 3 papers but 2 entries were found")
    ]


def test_truncated_digest_keeps_complete_entries_and_warns():
    data = DIGEST.read_bytes()
    cut = data[: data.index(b"- When to Restart?") + 40]  # inside the last entry
    doc = parse_bytes(cut, "cut.txt")
    assert len(doc.entries) == 44
    assert [w.line for w in doc.warnings] == [137, 1]
    assert "cut short" in doc.warnings[0].message
    assert doc.warnings[1].message == "the page declares 45 papers but 44 entries were found"


def test_truncated_abstract_list_warns_for_the_cut_abstract():
    data = ABSTRACTS.read_bytes()
    doc = parse_bytes(data[:-40], "cut.txt")
    assert len(doc.entries) == 18
    assert [(w.line, "cut short" in w.message) for w in doc.warnings] == [(39, True)]


def test_text_outside_entries_is_reported_with_its_line():
    text = "Cat¶\nICLR2026 · 1 篇论文解读\n- One\n-\n第一。\n\nstray words here\n"
    doc = parse_bytes(text.encode(), "x.txt")
    assert [(w.line, w.message) for w in doc.warnings] == [
        (7, "text outside any entry, ignored: 'stray words here'")
    ]


def test_a_warning_quotes_whole_words_and_says_what_became_of_the_entry():
    title = "Convergence Analysis of Adaptive Optimizers under Floating-Point Quantization"
    text = f"Cat¶\nICLR2026 · 2 篇论文解读\n- {title}\n-\n\n- Two\n-\n第二。\n"
    doc = parse_bytes(text.encode(), "x.txt")
    assert [(w.line, w.message) for w in doc.warnings] == [
        (
            3,
            "entry 'Convergence Analysis of Adaptive Optimizers…' has no summary; "
            "kept with its title only",
        )
    ]
    assert [e.title for e in doc.entries] == [title, "Two"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "x.txt: the document is empty"),
        (b"\n \n\t\n", "x.txt: the document is empty"),
        (b"\x00\x01\x02binary\x00", "x.txt: looks like a binary file, not a text document"),
        (
            b"just a note\nnothing else\n",
            "x.txt: not a digest page, abstract list, BibTeX file or papers JSON/YAML export (see docs/formats.md)",
        ),
        (
            b"caf\xe9 au lait\n",
            "x.txt: not valid UTF-8 (byte 3: 0xe9) and not GB18030 Chinese text; save it as UTF-8",
        ),
        (b"\xff\xfeA\x00\x00\xd8", "x.txt: invalid utf-16 at byte 4 despite its byte-order mark"),
    ],
)
def test_unusable_documents(data, message):
    with pytest.raises(DocumentError) as err:
        parse_bytes(data, "x.txt")
    assert str(err.value) == message


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "gb18030"])
def test_encodings_and_line_endings(encoding):
    text = DIGEST.read_text(encoding="utf-8").replace("\n", "\r\n")
    doc = parse_bytes(text.encode(encoding), "x.txt")
    assert len(doc.entries) == 45
    assert (
        doc.entries[0].title
        == "A Convergence Analysis of Adaptive Optimizers under Floating-Point Quantization"
    )


@pytest.mark.parametrize("encoding", ["gbk", "gb18030"])
def test_an_english_document_saved_as_gbk_is_read(encoding):
    """A Chinese Windows saves an English abstract list as GBK: its dashes, quotes and ×
    are GB symbols, not Chinese characters, and the list was refused as "not GB18030
    Chinese text"."""
    text = ABSTRACTS.read_text(encoding="utf-8")
    assert (
        parse_bytes(text.encode(encoding), "x.txt").entries
        == parse_bytes(text.encode("utf-8"), "x.txt").entries
    )


def test_latin_text_that_gb18030_decodes_is_still_refused():
    """GB18030 decodes "\u00a1A" (Spanish, in Latin-1) to a private-use character, which
    is no GB symbol."""
    data = "\u00a1Atenci\u00f3n! \u00a1Arriba!\n".encode("latin-1")
    with pytest.raises(DocumentError, match="not GB18030 Chinese text"):
        parse_bytes(data, "x.txt")


def test_missing_path_and_directory(tmp_path):
    with pytest.raises(DocumentError, match="no such file"):
        parse_file(tmp_path / "missing.txt")
    with pytest.raises(
        DocumentError, match="is a folder, not a document: name the documents in it"
    ):
        parse_file(tmp_path)


def test_a_nul_anywhere_refuses_the_document():
    """The first 8 KiB decide whether a file looks binary; a NUL further on is refused too
    (it used to reach the record)."""
    text = DIGEST.read_text("utf-8")
    at = text.index("\n", 9000)
    data = (text[:at] + " \x00 " + text[at:]).encode("utf-8")
    line = text.count("\n", 0, at) + 1
    with pytest.raises(DocumentError) as err:
        parse_bytes(data, "x.txt")
    assert str(err.value) == f"x.txt: holds a NUL character on line {line}: not a text document"
