"""The compiled glossary a query reads (search/compiled.py): what it finds, and a damaged
file met without a traceback."""

from __future__ import annotations

import pytest

from papercli.search.concepts.query_glossary import COMPILED, QueryGlossary, encode
from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library

COMPILED_SAMPLE = {
    "concepts": {
        "federated-learning": [["federated learning", "FL"], ["联邦学习"], []],
        "deep-learning": [["deep learning"], ["深度学习"], []],
        "llm": [["large language model", "LLM"], ["大语言模型"], []],
    },
    "words": {
        "federated": [["federated-learning", ["federated", "learning"]]],
        "learning": [["deep-learning", ["deep", "learning"]]],
        "language": [["llm", ["language", "large", "model"]]],
        "fl": [["federated-learning", ["fl"]]],
        "llm": [["llm", ["llm"]]],
    },
    "others": {
        "联邦学习": ["federated-learning"],
        "深度学习": ["deep-learning"],
        "大语言模型": ["llm"],
    },
}


def test_a_query_finds_the_names_it_holds(tmp_path):
    (tmp_path / COMPILED).write_bytes(encode(COMPILED_SAMPLE))
    glossary = QueryGlossary.load(tmp_path)
    assert glossary.spans("federated learning") == [(0, 18, "federated-learning")]
    assert glossary.spans("量子联邦学习") == [(2, 6, "federated-learning")]
    assert glossary.spans("learning") == []  # (deep learning needs "deep" beside it)
    assert glossary.abbreviation("llms") == "LLMs" and glossary.abbreviation("fl") == "FL"
    assert glossary.abbreviation("federated") is None
    assert glossary.spec("llm") == [["large language model", "LLM"], ["大语言模型"], []]
    assert glossary.spec("no-such-concept") is None
    assert sorted(glossary.ids()) == sorted(COMPILED_SAMPLE["concepts"])
    assert {"federated", "learning", "large", "llm"} <= glossary.words()


@pytest.mark.parametrize(
    ("damage", "found"),
    [
        (lambda raw: raw.replace(b'federated\t[["', b'federated\t{["', 1), []),  # (its entry)
        (lambda raw: raw.replace(b'federated-learning\t[["', b"federated-learning\t[[", 1), []),
        (lambda raw: raw.replace(b"FL", b"\xff\xfe", 1), None),
    ],  # (not UTF-8: no such name)
)
def test_a_garbled_entry_bridges_nothing_and_raises_nothing(tmp_path, damage, found):
    raw = encode(COMPILED_SAMPLE)
    damaged = damage(raw)
    assert damaged != raw or found is None
    (tmp_path / COMPILED).write_bytes(damaged)
    glossary = QueryGlossary.load(tmp_path)
    spans = glossary.spans("federated learning")
    assert found is None or spans == found
    assert glossary.spans("深度学习") == [(0, 4, "deep-learning")]  # (the rest still works)


@pytest.mark.parametrize("cut", [0, 10, 30, -40])
def test_a_truncated_or_foreign_file_is_no_glossary(tmp_path, cut):
    raw = encode(COMPILED_SAMPLE)
    (tmp_path / COMPILED).write_bytes(raw[:cut] if cut >= 0 else b"{}" + raw[cut:])
    assert QueryGlossary.load(tmp_path) is None


def test_the_bundled_index_compiles_every_concept(seeded_template):
    glossary = PaperIndex(Library(seeded_template)).open().query_glossary()
    assert len(glossary.ids()) >= 660
    assert all(glossary.spec(cid) for cid in glossary.ids())


@pytest.mark.parametrize("abbreviated", [True, False])
def test_each_section_is_read_whole_empty_ones_too(tmp_path, abbreviated):
    """The sections as the file holds them, between their headers; a glossary without an
    abbreviation has an empty section, read as empty (not the sections after it)."""
    sample = COMPILED_SAMPLE
    if not abbreviated:  # (no name of two capitals or more: no abbreviation)
        sample = {
            **sample,
            "concepts": {
                cid: [[n.lower() for n in en], zh, ex]
                for cid, (en, zh, ex) in sample["concepts"].items()
            },
        }
    raw = encode(sample)
    (tmp_path / COMPILED).write_bytes(raw)
    glossary = QueryGlossary.load(tmp_path)
    lines = raw.decode().splitlines(keepends=True)[1:]
    expected, name = {}, None
    for line in lines:
        if line.startswith("[") and line.rstrip("\n")[1:-1] in glossary._sections:
            name = line.rstrip("\n")[1:-1]
            expected[name] = ""
        else:
            expected[name] += line
    assert {k: v.decode() for k, v in glossary._sections.items()} == expected
    assert (expected["abbreviations"] == "") is not abbreviated
    assert glossary.spans("深度学习") == [(0, 4, "deep-learning")]
