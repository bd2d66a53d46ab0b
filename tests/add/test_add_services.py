"""The clients of ``papers add`` against the local stand-ins (add/services.py,
enrich/openreview_server.py): each API's reply read into papers, the published version,
and every way a service fails as one line."""

from __future__ import annotations

import pytest

from add.services import paper, work
from enrich.openreview_server import note
from papercli.add import forums
from papercli.errors import ServiceError, UsageError
from papercli.remote import arxiv, crossref
from papercli.remote.service import Service
from stand_in import unused_port

DAY = "2026-12-01"


def test_arxiv_ids_in_one_request(arxiv_api):
    arxiv_api.add(
        paper(
            "2501.01234",
            title="Muon Is Scalable for LLM Training",
            authors=["Ada Lovelace", "Alan Turing"],
            summary="We scale\n  Muon.",
            version=3,
            doi="10.1000/muon",
        ),
        paper("cs/0112017", title="An Old Paper", published="2001-12-15T00:00:00Z"),
    )
    with arxiv.service(arxiv_api.url) as api:
        found = arxiv.by_ids(api, ["2501.01234v2", "cs/0112017", "2501.99999"], DAY)
    assert arxiv_api.queries() == [
        {"id_list": "2501.01234v2,cs/0112017,2501.99999", "max_results": "3"}
    ]
    assert sorted(found) == ["2501.01234", "cs/0112017"]  # (an id arXiv lacks: absent)
    muon = found["2501.01234"]
    assert (muon.document, muon.title, muon.abstract) == (
        "arxiv:2501.01234v2",
        "Muon Is Scalable for LLM Training",
        "We scale Muon.",
    )
    assert (muon.authors, muon.venue, muon.year, muon.doi) == (
        ["Ada Lovelace", "Alan Turing"],
        "arXiv",
        2025,
        "10.1000/muon",
    )
    assert muon.urls == [
        "https://arxiv.org/abs/2501.01234",
        "https://arxiv.org/pdf/2501.01234",
        "https://doi.org/10.1000/muon",
    ]
    assert (found["cs/0112017"].year, found["cs/0112017"].urls[0]) == (
        2001,
        "https://arxiv.org/abs/cs/0112017",
    )


def test_an_id_arxiv_cannot_read_is_one_line(arxiv_api):
    with arxiv.service(arxiv_api.url) as api, pytest.raises(UsageError) as caught:
        arxiv.by_ids(api, ["2501.0"], DAY)
    assert str(caught.value) == "arXiv: incorrect id format for 2501.0"


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("10.1000/ok", "10.1000/ok"),
        ("10.1000/a.b", "10.1000/a.b"),
        ("10.1000/../../members", None),  # (it becomes part of Crossref's address)
        ("10.1000/x/..", None),
        ("not a doi", None),
    ],
)
def test_a_doi_in_a_feed_is_checked(arxiv_api, given, kept):
    arxiv_api.add(paper("2501.01234", doi=given))
    with arxiv.service(arxiv_api.url) as api:
        assert arxiv.by_ids(api, ["2501.01234"], DAY)["2501.01234"].doi == kept


def test_a_journal_reference_names_the_published_venue(arxiv_api):
    arxiv_api.add(paper("2410.00001", journal_ref="Published at ICLR 2025"))
    with arxiv.service(arxiv_api.url) as api:
        found = arxiv.by_ids(api, ["2410.00001"], DAY)["2410.00001"]
    assert (found.venue, found.year, found.status) == (
        "ICLR",
        2025,
        "journal reference: Published at ICLR 2025",
    )


def test_an_arxiv_title_search(arxiv_api):
    arxiv_api.add(
        paper("1412.6980", title="Adam: A Method for Stochastic Optimization"),
        paper("1706.03762", title="Attention Is All You Need"),
    )
    with arxiv.service(arxiv_api.url) as api:
        found = arxiv.search(api, arxiv.title_query(["adam", "stochastic"]), DAY)
    assert [f.arxiv for f in found] == ["1412.6980"]
    assert arxiv_api.queries() == [
        {"search_query": "ti:adam AND ti:stochastic", "max_results": "5"}
    ]


def test_arxiv_is_asked_at_most_once_an_interval():
    """Two requests within the interval: the second waits the rest of it (a fake clock)."""
    from add.services import ArxivServer

    now, slept = [100.0], []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    with ArxivServer() as server:
        api = Service("arXiv", server.url, interval=3.0, sleep=sleep, clock=lambda: now[0])
        api.get("/query", {"id_list": "1"}, "")
        now[0] += 1.25
        api.get("/query", {"id_list": "2"}, "")
        now[0] += 7.0
        api.get("/query", {"id_list": "3"}, "")
        api.close()
    assert slept == [1.75] and len(server.requests) == 3
    assert arxiv.INTERVAL == 3.0  # (arXiv's terms: one request every 3 seconds)


