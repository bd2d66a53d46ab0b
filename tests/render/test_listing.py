"""Piped listings (render.write_hits): written hit by hit as the hits are made."""

from __future__ import annotations

import io
import itertools
import json
import math
import os

import pytest

from papercli.render import Environment, hits_json, print_json, write_hits
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.search import search, search_stream


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
    assert [papers(f) for f in env.stdout.flushed] == [1, 2, 3, 4, 4]  # (and at the end)


def test_past_the_first_lines_a_listing_is_flushed_every_so_often_not_each_line(index):
    """A flush a line was a write call a line (2-3 us of a piped hit's ~60): past the first
    ``FLUSH_FIRST`` lines, what was written is flushed once ``FLUSH_EVERY`` has passed
    since the last flush, and at the end. Here each hit takes 11 ms on a made-up clock."""
    from papercli.render import FLUSH_EVERY, FLUSH_FIRST

    hit, now = search(index, "muon")[0], [0.0]

    def slow_hits():
        for _ in range(100):
            now[0] += 0.011
            yield hit

    env = piped()
    assert write_hits(env, slow_hits(), scores=False, fmt="ids", clock=lambda: now[0]) == 100
    lines = [f.count("\n") for f in env.stdout.flushed]
    assert lines[:FLUSH_FIRST] == list(range(1, FLUSH_FIRST + 1))
    later = lines[FLUSH_FIRST:]
    assert later[-1] == 100 and len(later) < 100 - FLUSH_FIRST
    waits = {b - a for a, b in itertools.pairwise([FLUSH_FIRST, *later[:-1]])}
    assert waits == {math.ceil(FLUSH_EVERY / 0.011)}  # no line held longer than that


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


@pytest.mark.slow
def test_a_streamed_listing_holds_no_more_memory_for_more_hits(tmp_path):
    """The memory a piped listing allocates does not grow with its hits: 600 generated
    papers, the Python heap's peak while writing every hit of a common word against while
    writing its best 10 (a listing held whole would need ~3 kB more a hit)."""
    import tracemalloc

    from papercli.ingest import ingest
    from papercli.store.library import Library
    from testing import generate_documents

    library = Library(tmp_path / "library")
    ingest(library, generate_documents(600, tmp_path / "docs"))
    index = PaperIndex(library).open()

    def peak(limit, hold=False):
        with open(os.devnull, "w", encoding="utf-8") as sink:
            env = Environment(sink, io.StringIO(), color="never", environ={})
            hits = search_stream(index, "learning", limit=limit)
            tracemalloc.start()
            count = write_hits(env, list(hits) if hold else hits, scores=True, fmt="json")
            used = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        return count, used

    few, few_peak = peak(10)
    many, many_peak = peak(None)
    assert few == 10 and many > 200
    assert many_peak < few_peak + 200_000, (few_peak, many_peak)
    _held, held_peak = peak(None, hold=True)  # (what the check would see of a held list)
    assert held_peak > few_peak + 200_000, (few_peak, held_peak)


def test_a_tab_or_newline_in_a_field_stays_inside_its_column(index):
    hit = search(index, "muon")[0]
    hit.data = {**hit.data, "title": "A\ttitle\nin two lines", "venue": "ICLR\t2"}
    hit.plain = {}
    env = piped()
    write_hits(env, iter([hit]), scores=True, fmt="plain")
    line = env.stdout.getvalue()
    assert line.count("\n") == 1 and line.count("\t") == 6
    assert line.split("\t")[2] == "ICLR 2" and line.split("\t")[5] == "A title in two lines"
