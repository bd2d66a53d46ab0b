"""A stand-in for OpenReview's API on 127.0.0.1 (a ``stand_in.StandIn``: a real HTTP server)
serving ``GET /notes?content.venueid=…&limit=…&offset=…``, ``/notes?id=…`` and
``/notes?forum=…`` in the real reply shape, so the client (and ``papers enrich`` and ``papers
add`` run as real processes, with ``PAPERS_OPENREVIEW_API=server.url``) is tested over real
sockets, never the internet.

    def test_x(openreview):                       # the fixture (registered in conftest.py)
        openreview.add("ICLR.cc/2026/Conference", [note("a1", title="…")])
        openreview.submit(note("s1", venueid="ICLR.cc/2026/Conference/Rejected_Submission"))
        openreview.rate_limit(times=2, retry_after="3")   # the next 2 requests: 429
        openreview.stall(1.0)                     # the next request: answered after 1 s
        openreview.respond("{not json")           # the next request: this body, as is
        openreview.fail(500)                      # the next request: HTTP 500
        ... openreview.url ...                    # http://127.0.0.1:PORT
        assert openreview.offsets() == [0, 1000]  # every request is recorded

Scripted answers are used in the order they were scripted, one per request; then requests are
served normally. Import helpers as ``from enrich.openreview_server import note`` (the same
module conftest.py loads).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stand_in import Answer, Request, StandIn, json_answer, unused_port


def note(
    id: str,
    title: str | None = "A title",
    authors: list[str] | None = None,
    abstract: str | None = "An abstract.",
    keywords: list[str] | None = None,
    venueid: str = "ICLR.cc/2026/Conference",
    pdf: str | None = "/pdf/{id}.pdf",
    venue: str | None = "ICLR 2026 Poster",
    forum: str | None = None,
    **extra: Any,
) -> dict:
    """A note dict as OpenReview sends it (every content value wrapped as ``{"value": …}``).
    A field given as None is left out, as OpenReview leaves out a field it hides. *pdf* may
    hold ``{id}``; *extra* adds content fields (their values wrapped too)."""
    content = {
        "title": title,
        "authors": ["Ada Lovelace", "Alan Turing"] if authors is None else authors,
        "abstract": abstract,
        "keywords": [] if keywords is None else keywords,
        "venue": venue,
        "venueid": venueid,
        "pdf": pdf.format(id=id) if pdf else pdf,
        "_bibtex": f"@inproceedings{{{id},\n title={{{title}}}\n}}",
        **extra,
    }
    return {
        "id": id,
        "forum": id if forum is None else forum,
        "invitations": [f"{venueid}/-/Submission"],
        "content": {k: {"value": v} for k, v in content.items() if v is not None},
    }


class OpenReviewServer(StandIn):
    """OpenReview's API: a venue's notes, and single notes by id or forum."""

    error_body = json.dumps({"name": "RateLimitError", "message": "Too many requests"}).encode()

    def __init__(self) -> None:
        super().__init__()
        self.venues: dict[str, list[dict]] = {}
        self.submissions: list[dict] = []  # notes found by id or forum only (not accepted)
        self.count: int | None = None  # set to make every reply claim this count (a liar)

    # --- setting up ---

    def add(self, venueid: str, notes: list[dict]) -> None:
        """Serve *notes* (in this order) as *venueid*'s accepted papers."""
        self.venues.setdefault(venueid, []).extend(notes)

    def submit(self, *notes: dict) -> None:
        """Serve *notes* by their id and forum only (rejected, withdrawn, under review)."""
        self.submissions.extend(notes)

    def fail(self, status: int = 500, times: int = 1) -> None:
        """Answer the next *times* requests with an HTTP error in OpenReview's error shape."""
        error = {"name": "InternalServerError", "message": f"Simulated error {status}"}
        self.respond(error, status=status, times=times)

    # --- looking back ---

    def offsets(self, venueid: str | None = None) -> list[int]:
        """The ``offset`` of every venue request so far (of *venueid*'s only, if given)."""
        return [
            int(r.query.get("offset", 0))
            for r in self.requests
            if r.path == "/notes"
            and "content.venueid" in r.query
            and venueid in (None, r.query.get("content.venueid"))
        ]

    # --- serving ---

    def serve(self, request: Request) -> Answer:
        path, query = request.path, request.query
        if path != "/notes":
            return json_answer(404, {"name": "NotFoundError", "message": f"{path} not found"})
        everything = [n for notes in self.venues.values() for n in notes] + self.submissions
        if "id" in query:
            found = [n for n in everything if n["id"] == query["id"]]
            if not found:
                message = f"The Note {query['id']} was not found"
                return json_answer(404, {"name": "NotFoundError", "message": message})
            return json_answer(200, {"notes": found, "count": 1})
        if "forum" in query:
            found = [n for n in everything if n["forum"] == query["forum"]]
            return json_answer(200, {"notes": found, "count": len(found)})
        try:
            limit = int(query.get("limit", 1000))
            offset = int(query.get("offset", 0))
        except ValueError:
            return json_answer(400, {"name": "ValidationError", "message": "bad limit or offset"})
        notes = self.venues.get(query.get("content.venueid", ""), [])
        count = len(notes) if self.count is None else self.count
        return json_answer(200, {"notes": notes[offset : offset + limit], "count": count})


@pytest.fixture
def openreview():
    """A running :class:`OpenReviewServer`, empty and unscripted; closed after the test."""
    with OpenReviewServer() as server:
        yield server


__all__ = ["OpenReviewServer", "Request", "note", "openreview", "unused_port"]