def test_a_doi_from_crossref(crossref_api):
    crossref_api.add(
        work(
            "10.1109/CVPR.2016.90",
            title="Deep Residual Learning for Image Recognition",
            authors=[("Kaiming", "He"), ("Xiangyu", "Zhang")],
            container="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            year=2016,
            type="proceedings-article",
            abstract="Deeper networks are <jats:italic>harder</jats:italic> to train &amp; tune.",
        )
    )
    with crossref.service(crossref_api.url, "me@example.org") as api:
        found = crossref.by_doi(api, "10.1109/cvpr.2016.90", DAY)
        assert crossref.by_doi(api, "10.1109/nothing", DAY) is None  # 404: not known
    assert (found.document, found.title, found.authors) == (
        "crossref:10.1109/CVPR.2016.90",
        "Deep Residual Learning for Image Recognition",
        ["Kaiming He", "Xiangyu Zhang"],
    )
    assert (found.venue, found.year, found.kind, found.urls) == (
        "CVPR",
        2016,
        "inproceedings",
        ["https://doi.org/10.1109/CVPR.2016.90"],
    )
    assert found.abstract == "Deeper networks are harder to train & tune."
    assert [r.query for r in crossref_api.requests] == [{"mailto": "me@example.org"}] * 2
    assert crossref_api.requests[0].headers["user-agent"].endswith("; mailto:me@example.org)")


def test_a_crossref_bibliographic_search(crossref_api):
    crossref_api.add(
        work("10.1000/a", title="Deep Residual Learning"), work("10.1000/b", title="Other")
    )
    with crossref.service(crossref_api.url, None) as api:
        found = crossref.search(api, "He et al. Deep residual learning. CVPR 2016", DAY)
    assert [f.doi for f in found] == ["10.1000/a"]
    assert crossref_api.requests[0].query == {
        "query.bibliographic": "He et al. Deep residual learning. CVPR 2016",
        "rows": "5",
    }


def test_an_openreview_forum(openreview):
    openreview.add("ICLR.cc/2026/Conference", [note("Fa1", title="Accepted", keywords=["x"])])
    openreview.submit(
        note(
            "Fr2",
            title="Rejected",
            venueid="ICLR.cc/2026/Conference/Rejected_Submission",
            venue="Submitted to ICLR 2026",
        ),
        note("Rev9", title=None, forum="Fa1", venueid="ICLR.cc/2026/Conference"),  # a review
    )
    with forums.service(openreview.url) as api:
        accepted = forums.by_forum(api, "Fa1", DAY)
        rejected = forums.by_forum(api, "Fr2", DAY)
        via_review = forums.by_forum(api, "Rev9", DAY)
        assert forums.by_forum(api, "Nothing12", DAY) is None
    assert (accepted.venue, accepted.year, accepted.keywords, accepted.status) == (
        "ICLR",
        2026,
        ["x"],
        None,
    )
    assert accepted.urls == [
        "https://openreview.net/forum?id=Fa1",
        "https://openreview.net/pdf/Fa1.pdf",
    ]
    assert (rejected.venue, rejected.year, rejected.status) == (
        None,
        2026,
        "OpenReview: Submitted to ICLR 2026",
    )
    assert via_review.document == "openreview:Fa1"
    assert [r.query for r in openreview.requests] == [
        {"id": "Fa1"},
        {"id": "Fr2"},
        {"id": "Rev9"},
        {"id": "Fa1"},
        {"id": "Nothing12"},
    ]


# --- failures: one line each ---------------------------------------------------------------


