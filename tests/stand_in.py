"""A stand-in for a web service on 127.0.0.1: a real HTTP server (standard library, in a
daemon thread) whose replies a subclass makes (``serve``), with a script of answers a test
puts first, so that clients (and ``papers`` run as a real process) are tested over real
sockets, never the internet.

    server.rate_limit(times=2, retry_after="3")   # the next 2 requests: 429
    server.stall(1.0)                     # the next request: answered after 1 s
    server.respond("{not json")           # the next request: this body, as is
    server.fail(500)                      # the next request: HTTP 500
    ... server.url ...                    # http://127.0.0.1:PORT
    server.requests                       # every request, in order

Scripted answers are used in the order they were scripted, one per request; then requests
are served normally. ``enrich/openreview_server.py`` (OpenReview) and
``add/services.py`` (arXiv, Crossref) are the services.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit


@dataclass
class Request:
    path: str  # percent-decoded
    query: dict[str, str]
    headers: dict[str, str]  # names in lower case


@dataclass
class Answer:
    status: int = 200
    body: bytes | None = None  # None: answer normally (after *delay*)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def json_answer(status: int, obj: Any) -> Answer:
    return Answer(status, json.dumps(obj).encode(), {"Content-Type": "application/json"})


class StandIn:
    """The server's state and its script; see the module docstring."""

    content_type = "application/json"  # of scripted bodies
    error_body = b""  # what ``fail`` and ``rate_limit`` send

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self._script: list[Answer] = []
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

    # --- the script ---

    def rate_limit(self, times: int = 1, retry_after: str | None = "1") -> None:
        """Answer the next *times* requests with 429 (``Retry-After: retry_after`` unless None)."""
        headers = {} if retry_after is None else {"Retry-After": retry_after}
        self._queue(times, Answer(429, self.error_body or b"Too many requests", headers))

    def stall(self, seconds: float, times: int = 1) -> None:
        """Answer the next *times* requests normally, but only after *seconds*."""
        self._queue(times, Answer(delay=seconds))

    def respond(
        self,
        body: bytes | str | Any,
        status: int = 200,
        times: int = 1,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next *times* requests with *body*: bytes or text as is (malformed),
        anything else as JSON (a wrong shape)."""
        if isinstance(body, str):
            body = body.encode()
        elif not isinstance(body, bytes):
            body = json.dumps(body).encode()
        headers = {"Content-Type": self.content_type, **(headers or {})}
        self._queue(times, Answer(status, body, headers))

    def fail(self, status: int = 500, times: int = 1) -> None:
        """Answer the next *times* requests with an HTTP error."""
        self.respond(self.error_body or f"Simulated error {status}", status=status, times=times)

    def _queue(self, times: int, answer: Answer) -> None:
        with self._lock:
            self._script.extend([answer] * times)

    # --- serving ---

    def serve(self, request: Request) -> Answer:
        """The normal reply to *request* (a subclass's)."""
        raise NotImplementedError

    def _answer(self, request: Request) -> Answer:
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        if scripted is not None and scripted.delay:
            self._closing.wait(scripted.delay)
        if scripted is not None and scripted.body is not None:
            return scripted
        return self.serve(request)

    def start(self):
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()  # wakes stalled answers, so nothing lingers
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handler(server: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the real servers

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            headers = {name.lower(): value for name, value in self.headers.items()}
            request = Request(unquote(parts.path), dict(parse_qsl(parts.query)), headers)
            answer = server._answer(request)
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
