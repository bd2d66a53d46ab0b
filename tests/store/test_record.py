"""Records: field order, validation, labels, and YAML round trips through the library."""

from __future__ import annotations

import pytest

from papercli.errors import RecordError
from papercli.store.record import FIELDS, Record, Source
from papercli.store.yamlio import dump_yaml, load_yaml

HOSTILE = [
    "yes",
    "null",
    "~",
    "!!python/object:os.system",
    "key: value",
    "- item",
    "[mask] [/]",
    "{",
    "%",
    "|",
    "\x1b[31mred\x1b[0m",
    "line\nbreak",
    "  spaced  ",
    "'quoted\"",
    "#hash",
    "@article{x,",
    "..",
    "a/b",
    "0x1F",
    "1e3",
    "2026",
]


def full_record() -> Record:
    return Record(
        id="iclr2026-x",
        citekey="x2026",
        title="A Title",
        short_name="X",
        venue="ICLR",
        year=2026,
        categories=["优化/理论"],
        tags=["muon"],
        abstract="An abstract with $K$ and \\emph{emphasis}.",
        summary_zh="提出 X 方法。",
        urls=["https://example.org/x"],
        sources=[Source("sources/doc-abc.txt", "doc.txt", 7, "digest", ["title", "summary_zh"])],
    )


def test_to_dict_has_fields_in_order_and_omits_empty_optional_sections():
    data = full_record().to_dict()
    assert list(data) == [
        f
        for f in FIELDS
        if f not in ("aliases", "authors", "kind", "keywords", "tag_edits", "conflicts")
    ]


def test_yaml_round_trip_is_exact():
    record = full_record()
    text = dump_yaml(record.to_dict())
    assert Record.from_dict(load_yaml(text, "r.yaml")) == record
    assert text.startswith("id: iclr2026-x\ncitekey: x2026\ntitle: A Title\n")


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_text_survives_yaml_as_text(value):
    record = full_record()
    record.title = value
    record.summary_zh = value
    record.categories = [value]
    back = Record.from_dict(load_yaml(dump_yaml(record.to_dict()), "r.yaml"))
    assert (back.title, back.summary_zh, back.categories) == (value, value, [value])


def test_python_tags_are_never_constructed():
    with pytest.raises(RecordError, match=r"r\.yaml line 1"):
        load_yaml("id: !!python/object/apply:os.system ['echo hi']\n", "r.yaml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "r.yaml: a record must be a mapping, not list"),
        ({"id": "Bad Id"}, "r.yaml: 'id' must be lower-case ASCII letters, digits and dashes"),
        ({"id": "../etc"}, "r.yaml: 'id' must be lower-case ASCII letters, digits and dashes"),
        ({"id": "x", "year": "2026"}, "r.yaml.year must be a whole number, not '2026'"),
        ({"id": "x", "year": True}, "r.yaml.year must be a whole number, not True"),
        ({"id": "x", "year": 70000}, "r.yaml.year must be a year of four digits, not 70000"),
        ({"id": "x", "year": -3}, "r.yaml.year must be a year of four digits, not -3"),
        ({"id": "x", "tags": "muon"}, "r.yaml.tags must be a list"),
        ({"id": "x", "tags": [1]}, "r.yaml.tags[0] must be text, not int"),
        ({"id": "x", "title": ["a"]}, "r.yaml.title must be text, not list"),
        ({"id": "x", "colour": "red"}, "r.yaml: unknown field 'colour'"),
        ({"id": "x", "sources": [{"name": "d"}]}, "r.yaml.sources[0]: missing key 'document'"),
        (
            {"id": "x", "citekey": "a b"},
            "r.yaml: 'citekey' must be ASCII letters, digits and _:./+-",
        ),
        (
            {"id": "x", "kind": "Article!"},
            "r.yaml: 'kind' must be a BibTeX entry type (article, inproceedings, …): lower-case letters",
        ),
    ],
)
def test_validation_messages(data, message):
    with pytest.raises(RecordError) as err:
        Record.from_dict(data, "r.yaml")
    assert str(err.value) == message


def test_label_of_an_untitled_paper_is_derived_from_short_name_and_abstract():
    record = Record(
        id="x",
        short_name="MuonBP",
        abstract="Gradient orthogonalization is a simple strategy that shows great utility in "
        "speeding up gradient descent. The Muon optimizer combines it.",
    )
    assert record.title_is_derived
    assert record.label == (
        "MuonBP — Gradient orthogonalization is a simple strategy that shows great utility in "
        "speeding up…"
    )
    assert Record(id="y", title="T").label == "T"
    assert Record(id="z").label == "(no title, no abstract)"


FIRST_SENTENCES = [
    (
        "It improves accuracy by 2.7% over Adam. It is fast.",
        "It improves accuracy by 2.7% over Adam.",
    ),
    (
        "We tune Qwen2.5 and GPT-3.5 with v2.0 weights. It is fast.",
        "We tune Qwen2.5 and GPT-3.5 with v2.0 weights.",
    ),
    ("Models, e.g. Qwen2.5, learn. It is fast.", "Models, e.g. Qwen2.5, learn."),
    (
        "It follows Smith et al. (2020) closely. It is fast.",
        "It follows Smith et al. (2020) closely.",
    ),
    ("Muon vs. Adam, i.e. Two optimizers. It is fast.", "Muon vs. Adam, i.e. Two optimizers."),
    (
        "See Fig. 3, Eq. 2 and Sec. 4, cf. Lion. It is fast.",
        "See Fig. 3, Eq. 2 and Sec. 4, cf. Lion.",
    ),
    ("准确率提升 2.7%，速度更快。其余从略。", "准确率提升 2.7%，速度更快。"),
]


@pytest.mark.parametrize(("abstract", "first"), FIRST_SENTENCES)
def test_a_label_ends_at_a_sentence_end_never_at_a_number_or_an_abbreviation(abstract, first):
    """A decimal point, a version number or an abbreviation's full stop ends no sentence:
    a label cut there ("Models, e.g.") misstates the paper. 。 ends one."""
    assert Record(id="x", abstract=abstract).label == first


def test_a_remote_source_and_keywords_round_trip():
    from papercli.store.record import Source

    record = full_record()
    record.keywords = ["muon", "orthogonalization"]
    record.sources.append(
        Source("openreview:abc", "OpenReview", 0, "openreview", ["title"], fetched="2026-12-01")
    )
    data = record.to_dict()
    assert data["keywords"] == ["muon", "orthogonalization"]
    assert data["sources"][-1] == {
        "document": "openreview:abc",
        "name": "OpenReview",
        "line": 0,
        "format": "openreview",
        "fields": ["title"],
        "fetched": "2026-12-01",
    }
    assert "fetched" not in data["sources"][0]  # (a document's copy: no date)
    back = Record.from_dict(load_yaml(dump_yaml(data), "r.yaml"))
    assert back == record
    assert [s.place for s in back.sources][-1] == "openreview:abc (fetched 2026-12-01)"
    assert back.sources[-1].remote and not back.sources[0].remote