def test_a_429_is_waited_out_as_retry_after_asks(arxiv_api):
    arxiv_api.add(paper("2501.01234"))
    arxiv_api.rate_limit(times=2, retry_after="7")
    slept = []
    api = Service("arXiv", arxiv_api.url, sleep=slept.append)
    with api:
        response = api.get("/query", {"id_list": "2501.01234"}, "for 2501.01234")
    assert response.status_code == 200 and slept == [7.0, 7.0] and api.requests == 3


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (
            lambda s: s.rate_limit(times=1, retry_after="600"),
            "{who} is rate-limiting requests (HTTP 429) and asks to wait 600 s, more than 60 s; "
            "try again later",
        ),
        (
            lambda s: s.rate_limit(times=4, retry_after="0"),
            "{who} is still rate-limiting requests (HTTP 429) after 3 retries; try again later",
        ),
        (
            lambda s: s.fail(503, times=4),
            "{who} answered 503 for 2501.01234 after 3 retries; try again later",
        ),
        (lambda s: s.fail(500), "{who} answered 500 Internal Server Error for 2501.01234"),
        (
            lambda s: s.respond("<feed", headers={}),
            "{who}: malformed reply for 2501.01234: not XML (unclosed token: line 1, column 0)",
        ),
        (
            lambda s: s.respond('{"feed": 1}'),
            "{who}: malformed reply for 2501.01234: not XML (not well-formed (invalid token): line 1, column 0)",
        ),
        (
            lambda s: s.respond("<html><body>busy</body></html>"),
            "{who}: malformed reply for 2501.01234: not an Atom feed (<html>)",
        ),
        (
            lambda s: s.respond(
                '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><feed>&lol;</feed>'
            ),
            "{who}: malformed reply for 2501.01234: the feed declares a DOCTYPE",
        ),
        (
            lambda s: s.respond(
                '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://example.org/x</id></entry></feed>'
            ),
            "{who}: malformed reply for 2501.01234: entry 1 has no arXiv id ('http://example.org/x')",
        ),
    ],
)
def test_arxiv_failures(arxiv_api, script, message):
    arxiv_api.add(paper("2501.01234"))
    script(arxiv_api)
    with pytest.raises(ServiceError) as caught:
        api = Service("arXiv", arxiv_api.url, sleep=lambda s: None)
        with api:
            arxiv._feed(
                api,
                api.get("/query", {"id_list": "2501.01234"}, "for 2501.01234"),
                "for 2501.01234",
                DAY,
            )
    assert str(caught.value) == message.format(who=f"arXiv ({arxiv_api.url})")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "{not json",
            "not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))",
        ),
        ([1, 2], "the reply is a list, not an object"),
        (
            {"status": "ok", "message-type": "work-list", "message": {}},
            "message-type is 'work-list', not 'work'",
        ),
        (
            {"status": "ok", "message-type": "work", "message": None},
            "message is null, not an object",
        ),
        (
            {
                "status": "ok",
                "message-type": "work",
                "message": {"DOI": "10.1000/x", "title": "T", "author": "Ada"},
            },
            "author is text, not a list of objects",
        ),
        (
            {"status": "ok", "message-type": "work", "message": {"title": ["T"]}},
            "a work has no DOI (None)",
        ),
    ],
)
def test_malformed_crossref_replies(crossref_api, body, message):
    crossref_api.respond(body)
    with crossref.service(crossref_api.url, None) as api, pytest.raises(ServiceError) as caught:
        crossref.by_doi(api, "10.1000/x", DAY)
    assert (
        str(caught.value)
        == f"Crossref ({crossref_api.url}): malformed reply for DOI 10.1000/x: {message}"
    )


def test_malformed_openreview_note(openreview):
    openreview.respond({"notes": [{"id": "F1", "forum": "F1", "content": {"title": {"value": 3}}}]})
    with forums.service(openreview.url) as api, pytest.raises(ServiceError) as caught:
        forums.by_forum(api, "F1", DAY)
    assert str(caught.value) == (
        f"OpenReview ({openreview.url}): malformed reply for note F1: "
        "notes[0] (F1): content.title.value is a number, not text"
    )


def test_a_timeout(crossref_api):
    crossref_api.stall(2.0)
    api = Service("Crossref", crossref_api.url, timeout=0.2)
    with api, pytest.raises(ServiceError) as caught:
        api.get("/works/10.1000/x", {}, "for DOI 10.1000/x")
    assert str(caught.value) == (
        f"Crossref ({crossref_api.url}) did not answer within 0.2 s for DOI 10.1000/x; try again later"
    )


def test_offline():
    url = f"http://127.0.0.1:{unused_port()}"
    with Service("arXiv", url) as api, pytest.raises(ServiceError) as caught:
        api.get("/query", {"id_list": "1"}, "")
    assert str(caught.value) == f"cannot reach arXiv ({url}): [Errno 111] Connection refused"


def test_not_an_address():
    with pytest.raises(ServiceError) as caught:
        Service("arXiv", "export.arxiv.org/api")
    assert (
        str(caught.value)
        == "not an address of arXiv's API: 'export.arxiv.org/api' (expected http(s)://…)"
    )
