"""The mechanisms behind speed, checked without timing anything: lazy imports, incremental
indexing, and a freshness check that reads a bounded number of files."""

from __future__ import annotations

import subprocess
import sys

import pytest

import papercli.search.index.writer as writer_module
from papercli.ingest import ingest
from papercli.search.index.paper_index import PaperIndex
from testing import ROOT


def imported(*args: str, library=None) -> set[str]:
    """Modules a real `papers` process imports (python -X importtime), stdout piped."""
    argv = [sys.executable, "-X", "importtime", "-m", "papercli"]
    if library is not None:
        argv += ["--library", str(library)]
    result = subprocess.run([*argv, *args], capture_output=True, text=True, cwd=ROOT)
    return {line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line}


@pytest.mark.slow
def test_help_imports_nothing_heavy():
    modules = imported("--help")
    for heavy in (
        "whoosh",
        "yaml",
        "rich",
        "papercli.search.analysis",
        "papercli.search.index",
        "pylatexenc",
        "pydantic",
        "textual",
    ):
        assert heavy not in modules, heavy


@pytest.mark.slow
def test_a_piped_search_imports_only_what_it_needs(seeded_library):
    PaperIndex(seeded_library).open()
    modules = imported("search", "muon", library=seeded_library.root)
    assert {"whoosh.index", "papercli.search.analysis"} <= modules
    for unneeded in (
        "yaml",
        "rich",
        "rich.table",
        "papercli.parsers",
        "pydantic",
        "asyncio",
        "http.client",
        "textual",
    ):
        assert unneeded not in modules, unneeded
    # The hit's abstract carries LaTeX ($L_t=O(t^{-\zeta})$): its plain reading comes
    # stored with the hit, so neither the snippet nor the derived label loads pylatexenc.
    for argv in (
        ["search", "schedules"],
        ["show", "iclr2026-consider-sgd-type-optimization-infinite"],
    ):
        assert "pylatexenc" not in imported(*argv, library=seeded_library.root), argv
    listing = imported("list", "--ids", library=seeded_library.root)
    assert (
        "yaml" not in listing
        and "rich" not in listing
        and "papercli.search.results.marking" not in listing
    )


def test_adding_a_document_indexes_only_its_papers(seeded_library, tmp_path, monkeypatch):
    PaperIndex(seeded_library).open()
    indexed = []
    original = writer_module.document
    monkeypatch.setattr(
        writer_module,
        "document",
        lambda r, s, d=None, c=(), a=(): indexed.append(r.id) or original(r, s, d, c, a),
    )
    page = tmp_path / "page.txt"
    page.write_text(
        "🧠 LLM¶\n🔬 ICLR2026 · 2 篇论文解读\n- A Brand New Paper\n-\n提出新方法。\n"
        "- Convergence of Muon with Newton-Schulz\n-\n另一个摘要。\n",
        encoding="utf-8",
    )
    report = ingest(seeded_library, [page])
    assert report.new == ["iclr2026-brand-new-paper"]
    assert sorted(indexed) == [
        "iclr2026-brand-new-paper",
        "iclr2026-convergence-muon-newton-schulz",
    ]
    indexed.clear()
    PaperIndex(seeded_library).open()  # the next command: nothing left to re-index
    assert indexed == []


def test_one_changed_file_is_all_a_sync_rereads(seeded_library, monkeypatch):
    index = PaperIndex(seeded_library).open()
    path = seeded_library.record_path("iclr2026-qzo")
    path.write_text(path.read_text("utf-8").replace("short_name: QZO", "short_name: QZO2"), "utf-8")
    read = []
    original = type(seeded_library).load_path
    monkeypatch.setattr(
        type(seeded_library), "load_path", lambda self, p: read.append(p.name) or original(self, p)
    )
    report = index.sync()
    assert read == ["iclr2026-qzo.yaml"] and (report.updated, report.added) == (1, 0)


