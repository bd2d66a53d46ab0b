"""The spelling vocabulary beside the index: exact counts, kept in step with every change."""

from __future__ import annotations

import json
from collections import Counter

from papercli.search.index.paper_index import PaperIndex
from papercli.search.index.vocabulary import FILE, Vocabulary, words_of
from papercli.store.record import Record


def _recount(library) -> dict[str, int]:
    total: Counter[str] = Counter()
    for entry in library.record_files():
        total += words_of(library.load_path(library.papers_dir / entry.name))
    return dict(total)


def _stored(library) -> dict[str, int]:
    return json.loads((library.index_dir / FILE).read_text("utf-8"))


def test_words_of_reads_title_short_name_and_abstract_as_written():
    record = Record(
        id="x",
        title="Federated Learning's Limits",
        short_name="Fed-X",
        abstract="We study federated learning; 联邦学习 and GSM8K are not English words.",
        summary_zh="联邦学习 federated",  # the Chinese summary is not part of it
    )
    assert words_of(record) == Counter(
        {
            "federated": 2,
            "learning's": 1,
            "limits": 1,
            "fed-x": 1,
            "learning": 1,
            "we": 1,
            "study": 1,
            "and": 1,
            "are": 1,
            "not": 1,
            "english": 1,
            "words": 1,
        }
    )


def test_suggest_prefers_the_most_frequent_word_within_the_distance():
    v = Vocabulary()
    v.add(Counter({"federated": 5, "federate": 1, "learning": 3}))
    assert v.suggest("federatd", 2) == "federated"
    assert v.suggest("learnign", 2) == "learning"
    assert v.suggest("federated", 2) == "federate"  # never the word itself
    assert v.suggest("zzzzzz", 2) is None
    v.remove(Counter({"federated": 5}))
    assert "federated" not in v
    assert v.suggest("federatd", 2) == "federate"


def test_a_typo_is_one_edit_two_letters_swapped_or_two_edits_in_a_long_word():
    v = Vocabulary(Counter({"federated": 5, "sample": 2, "muon": 4, "server": 3, "learning": 3}))
    assert v.correct("federatd") == "federated"
    assert v.correct("sapmle") == "sample"  # (two edits, but one slip of the fingers)
    assert v.correct("moun") == "muon"
    assert v.correct("learnign") == "learning"
    assert v.correct("survey") is None  # (two edits from "server": another word)
    assert v.correct("muon") is None


def test_ingest_counts_every_word_of_the_library_exactly(seeded_library):
    PaperIndex(seeded_library).open()
    stored = _stored(seeded_library)
    assert stored == _recount(seeded_library)
    assert stored["muon"] >= 4


def test_an_edited_record_moves_its_counts_and_a_deleted_one_takes_them_away(seeded_library):
    index = PaperIndex(seeded_library).open()
    path = seeded_library.record_path("iclr2026-muonbp")
    text = path.read_text("utf-8")
    assert "orthogonalization" in text
    path.write_text(text.replace("orthogonalization", "orthogonalisation"), "utf-8")
    index.sync()
    stored = _stored(seeded_library)
    assert stored == _recount(seeded_library)
    assert "orthogonalisation" in stored
    seeded_library.record_path("iclr2026-ef21-muon").unlink()
    index.sync()
    assert _stored(seeded_library) == _recount(seeded_library)


def test_a_rebuilt_index_recounts_from_scratch(seeded_library):
    index = PaperIndex(seeded_library).open()
    (seeded_library.index_dir / FILE).write_text('{"bogus": 99}', "utf-8")
    index.sync(full=True)
    assert _stored(seeded_library) == _recount(seeded_library)


def test_an_index_of_another_version_is_rebuilt_without_double_counting(seeded_library):
    PaperIndex(seeded_library).open()
    state = seeded_library.index_dir / "state.json"
    data = json.loads(state.read_text("utf-8"))
    state.write_text(json.dumps({**data, "version": -1}), "utf-8")
    PaperIndex(seeded_library).open()
    assert _stored(seeded_library) == _recount(seeded_library)


def test_suggest_finds_every_word_within_the_distance():
    # Whoosh's ListCorrector misses these: the lookup must not skip any candidate.
    v = Vocabulary({"federate": 1, "learning": 1})
    assert v.suggest("federatd", 1) == "federate"
    assert v.suggest("federated", 1) == "federate"
    assert v.suggest("fedrate", 1) == "federate"


def test_a_damaged_vocabulary_file_costs_suggestions_not_a_traceback(seeded_library):
    from papercli.search.questions.suggest import suggest

    index = PaperIndex(seeded_library).open()
    path = seeded_library.index_dir / FILE
    assert suggest(index, "topolgy") == "topology"  # (a word of the library's only: the
    for damaged in ("{not json", "[1, 2]", '{"topology": "many", "learning": -3, "x": true}'):
        path.write_text(damaged, "utf-8")  # glossary's words are suggested all the same)
        assert Vocabulary.load(seeded_library.index_dir).counts == {}
        assert suggest(index, "topolgy") is None
    path.write_bytes(b"\xff\xfe garbage")
    assert Vocabulary.load(seeded_library.index_dir).counts == {}
    index.sync(full=True)  # a rebuild recounts it
    assert _stored(seeded_library) == _recount(seeded_library)
