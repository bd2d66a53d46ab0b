"""Every match is scored (``engine.scoring``) as Whoosh's unlimited search scores it, and a
listing's best N are the head of the full ranking, whatever N."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from papercli.engine.ranking import ranked
from papercli.engine.scoring import scores
from papercli.engine.unions import unions
from papercli.search.index.paper_index import PaperIndex
from papercli.search.index.schema import ids_by_docnum
from papercli.search.querying.parse import parse_query
from papercli.store.library import Library
from papercli.tags.taxonomy import load_taxonomy
from testing import PAPERS, TEST_DATA, built_once, generate_documents

TYPED = [  # (each also typed a letter at a time, as in browse)
    "large language model",
    "reinforcement learning agent",
    "大语言模型",
    "federated learning",
    "训练加速",
]
SYNTAX = [
    "tag:llm OR muon",
    "muon -adam",
    '"language model"',
    "year:2025 optimizer",
    "federat*",
    "optimizer convergence theory",
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """1,500 generated papers: posting lists of many blocks, over two segments, where
    Whoosh's top-N search skips blocks and replaces matchers (its best 3 differed from the
    full ranking's head for 4 of these queries)."""

    def build(folder: Path) -> None:
        docs = generate_documents(1500, folder / "docs")
        subprocess.run(
            [PAPERS, "--library", str(folder / "lib"), "ingest", *map(str, docs)],
            check=True,
            capture_output=True,
        )

    return PaperIndex(Library(built_once(tmp_path_factory, "scoring-1500", build) / "lib")).open()


def _texts() -> list[str]:
    texts = set(SYNTAX)
    for name in ("judged.yaml", "judged_second.yaml", "judged_third.yaml"):
        for concept in yaml.safe_load((TEST_DATA / name).read_text("utf-8"))["concepts"]:
            texts.update(concept[k] for k in ("name", "en", "zh") if concept.get(k))
    for text in TYPED:
        texts.update(text[:end] for end in range(1, len(text) + 1))
    return sorted(texts)


@pytest.fixture(scope="module")
def queries(generated):
    resolve = load_taxonomy().resolve
    return [(text, unions(parse_query(generated, text, resolve))) for text in _texts()]


def test_every_score_is_the_one_whooshs_unlimited_search_gives(generated, queries):
    with generated.searcher() as searcher:
        assert len(searcher.reader().leaf_readers()) > 1  # (docnums offset by segment)
        matched = 0
        for text, q in queries:
            whooshs = {docnum: score for score, docnum in searcher.search(q, limit=None).top_n}
            assert scores(searcher, q) == whooshs, text  # (to the bit)
            matched += bool(whooshs)
        assert matched > 0.6 * len(queries)  # (most match something)


def test_the_best_n_are_the_head_of_the_full_ranking(generated, queries):
    with generated.searcher() as searcher:
        ids = ids_by_docnum(searcher)
        for text, q in queries:
            full = ranked(searcher, q, None, None, ids)
            for limit in (1, 3, 20):
                assert ranked(searcher, q, limit, None, ids) == full[:limit], (text, limit)


def test_only_the_allowed_and_never_the_restricted_are_ranked(generated, queries):
    with generated.searcher() as searcher:
        ids = ids_by_docnum(searcher)
        q = dict(queries)["federated learning"]
        full = ranked(searcher, q, None, None, ids)
        allow = {docnum for _score, docnum in full[::2]}
        restrict = {docnum for _score, docnum in full[:3]}
        assert ranked(searcher, q, None, None, ids, allow) == full[::2]
        kept = [hit for hit in full[::2] if hit[1] not in restrict]
        assert ranked(searcher, q, 5, None, ids, allow, restrict) == kept[:5]
        assert ranked(searcher, q, 5, None, ids, set()) == []


def test_terms_and_phrases_read_from_their_postings_score_as_their_matchers(generated):
    """A term's postings and a phrase's matches are read a block at a time
    (``engine.postings``) and scored as Whoosh's matchers score them, to the bit, with the
    class of the matcher Whoosh builds and whether it matches anything: scored fields
    (BM25F), unscored ones (the weight), boosts, a term of many blocks, Chinese bigram
    phrases, a phrase of a repeated word, and words a segment lacks."""
    from whoosh import query

    from papercli.engine import postings

    queries = [
        query.Term("abstract", "model"),  # (thousands of postings: many blocks)
        query.Term("summary", "模型"),
        query.Term("title", "learn", boost=0.05),
        query.Term("tag", "llm"),
        query.Term("concept", "llm"),
        query.Term("abstract", "zzzzzz"),
        query.Phrase("summary", ["大语", "语言", "言模", "模型"]),
        query.Phrase("summary", ["训练", "练加", "加速"]),
        query.Phrase("abstract", ["languag", "model"]),
        query.Phrase("abstract", ["model", "model"]),
        query.Phrase("abstract", ["larg", "languag", "model"], boost=2.5),
        query.Phrase("abstract", ["languag", "zzzzzz"]),
        query.Phrase("title", ["model", "languag"]),
    ]
    with generated.searcher() as searcher:
        context, read = searcher.context(), 0
        for sub, _offset in searcher.leaf_searchers():
            for q in queries:
                walked, matcher = {}, q.matcher(sub, context)
                active = matcher.is_active()
                while matcher.is_active():
                    walked[matcher.id()] = matcher.score()
                    matcher.next()
                found, cls, found_active = postings.scored(q, sub, context)
                assert (found, cls, found_active) == (walked, type(matcher), active), q
                read += len(found)
        assert read > 2000  # (about 2,400)


def test_a_searcher_keeps_what_it_scored_within_its_bound(generated, monkeypatch):
    """A searcher reads one commit, so a term scores the same each time it is asked for:
    what one searcher scored is kept (papers browse searches again the words typed before
    each key), the least recently used dropped beyond ``KEEP`` postings, and a new
    searcher reads afresh."""
    from whoosh import query

    from papercli.engine import postings

    reads = []
    read = postings._read
    monkeypatch.setattr(postings, "_read", lambda leaf: reads.append(1) or read(leaf))
    terms = [query.Term("abstract", w) for w in ("model", "learn", "languag", "train")]
    with generated.searcher() as searcher:
        context = searcher.context()
        sub, _offset = searcher.leaf_searchers()[0]
        first = [postings.scored(t, sub, context) for t in terms]
        assert len(reads) == 4
        assert [postings.scored(t, sub, context) for t in terms] == first and len(reads) == 4
        sizes = [len(found) for found, _cls, _active in first]
        monkeypatch.setattr(postings, "KEEP", sizes[2] + sizes[3])  # (room for the last two)
        postings.scored(query.Term("abstract", "optim"), sub, context)  # (drops the oldest)
        assert postings._KEPT[sub]._postings <= postings.KEEP
        reads.clear()
        assert postings.scored(terms[0], sub, context) == first[0] and reads == [1]
    with generated.searcher() as searcher:  # (another searcher: read again)
        reads.clear()
        sub, _offset = searcher.leaf_searchers()[0]
        assert postings.scored(terms[0], sub, searcher.context()) == first[0] and reads == [1]
