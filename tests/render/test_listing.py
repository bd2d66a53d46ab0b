"""Piped listings (render.write_hits): written hit by hit as the hits are made."""

from __future__ import annotations

import io
import json

import pytest

from papercli.render import Environment, hits_json, print_json, write_hits
from papercli.search.index import PaperIndex
from papercli.search.query import search, search_stream


class Flushes(io.StringIO):
    """stdout that remembers what had been flushed each time it is flushed."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[str] = []

    def flush(self) -> None:
        self.flushed.append(self.getvalue())


def piped() -> Environment:
    return Environment(Flushes(), io.StringIO(), color="never", environ={})


@pytest.fixture(scope="module")
def index(seeded_template):
    from papercli.store.library import Library

    return PaperIndex(Library(seeded_template)).open()


@pytest.mark.parametrize("fmt", ["plain", "ids", "json"])
def test_each_hit_is_written_and_flushed_before_the_next_is_read(index, fmt):
    env = piped()
    seen_when_asked = []

    def papers(text: str) -> int:  # how many papers *text* holds
        return text.count('"citekey":') if fmt == "json" else text.count("\n")

    def watched():
        for hit in search_stream(index, "muon"):
            seen_when_asked.append(papers(env.stdout.getvalue()))
            yield hit

    assert write_hits(env, watched(), scores=True, fmt=fmt) == 4
    assert seen_when_asked == [0, 1, 2, 3]  # the n-th hit is read after n-1 were written
    assert [papers(f) for f in env.stdout.flushed] == [1, 2, 3, 4]


@pytest.mark.parametrize("query", ["muon", "no-such-word-anywhere"])
def test_streamed_json_is_the_array_print_json_writes(index, query):
    streamed = piped()
    write_hits(streamed, search_stream(index, query), scores=True, fmt="json")
    whole = piped()
    print_json(whole, hits_json(search(index, query), scores=True))
    assert streamed.stdout.getvalue() == whole.stdout.getvalue()
    assert len(json.loads(streamed.stdout.getvalue())) == len(search(index, query))


def test_a_stream_is_lazy_until_asked(index):
    hits = search_stream(index, "muon")
    first = next(hits)
    assert first.id == search(index, "muon")[0].id
    assert first.snippet  # made as it is handed out
    hits.close()  # (a reader that went away: the searcher is closed)