def test_a_hit_is_read_without_inflating_or_deriving_anything(seeded_library):
    """What each hit of a listing costs is mostly reading it back (issue 16): its stored
    fields lie uncompressed read with one system call each, an untitled paper's
    label was derived when it was indexed, and a piped line marks no title."""
    import io

    from papercli.engine.codec import PapersCodec, _PRead
    from papercli.render import Environment, write_hits
    from papercli.search.questions.search import search_stream

    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        readers = [r for r, _base in searcher.reader().leaf_readers()]
        assert all(isinstance(r.segment().codec(), PapersCodec) for r in readers)
        searcher.stored_fields(0)
        assert isinstance(readers[0]._perdoc._colfiles["_stored"][0], _PRead)
    stored = b"".join(p.read_bytes() for p in index.dir.glob("*_stored.col"))
    assert b"Convergence of Muon with Newton-Schulz" in stored  # not deflated

    untitled = next(h for h in search_stream(index, "muon") if not h.data.get("title"))
    assert untitled.derived == untitled.record.label  # stored, not derived again
    hits = list(search_stream(index, "muon"))
    env = Environment(io.StringIO(), io.StringIO(), color="never", environ={})
    write_hits(env, iter(hits), scores=True, fmt="plain")
    assert untitled.label in env.stdout.getvalue()
    assert not any("title_marked" in h.__dict__ for h in hits)  # marked only for a table


def test_a_hit_is_one_unpickling_read_past_whoosh_s_schema_check(seeded_library, monkeypatch):
    """A hit's stored fields are one pickle: the record and its plain readings are dicts
    in it, not JSON to decode again (7 of a piped hit's ~80 µs at 10,000 papers). A
    listing reads them from the segment's column directly, not through Whoosh's segment
    reader, which copies them through a check of each name against the schema (~4 µs)."""
    import json

    from whoosh.reading import SegmentReader

    from papercli.search.questions.search import search_stream

    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        stored = searcher.stored_fields(0)
    assert isinstance(stored["data"], dict) and isinstance(stored["plain"], dict)
    assert stored["data"]["id"] == stored["id"]

    def refused(*args, **kwargs):
        raise AssertionError("a listing went through Whoosh's segment reader or JSON")

    listing = search_stream(index, "muon")  # (the query parsed, its glossary read)
    monkeypatch.setattr(SegmentReader, "stored_fields", refused)
    monkeypatch.setattr(json, "loads", refused)
    hits = list(listing)
    assert len(hits) == 4 and all(h.data["id"] == h.id for h in hits)


def test_field_lengths_are_read_once_a_field_and_agree_with_whoosh(seeded_library):
    """Whoosh looked up a document's field length with a seek and a read, for every
    posting it committed and every hit it scored; the codec reads a field's lengths in one
    piece, and gives the same answers."""
    from whoosh.codec.whoosh3 import W3PerDocReader

    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        for leaf, _base in searcher.reader().leaf_readers():
            perdoc = leaf._perdoc
            for name in ("title", "abstract", "summary", "concept", "no-such-field"):
                for docnum in range(perdoc.doc_count_all()):
                    ours = perdoc.doc_field_length(docnum, name)
                    assert ours == W3PerDocReader.doc_field_length(perdoc, docnum, name)
            assert set(perdoc._length_bytes) >= {"title", "abstract", "summary"}


def test_ors_are_matched_by_a_tree_and_rank_as_before(seeded_library):
    """``unions`` sets each OR to a tree of union matchers (Whoosh preloads an array of
    2,048 scores below 5,000 papers); every judged query in both languages, bridged and
    exact, ranks the same papers with the same scores."""
    import yaml
    from whoosh.matching import ArrayUnionMatcher

    from papercli.engine.unions import unions
    from papercli.search.querying.parse import parse_query
    from testing import TEST_DATA

    def matchers(m):
        yield m
        for child in m.children():
            yield from matchers(child)

    concepts = yaml.safe_load((TEST_DATA / "judged.yaml").read_text("utf-8"))["concepts"]
    texts = [c[lang] for c in concepts for lang in ("en", "zh")]
    index = PaperIndex(seeded_library).open()
    compared = 0
    with index.searcher() as searcher:
        for text in [*texts, "Convergence of Muon with Newton-Schulz", "muon -adam"]:
            for exact in (False, True):
                q = parse_query(index, text, None, exact, {})
                before = [(round(s, 9), d) for s, d in searcher.search(q, limit=None).top_n]
                arrays = [
                    m
                    for m in matchers(q.matcher(searcher, searcher.context()))
                    if isinstance(m, ArrayUnionMatcher)
                ]
                tree = unions(q)
                after = [(round(s, 9), d) for s, d in searcher.search(tree, limit=None).top_n]
                assert after == before, (text, exact)
                assert not any(
                    isinstance(m, ArrayUnionMatcher)
                    for m in matchers(tree.matcher(searcher, searcher.context()))
                ), (text, exact)
                compared += bool(arrays)
    assert compared > 50  # (the queries that were matched by an array before)


