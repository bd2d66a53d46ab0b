"""The compact posting pool: the same postings, in the same order, as Whoosh's own pool,
and the same index files, whether it spills to runs or not."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from whoosh import index as whoosh_index
from whoosh.filedb.filestore import RamStorage
from whoosh.writing import PostingPool

from papercli.engine.codec import PapersCodec
from papercli.engine.pool import CompactPool, install
from papercli.search.index.paper_index import PaperIndex
from papercli.search.index.schema import document, make_schema
from papercli.store.library import Library


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """The index documents of the 63 bundled papers."""
    from testing import BUNDLED

    papers = PaperIndex(Library(BUNDLED))
    out = []
    for entry in papers.library.record_files():
        record = papers.library.load_path(Path(entry.path))
        out.append(
            document(record, papers.library.stamp(record.id), None, *papers.concepts(record))
        )
    return out


@pytest.fixture(scope="module")
def postings(documents):
    """Every posting Whoosh's writer hands its pool for the bundled papers, in order."""
    writer = whoosh_index.create_in(str(_folder()), make_schema()).writer()
    seen = []

    class Recorder:
        def __init__(self):
            self.fieldnames = set()

        def add(self, item):
            seen.append(item)

        def cleanup(self):
            pass

    writer.pool = Recorder()
    for fields in documents:
        writer.add_document(**fields)
    writer.cancel()
    return seen


def _folder() -> Path:
    import tempfile

    return Path(tempfile.mkdtemp())


@pytest.mark.parametrize("limitmb", [64, 0.02, 0.001])
def test_the_pool_yields_whooshs_postings_in_whooshs_order(postings, limitmb):
    pool = CompactPool(RamStorage(), limitmb)
    for item in postings:
        pool.add(item)
    if limitmb < 1:
        assert len(pool.runs) > 3  # (spilled: the runs are merged)
    assert list(pool.iter_postings()) == sorted(postings)
    assert pool.fieldnames == {item[0] for item in postings}
    pool.cleanup()
    assert pool.runs == []


def test_postings_out_of_docnum_order_are_sorted(postings):
    """Whoosh merges another segment's postings into the pool term by term: a term's
    docnums then arrive out of order."""
    shuffled = postings[:]
    random.Random(7).shuffle(shuffled)
    pool = CompactPool(RamStorage(), 0.02)
    for item in shuffled:
        pool.add(item)
    assert list(pool.iter_postings()) == sorted(postings)


def _segment_files(
    documents, compact: bool, limitmb: float, blocklimit: int = 128
) -> tuple[dict[str, str], int]:
    """The index files written (name past the segment id -> digest), and the runs the pool
    had written before the commit."""
    folder = _folder()
    writer = whoosh_index.create_in(str(folder), make_schema()).writer(
        limitmb=max(1, int(limitmb)), codec=PapersCodec(blocklimit=blocklimit), compound=False
    )
    if compact:
        install(writer, limitmb)
    for fields in documents:
        writer.add_document(**fields)
    runs = len(writer.pool.runs)
    writer.commit()
    files = {  # (MAIN_<segment id>.pst, MAIN_<segment id>._title_len.col, …)
        path.name.split(".", 1)[1]: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in folder.iterdir()
        if path.suffix in (".trm", ".pst", ".col")
    }
    return files, runs


@pytest.mark.parametrize(("limitmb", "blocklimit"), [(64, 128), (0.01, 16)])
def test_an_index_written_from_the_pool_is_whooshs_byte_for_byte(documents, limitmb, blocklimit):
    """With and without runs merged; with blocks of 16 postings, terms span many blocks."""
    ours, runs = _segment_files(documents, True, limitmb, blocklimit)
    assert (runs > 3) == (limitmb < 1)  # (with runs merged, and without)
    assert {"trm", "pst", "_stored.col"} <= ours.keys()
    assert ours == _segment_files(documents, False, 64, blocklimit)[0]


def test_the_indexing_writers_use_the_compact_pool(seeded_library):
    from papercli.search.index.writer import _whoosh_writer

    papers = PaperIndex(seeded_library).open()
    writer = _whoosh_writer(papers, expected=1)
    try:
        assert isinstance(writer.pool, CompactPool)
        assert not isinstance(writer.pool, PostingPool)
    finally:
        writer.cancel()


def test_merging_runs_holds_a_chunk_of_each_run_not_the_pool(postings, monkeypatch):
    """At the end of a large write the postings still in memory go to a run too, and a run
    is read a chunk of bounded size at a time: merging 13 runs of a 100k ingest's share held
    ~100 MB with chunks of 4,096 terms and the pool's own postings alongside."""
    import marshal

    import papercli.engine.pool as pool_module

    monkeypatch.setattr(pool_module, "CHUNK", 2048)
    pool = CompactPool(RamStorage(), 0.02)
    for item in postings:
        pool.add(item)
    assert pool.runs and pool._fields  # (spilled, and more held since)
    merged = pool.iter_postings()
    first = next(merged)
    assert pool._fields == {}
    for name in pool.runs:
        f = pool.tempstore.open_file(name).raw_file()
        while True:
            try:
                chunk = marshal.load(f)
            except EOFError:
                break
            sizes = [len(buf) for _field, _term, buf in chunk]
            assert sum(sizes) - sizes[-1] < 2048  # (a chunk ends with the term that fills it)
    assert [first, *merged] == sorted(postings)
