"""The index's codec (``search/codec.py``) read back: what it answers is what Whoosh's own
readers answer over the same files."""

from __future__ import annotations

from whoosh.codec.whoosh3 import W3Codec
from whoosh.reading import TermNotFound

from papercli.engine.codec import KEPT_ENTRIES, _TermsReader
from papercli.search.index.paper_index import PaperIndex


def test_the_terms_reader_answers_every_question_as_whoosh_s(seeded_library):
    """Each term's entry is looked up once and kept (``_TermsReader``): whether the segment
    holds it, its statistics and its postings agree with Whoosh's reader of the same file,
    for every term of every field and for terms the index lacks, asked twice over; past
    ``KEPT_ENTRIES`` terms, the others are read each time they are asked about."""
    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        for leaf, _offset in searcher.reader().leaf_readers():
            ours = leaf._terms
            theirs = W3Codec.terms_reader(leaf._codec, leaf._storage, leaf._segment)
            assert isinstance(ours, _TermsReader) and not isinstance(theirs, _TermsReader)
            held = list(theirs.terms())
            absent = [(field, text + b"\xff") for field, text in held[::40]]
            absent += [("nofield", b"muon"), ("title", b"")]
            assert len(held) > 5_000
            for _round in range(2):
                for term in held:
                    assert term in ours
                    mine, whoosh = ours.term_info(*term), theirs.term_info(*term)
                    assert vars(mine) == vars(whoosh), term
                    assert ours.doc_frequency(*term) == theirs.doc_frequency(*term), term
                    assert ours.frequency(*term) == theirs.frequency(*term), term
                for term in absent:
                    assert term not in ours and term not in theirs
                    for ask in ("doc_frequency", "frequency"):
                        for reader in (ours, theirs):
                            try:
                                getattr(reader, ask)(*term)
                            except KeyError:
                                continue
                            raise AssertionError((ask, term))
                    for reader in (ours, theirs):
                        try:
                            reader.term_info(*term)
                        except TermNotFound:
                            continue
                        raise AssertionError(term)
            assert len(ours._entries) == KEPT_ENTRIES  # (doctor reads them all: no more)
            fmt = searcher.schema["abstract"].format
            for term in [t for t in held if t[0] == "abstract"][::25]:
                assert list(ours.matcher(*term, fmt).all_ids()) == list(
                    theirs.matcher(*term, fmt).all_ids()
                ), term
            theirs.close()


def test_stored_fields_and_lengths_read_as_whooshs_codec_writes_and_reads_them(
    seeded_library, tmp_path
):
    """The same papers written with Whoosh's codec (stored fields compressed) and with
    ours (uncompressed, read with ``pread``, lengths read in one piece): every paper's
    stored fields and field lengths read back the same, and so do the segment totals."""
    from pathlib import Path

    from whoosh import index as whoosh_index

    from papercli.engine.codec import PapersCodec, stored_fields_reader
    from papercli.search.index.schema import document, make_schema

    papers = PaperIndex(seeded_library)
    documents = []
    for entry in papers.library.record_files():
        record = papers.library.load_path(Path(entry.path))
        stamp = papers.library.stamp(record.id)
        documents.append(document(record, stamp, None, *papers.concepts(record)))
    read = {}
    for name, codec in (("whoosh", W3Codec()), ("ours", PapersCodec())):
        folder = tmp_path / name
        folder.mkdir()
        ix = whoosh_index.create_in(str(folder), make_schema())
        with ix.writer(codec=codec, compound=False) as writer:
            for fields in documents:
                writer.add_document(**fields)
        with ix.searcher() as searcher:
            reader = searcher.reader()
            stored = stored_fields_reader(searcher)
            names = [n for n in ix.schema.names() if ix.schema[n].scorable]
            read[name] = {
                "stored": [reader.stored_fields(d) for d in range(reader.doc_count_all())],
                "direct": [stored(d) for d in range(reader.doc_count_all())],
                "lengths": [
                    [reader.doc_field_length(d, n) for n in names]
                    for d in range(reader.doc_count_all())
                ],
                "totals": [reader.field_length(n) for n in names],
            }
    assert read["ours"] == read["whoosh"]
    assert len(read["ours"]["stored"]) == 63