def test_an_or_is_matched_without_looking_up_its_clauses_sizes(seeded_library, monkeypatch):
    """Whoosh balances its tree of unions by each clause's size: one more lookup of each
    term (seven a word). The plain tree asks none: each term's count is looked up at most
    once, for its idf (none for a term the index lacks)."""
    from whoosh.reading import SegmentReader

    from papercli.engine.unions import unions
    from papercli.search.querying.parse import parse_query

    looked_up = []
    real = SegmentReader.doc_frequency
    monkeypatch.setattr(
        SegmentReader,
        "doc_frequency",
        lambda self, *term: looked_up.append(term) or real(self, *term),
    )
    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        for text in ("muon", "optimizer", "GRPO", "muon OR adam OR sgd"):
            for exact in (False, True):
                q = unions(parse_query(index, text, None, exact, {}))
                looked_up.clear()
                q.matcher(searcher, searcher.context())
                terms = [leaf for leaf in q.leaves() if leaf.has_terms()]
                assert len(terms) >= 7 and len(looked_up) <= len(terms), (text, exact)


def test_an_or_is_matched_by_the_clauses_that_match_something(seeded_library):
    """Most of a word's seven fields do not hold it (训练 is in no title, no author): the
    tree of unions is made of the clauses that match, not walked through the others at
    every step; the papers and scores are Whoosh's own (the test above)."""
    from whoosh.matching import NullMatcherClass, UnionMatcher

    from papercli.engine.unions import unions
    from papercli.search.querying.parse import parse_query

    def leaves(m):
        kids = list(m.children()) if isinstance(m, UnionMatcher) else []
        return [leaf for kid in kids for leaf in leaves(kid)] if kids else [m]

    index = PaperIndex(seeded_library).open()
    with index.searcher() as searcher:
        for text in ("训练加速", "federated learning", "muon OR adam OR sgd"):
            q = unions(parse_query(index, text, None, False, {}))
            top = q.matcher(searcher, searcher.context())
            found = leaves(top)
            terms = [leaf for leaf in q.leaves() if leaf.has_terms()]
            assert len(found) < len(terms), text
            assert not any(isinstance(m, NullMatcherClass) or not m.is_active() for m in found), (
                text
            )


def test_a_term_is_looked_up_once_a_reader(seeded_library, monkeypatch):
    """Whoosh looks a term up in the terms file's hash table each time it asks about it:
    whether the segment holds it, its count for an AND's order and the idf, its entry for
    the postings. A search (its highlighted terms, the literal matches, the ranking) looks
    each up once."""
    from whoosh.filedb.filetables import HashReader

    from papercli.search.questions import search as search_module

    probed = []
    real = HashReader.ranges_for_key
    monkeypatch.setattr(
        HashReader,
        "ranges_for_key",
        lambda self, key: probed.append((self, key)) or real(self, key),
    )
    index = PaperIndex(seeded_library).open()
    for text in ("训练加速", "federated learning", "大语言模型"):
        probed.clear()
        hits = search_module.search(index, text)
        assert hits and probed, text
        counts = {}
        for table, key in probed:
            counts[id(table), key] = counts.get((id(table), key), 0) + 1
        assert max(counts.values()) == 1, (text, len(probed), len(counts))
