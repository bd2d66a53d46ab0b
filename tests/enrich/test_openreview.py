"""The OpenReview client against a real local server (``openreview_server.py``): paging, rate
limits, timeouts, broken replies and the shape of a note. Nothing touches the internet."""

from __future__ import annotations

import email.utils
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import papercli
from enrich.openreview_server import note, unused_port
from papercli.enrich import openreview as orv
from papercli.enrich.openreview import Note, OpenReviewError, fetch_venue, parse_notes, venue_id
from papercli.errors import EXIT_USAGE, PapersError

ICLR = "ICLR.cc/2026/Conference"


class Sleeps(list):
    """An injected ``sleep`` that records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def fetch(server, venue=ICLR, **kwargs):
    kwargs.setdefault("sleep", Sleeps())
    return fetch_venue(server.url, venue, **kwargs)


def one_line_error(excinfo) -> str:
    """The error's message, checked to be one line and to hide the HTTP library's exception."""
    message = str(excinfo.value)
    assert "\n" not in message
    error = excinfo.value
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)
    return message


# --- paging ---------------------------------------------------------------------------------------


def test_pages_until_count_in_order(openreview):
    notes = [note(f"n{i:04d}") for i in range(2345)]
    openreview.add(ICLR, notes)
    openreview.add("ICML.cc/2026/Conference", [note("other", venueid="ICML.cc/2026/Conference")])
    seen = []
    got = fetch(openreview, page_size=1000, progress=lambda n, total: seen.append((n, total)))
    assert got == notes
    assert openreview.offsets() == [0, 1000, 2000]
    assert [r.query["limit"] for r in openreview.requests] == ["1000"] * 3
    assert {r.query["content.venueid"] for r in openreview.requests} == {ICLR}
    assert seen == [(1000, 2345), (2000, 2345), (2345, 2345)]


def test_exact_multiple_of_the_page_asks_no_empty_page(openreview):
    openreview.add(ICLR, [note(f"n{i}") for i in range(20)])
    assert len(fetch(openreview, page_size=10)) == 20
    assert openreview.offsets() == [0, 10]


def test_without_count_a_short_page_is_the_last(openreview):
    openreview.add(ICLR, [note(f"n{i}") for i in range(25)])
    openreview.respond({"notes": [note(f"n{i}") for i in range(10)]})  # no count at all
    openreview.respond({"notes": [note(f"n{i}") for i in range(10, 20)]})
    openreview.respond({"notes": [note(f"n{i}") for i in range(20, 25)]})
    assert [n["id"] for n in fetch(openreview, page_size=10)] == [f"n{i}" for i in range(25)]
    assert openreview.offsets() == [0, 10, 20]


def test_a_count_that_lies_high_stops_at_the_empty_page(openreview):
    openreview.add(ICLR, [note(f"n{i}") for i in range(15)])
    openreview.count = 1_000_000
    assert len(fetch(openreview, page_size=10)) == 15
    assert openreview.offsets() == [0, 10, 15]  # a short page is not the last while count says more


def test_a_server_ignoring_the_offset_is_an_error_not_a_loop(openreview):
    page = {"notes": [note(f"n{i}") for i in range(10)], "count": 1_000_000}
    openreview.respond(page, times=3)
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview, page_size=10)
    assert one_line_error(excinfo) == (
        f"{openreview.url}: malformed reply for {ICLR}: offset 10 repeats notes already received"
    )
    assert openreview.offsets() == [0, 10]


def test_unknown_venue_is_an_empty_list(openreview):
    openreview.add(ICLR, [note("a")])
    assert fetch(openreview, "ICLR.cc/1999/Conference") == []
    assert openreview.offsets() == [0]


# --- rate limits and retries ----------------------------------------------------------------------


def test_429_waits_as_retry_after_says_then_succeeds(openreview):
    openreview.add(ICLR, [note("a"), note("b")])
    openreview.rate_limit(times=2, retry_after="7")
    sleeps = Sleeps()
    assert [n["id"] for n in fetch(openreview, sleep=sleeps)] == ["a", "b"]
    assert sleeps == [7.0, 7.0]
    assert openreview.offsets() == [0, 0, 0]


def test_429_with_an_http_date(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.rate_limit(retry_after=email.utils.formatdate(time.time() + 30, usegmt=True))
    sleeps = Sleeps()
    assert len(fetch(openreview, sleep=sleeps)) == 1
    assert len(sleeps) == 1 and 28 <= sleeps[0] <= 31


def test_retry_after_forms():
    assert orv.retry_after("12") == 12.0
    assert orv.retry_after(" 0 ") == 0.0
    assert orv.retry_after("-5") == 0.0
    assert orv.retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert orv.retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert orv.retry_after("soon") is None
    assert orv.retry_after("nan") is None
    assert orv.retry_after(None) is None


def test_too_many_429s_fail_clearly(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.rate_limit(times=4, retry_after="2")
    sleeps = Sleeps()
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview, retries=3, sleep=sleeps)
    assert one_line_error(excinfo) == (
        f"{openreview.url} is still rate-limiting requests (HTTP 429) after 3 retries; "
        "try again later"
    )
    assert sleeps == [2.0, 2.0, 2.0]
    assert len(openreview.requests) == 4


def test_a_wait_longer_than_the_cap_fails_at_once(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.rate_limit(retry_after="3600")
    sleeps = Sleeps()
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview, max_wait=120, sleep=sleeps)
    assert one_line_error(excinfo) == (
        f"{openreview.url} is rate-limiting requests (HTTP 429) and asks to wait 3600 s, "
        "more than 120 s; try again later"
    )
    assert sleeps == []


def test_429_without_retry_after_backs_off(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.rate_limit(times=3, retry_after=None)
    sleeps = Sleeps()
    assert len(fetch(openreview, sleep=sleeps)) == 1
    assert sleeps == [1.0, 2.0, 4.0]


def test_503_is_retried_then_succeeds(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.fail(503, times=2)
    sleeps = Sleeps()
    assert len(fetch(openreview, sleep=sleeps)) == 1
    assert sleeps == [1.0, 2.0]


def test_502_beyond_the_retries_fails(openreview):
    openreview.fail(502, times=3)
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview, retries=2)
    assert one_line_error(excinfo) == (
        f"{openreview.url} answered 502 Bad Gateway for {ICLR} after 2 retries; try again later"
    )
    assert len(openreview.requests) == 3


# --- failures -------------------------------------------------------------------------------------


def test_500_is_one_line_with_the_servers_message(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.fail(500)
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview)
    assert one_line_error(excinfo) == (
        f"{openreview.url} answered 500 Internal Server Error for {ICLR}: Simulated error 500"
    )
    assert len(openreview.requests) == 1  # a 500 is not retried


def test_timeout(openreview):
    openreview.add(ICLR, [note("a")])
    openreview.stall(1.0)
    started = time.monotonic()
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview, timeout=0.2)
    assert time.monotonic() - started < 0.9
    assert one_line_error(excinfo) == (
        f"{openreview.url} did not answer within 0.2 s (venue {ICLR}, offset 0); "
        "try again later or with a longer timeout"
    )


def test_connection_refused():
    api = f"http://127.0.0.1:{unused_port()}"
    with pytest.raises(OpenReviewError) as excinfo:
        fetch_venue(api, ICLR, sleep=Sleeps())
    message = one_line_error(excinfo)
    assert message.startswith(f"cannot reach {api}: ")
    assert "refused" in message.lower()


def test_not_an_api_address():
    with pytest.raises(OpenReviewError, match=r"^not an OpenReview API address: 'api2\.openr"):
        fetch_venue("api2.openreview.net", ICLR)


def test_malformed_json(openreview):
    openreview.respond('{"notes": [')
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview)
    assert one_line_error(excinfo).startswith(
        f"{openreview.url}: malformed reply for {ICLR}: not JSON ("
    )


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ([], "the reply is a list, not an object"),
        ({"notes": {"a": 1}, "count": 1}, "offset 0: notes is an object, not a list"),
        ({"count": 3}, "offset 0: notes is null, not a list"),
        ({"notes": ["a"]}, "offset 0: notes[0] is text, not an object"),
        ({"notes": [{"forum": "f"}]}, "offset 0: notes[0] has no id"),
        ({"notes": [{"id": "x", "content": {}}]}, "offset 0: notes[0] has no forum"),
        (
            {"notes": [note("x", title=["A", "B"])]},
            "offset 0: notes[0] (x): content.title.value is a list, not text",
        ),
        (
            {"notes": [note("x", title=3)]},
            "offset 0: notes[0] (x): content.title.value is a number, not text",
        ),
        (
            {"notes": [note("x", authors=["A", 1])]},
            "offset 0: notes[0] (x): content.authors.value is a list of non-text, not a list of text",
        ),
        (
            {"notes": [{"id": "x", "forum": "x", "content": {"title": "A"}}]},
            "offset 0: notes[0] (x): content.title is text, not an object",
        ),
        (
            {"notes": [{"id": "x", "forum": "x", "content": []}]},
            "offset 0: notes[0] (x): content is a list, not an object",
        ),
    ],
)
def test_wrong_shape(openreview, body, detail):
    openreview.respond(body)
    with pytest.raises(OpenReviewError) as excinfo:
        fetch(openreview)
    assert one_line_error(excinfo) == f"{openreview.url}: malformed reply for {ICLR}: {detail}"


def test_error_is_a_papers_error():
    assert issubclass(OpenReviewError, PapersError)
    assert OpenReviewError.exit_code == EXIT_USAGE


# --- notes ----------------------------------------------------------------------------------------


def test_parse_a_full_note():
    raw = note(
        "abc123",
        title=" Sharp Bounds ",
        authors=["Ada Lovelace", "Alan Turing"],
        abstract="We prove.",
        keywords=["optimization", " convergence "],
        forum="f1",
    )
    assert parse_notes([raw], "cache") == [
        Note(
            id="abc123",
            forum="f1",
            title="Sharp Bounds",
            authors=("Ada Lovelace", "Alan Turing"),
            abstract="We prove.",
            keywords=("optimization", "convergence"),
            venue="ICLR 2026 Poster",
            venueid=ICLR,
            pdf="https://openreview.net/pdf/abc123.pdf",
        )
    ]
    assert parse_notes([raw], "cache")[0].forum_url == "https://openreview.net/forum?id=f1"


def test_missing_content_fields_are_empty():
    bare = {"id": "x", "forum": "x"}
    hidden = {
        "id": "y",
        "forum": "y",
        "content": {"authors": {"readers": ["ICLR.cc"]}, "title": {"value": "  "}, "pdf": None},
    }
    assert parse_notes([bare, hidden], "cache") == [
        Note("x", "x", None, (), None, (), None, None, None),
        Note("y", "y", None, (), None, (), None, None, None),
    ]


@pytest.mark.parametrize(
    ("authors", "expected"),
    [
        (["Anonymous"], ()),
        ([], ()),
        (["Anonymous", "Alan Turing"], ("Anonymous", "Alan Turing")),
        (["Alan Turing", "Ada Lovelace"], ("Alan Turing", "Ada Lovelace")),
    ],
)
def test_anonymous_authors_are_no_authors(authors, expected):
    assert parse_notes([note("x", authors=authors)], "cache")[0].authors == expected


@pytest.mark.parametrize(
    ("pdf", "expected"),
    [
        ("/pdf/abc.pdf", "https://openreview.net/pdf/abc.pdf"),
        ("https://arxiv.org/pdf/2401.00001", "https://arxiv.org/pdf/2401.00001"),
        ("http://example.org/p.pdf", "http://example.org/p.pdf"),
        ("javascript:alert(1)", None),
        ("ftp://example.org/p.pdf", None),
        ("", None),
        (None, None),
    ],
)
def test_pdf_links(pdf, expected):
    assert parse_notes([note("x", pdf=pdf)], "cache")[0].pdf == expected


def test_keywords_given_as_one_line():
    assert parse_notes([note("x", keywords="a, b ,,c")], "cache")[0].keywords == ("a", "b", "c")


def test_parse_notes_names_where():
    with pytest.raises(
        OpenReviewError, match=r"^cache\.json: malformed reply: notes\[1\] has no id$"
    ):
        parse_notes([note("a"), {"forum": "f"}], "cache.json")


def test_fetched_notes_parse(openreview):
    openreview.add(ICLR, [note("a", title="One"), note("b", title="Two")])
    titles = [n.title for n in parse_notes(fetch(openreview), "cache")]
    assert titles == ["One", "Two"]


def test_user_agent(openreview):
    fetch(openreview)
    assert openreview.requests[0].headers["user-agent"] == (
        f"papers/{papercli.__version__} (+local literature index)"
    )
    assert openreview.requests[0].headers["accept"] == "application/json"


# --- venue ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("venue", "year", "expected"),
    [
        ("ICLR", 2026, "ICLR.cc/2026/Conference"),
        ("iclr", 2025, "ICLR.cc/2025/Conference"),
        ("NeurIPS", 2024, "NeurIPS.cc/2024/Conference"),
        ("neurips", 2023, "NeurIPS.cc/2023/Conference"),
        ("ICML", 2025, "ICML.cc/2025/Conference"),
        (" Icml ", 2025, "ICML.cc/2025/Conference"),
        ("ICLR", None, None),
        ("CVPR", 2025, None),
        ("", 2025, None),
    ],
)
def test_venue_id(venue, year, expected):
    assert venue_id(venue, year) == expected


def test_httpx_is_not_imported_by_the_module():
    """Importing the client costs no other command the ~70 ms of importing httpx."""
    src = str(Path(orv.__file__).resolve().parents[2])
    code = "import sys, papercli.enrich.openreview; print('httpx' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": src},
    )
    assert out.stdout.strip() == "False"
