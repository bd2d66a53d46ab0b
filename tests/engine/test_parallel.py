"""The parallel writer builds the index a plain one-process build makes: the same terms,
postings, lengths and stored values of every paper, whatever process indexed it. The
pools are kept small, so that every indexing process spills several runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from papercli.engine import storage
from papercli.ingest import ingest
from papercli.search.index import writer as writer_module
from papercli.search.index.paper_index import PaperIndex
from papercli.store.library import Library
from testing import SOAK, generate_documents

pytestmark = pytest.mark.slow

POOL_MB = 0.04  # small enough that each indexing process writes several runs


def long_texts(docs: list[Path], folder: Path) -> list[Path]:
    """The documents, each abstract list's abstracts joined four at a time (~800 words)."""
    folder.mkdir()
    out = []
    for doc in docs:
        text = doc.read_text("utf-8")
        if "-abstracts" in doc.name:
            head, *abstracts = text.rstrip("\n").split("\n\n")
            joined = [" ".join(abstracts[i : i + 4]) for i in range(0, len(abstracts), 4)]
            text = "\n\n".join([head, *joined]) + "\n"
        (folder / doc.name).write_text(text, "utf-8")
        out.append(folder / doc.name)
    return out


def contents(folder: Path) -> dict:
    """Everything an index holds, by paper id rather than by docnum: each term's postings
    (paper, weight, value), each paper's field lengths, stored fields and sort key, and
    the statistics that scores read."""
    ix = storage.open_index(folder)
    with ix.searcher() as searcher:
        reader = searcher.reader()
        ids = {docnum: fields["id"] for docnum, fields in reader.iter_docs()}
        schema = ix.schema
        postings, frequencies = {}, {}
        for name in schema.names():
            if not schema[name].indexed:
                continue
            for tbytes in reader.lexicon(name):
                matcher = reader.postings(name, tbytes)
                found = []
                while matcher.is_active():
                    found.append((ids[matcher.id()], matcher.weight(), matcher.value()))
                    matcher.next()
                postings[name, tbytes] = sorted(found)
                # (a term's summed weight is kept as a 32-bit float by each segment: two
                # segments' sums differ from one's in the seventh digit)
                frequencies[name, tbytes] = (
                    reader.doc_frequency(name, tbytes),
                    float(f"{reader.frequency(name, tbytes):.5g}"),
                )
        scorable = [n for n in schema.names() if schema[n].scorable]
        sortkeys = reader.column_reader("sortkey")
        return {
            "count": (reader.doc_count(), reader.doc_count_all()),
            "postings": postings,
            "frequencies": frequencies,
            # (no terms in a field: None, or 0 where no paper of the segment has the field,
            # as Whoosh's own reader answers)
            "lengths": {
                (ids[d], n): reader.doc_field_length(d, n) or 0 for d in ids for n in scorable
            },
            "field lengths": {n: reader.field_length(n) for n in scorable},
            "stored": {fields["id"]: fields for _docnum, fields in reader.iter_docs()},
            "sortkeys": {ids[d]: sortkeys[d] for d in ids},
        }


# (make soak, which CI runs too, adds libraries of 240 and 520 papers of plain texts)
@pytest.mark.parametrize(
    ("seed", "size", "long"),
    [*([(11, 240, False), (12, 520, False)] if SOAK else []), (13, 320, True)],
)
def test_the_parallel_writer_builds_the_one_process_index(seed, size, long, tmp_path, monkeypatch):
    docs = generate_documents(size, tmp_path / "docs", seed=seed)
    if long:
        docs = long_texts(docs, tmp_path / "long")
    library = Library(tmp_path / "library")
    ingest(library, docs)
    monkeypatch.setattr(writer_module, "POOL_MB", POOL_MB)
    writers = []
    original = writer_module._whoosh_writer

    def recorded(index, expected):
        writers.append(original(index, expected))
        return writers[-1]

    monkeypatch.setattr(writer_module, "_whoosh_writer", recorded)
    built = {}
    for way, parallel_from in (("one process", 10**9), ("parallel", 1)):
        monkeypatch.setattr(writer_module, "PARALLEL_FROM", parallel_from)
        shutil.rmtree(library.index_dir)
        PaperIndex(library).open()
        built[way] = contents(library.index_dir)
        assert storage.leftovers(library.index_dir) == []

    one, parallel = writers
    assert one.pool.written >= 6  # (the one-process build spilled too)
    assert len(parallel.runs_written) == 2 and min(parallel.runs_written) >= 3
    papers = len(list(library.record_files()))
    assert built["parallel"]["count"] == (papers, papers)
    for part in built["one process"]:
        assert built["parallel"][part] == built["one process"][part], part
