"""A stand-in for OpenReview's API on 127.0.0.1: a real HTTP server (standard library, in a
daemon thread) serving ``GET /notes?content.venueid=…&limit=…&offset=…`` in the real reply
shape, so the client (and ``papers enrich`` run as a real process, with
``PAPERS_OPENREVIEW_API=server.url``) is tested over real sockets, never the internet.

    def test_x(openreview):                       # the fixture (registered in conftest.py)
        openreview.add("ICLR.cc/2026/Conference", [note("a1", title="…")])
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
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest


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


@dataclass
class Request:
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # names in lower case


@dataclass
class _Answer:
    status: int = 200
    body: bytes | None = None  # None: answer normally (after *delay*)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


class OpenReviewServer:
    """The server's state and its script; see the module docstring."""

    def __init__(self) -> None:
        self.venues: dict[str, list[dict]] = {}
        self.requests: list[Request] = []
        self.count: int | None = None  # set to make every reply claim this count (a liar)
        self._script: list[_Answer] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(  # a short poll: closing takes milliseconds, not 0.5 s
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    # --- setting up ---

    def add(self, venueid: str, notes: list[dict]) -> None:
        """Serve *notes* (in this order) as *venueid*'s accepted papers."""
        self.venues.setdefault(venueid, []).extend(notes)

    def rate_limit(self, times: int = 1, retry_after: str | None = "1") -> None:
        """Answer the next *times* requests with 429 (``Retry-After: retry_after`` unless None)."""
        headers = {} if retry_after is None else {"Retry-After": retry_after}
        body = json.dumps({"name": "RateLimitError", "message": "Too many requests"}).encode()
        self._queue(times, _Answer(429, body, headers))

    def stall(self, seconds: float, times: int = 1) -> None:
        """Answer the next *times* requests normally, but only after *seconds*."""
        self._queue(times, _Answer(delay=seconds))

    def respond(
        self,
        body: bytes | str | Any,
        status: int = 200,
        times: int = 1,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next *times* requests with *body*: bytes or text as is (malformed JSON),
        anything else as JSON (a wrong shape)."""
        if isinstance(body, str):
            body = body.encode()
        elif not isinstance(body, bytes):
            body = json.dumps(body).encode()
        self._queue(times, _Answer(status, body, dict(headers or {})))

    def fail(self, status: int = 500, times: int = 1) -> None:
        """Answer the next *times* requests with an HTTP error in OpenReview's error shape."""
        error = {"name": "InternalServerError", "message": f"Simulated error {status}"}
        self.respond(error, status=status, times=times)

    def _queue(self, times: int, answer: _Answer) -> None:
        with self._lock:
            self._script.extend([answer] * times)

    # --- looking back ---

    def offsets(self, venueid: str | None = None) -> list[int]:
        """The ``offset`` of every ``/notes`` request so far (of *venueid*'s only, if given)."""
        return [
            int(r.query.get("offset", 0))
            for r in self.requests
            if r.path == "/notes" and venueid in (None, r.query.get("content.venueid"))
        ]

    # --- serving ---

    def _answer(self, request: Request) -> _Answer:
        path, query = request.path, request.query
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        if scripted is not None and scripted.delay:
            self._closing.wait(scripted.delay)
        if scripted is not None and scripted.body is not None:
            return scripted
        if path != "/notes":
            return _json(404, {"name": "NotFoundError", "message": f"{path} not found"})
        try:
            limit = int(query.get("limit", 1000))
            offset = int(query.get("offset", 0))
        except ValueError:
            return _json(400, {"name": "ValidationError", "message": "bad limit or offset"})
        notes = self.venues.get(query.get("content.venueid", ""), [])
        count = len(notes) if self.count is None else self.count
        return _json(200, {"notes": notes[offset : offset + limit], "count": count})

    def start(self) -> OpenReviewServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()  # wakes stalled answers, so nothing lingers
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> OpenReviewServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json(status: int, obj: Any) -> _Answer:
    return _Answer(status, json.dumps(obj).encode(), {"Content-Type": "application/json"})


def _handler(server: OpenReviewServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the real server

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            headers = {name.lower(): value for name, value in self.headers.items()}
            answer = server._answer(Request(parts.path, dict(parse_qsl(parts.query)), headers))
            try:
                self.send_response(answer.status)
                headers = {"Content-Type": "application/json", **answer.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body or b"")))
                self.end_headers()
                self.wfile.write(answer.body or b"")
            except OSError:  # the client gave up (a timeout test): nobody to answer
                self.close_connection = True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

    return Handler


def unused_port() -> int:
    """A local port nothing listens on (for "connection refused")."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def openreview():
    """A running :class:`OpenReviewServer`, empty and unscripted; closed after the test."""
    with OpenReviewServer() as server:
        yield server


__all__ = ["OpenReviewServer", "Request", "note", "openreview", "unused_port"]
