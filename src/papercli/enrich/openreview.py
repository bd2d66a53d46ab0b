"""The OpenReview API (v2) client: a venue's accepted papers, page by page.

One request lists up to *page_size* notes of a venue (``GET /notes?content.venueid=…&limit=…
&offset=…``); the reply says how many there are in all (``count``). No account is needed, but
guests are rate-limited: a 429 says how long to wait (``Retry-After``), and we wait that long,
a bounded number of times. Every failure becomes one :class:`OpenReviewError` line naming the
server and the venue; no exception of the HTTP library escapes.

httpx is imported only inside :func:`fetch_venue`: importing it costs about 70 ms, which no
other command should pay.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urljoin, urlsplit

from papercli import __version__
from papercli.errors import OpenReviewError
from papercli.remote.found import Found
from papercli.remote.service import one_line, retry_after

if TYPE_CHECKING:
    import httpx

DEFAULT_API = "https://api2.openreview.net"
FORUM_URL = "https://openreview.net/forum?id={}"
SITE = "https://openreview.net/"  # what relative links (``/pdf/…``) are relative to
USER_AGENT = f"papers/{__version__} (+local literature index)"

# More notes than any venue has (ICLR 2026: ~5,400): a server that keeps sending full pages
# past this is broken, and we stop rather than loop.
MAX_NOTES = 100_000
RETRIED_STATUSES = frozenset({502, 503, 504})  # a proxy or a restart: worth another try
BACKOFF = 1.0  # the first wait after a 5xx (then 2, 4, …, at most *max_wait*)

VENUES = {  # lower-case name -> OpenReview's venue id pattern
    "iclr": "ICLR.cc/{}/Conference",
    "neurips": "NeurIPS.cc/{}/Conference",
    "nips": "NeurIPS.cc/{}/Conference",  # the old name; OpenReview files all years as NeurIPS
    "icml": "ICML.cc/{}/Conference",
}


@dataclass(frozen=True)
class Note:
    """One accepted paper, with plain-text fields as OpenReview gives them (outer whitespace
    trimmed; an empty or missing field is ``None`` or ``()``, never a guess)."""

    id: str
    forum: str
    title: str | None
    authors: tuple[str, ...]  # in order; () when missing or hidden (["Anonymous"])
    abstract: str | None
    keywords: tuple[str, ...]
    venue: str | None  # as displayed, e.g. "ICLR 2026 Poster"
    venueid: str | None  # e.g. "ICLR.cc/2026/Conference"
    pdf: str | None  # an absolute http(s) URL, or None

    @property
    def forum_url(self) -> str:
        """The paper's page on OpenReview (its discussion forum)."""
        return FORUM_URL.format(quote(self.forum, safe=""))

    def paper(self, fetched: str) -> Found:
        """The note as a service's paper, downloaded on *fetched* (its venue aside)."""
        return Found(
            service="OpenReview",
            document=f"openreview:{self.forum}",
            fetched=fetched,
            title=self.title,
            authors=list(self.authors),
            abstract=self.abstract,
            urls=[self.forum_url] + ([self.pdf] if self.pdf else []),
            keywords=list(self.keywords),
            forum=self.forum,
        )


def venue_id(venue: str, year: int | None) -> str | None:
    """OpenReview's id for a conference and year (``ICLR``, 2026 -> ``ICLR.cc/2026/Conference``);
    None for a venue OpenReview does not host for us or a missing year, so the caller can say
    which of the two it lacks."""
    pattern = VENUES.get(venue.strip().lower()) if isinstance(venue, str) else None
    if pattern is None or year is None or isinstance(year, bool):
        return None
    return pattern.format(int(year))


# --- the shape of a reply -----------------------------------------------------------------------


class _Malformed(Exception):
    """A reply's shape is wrong; the caller says whose reply it was."""


def _value(content: dict, field: str, where: str) -> Any:
    """``content[field]["value"]``, or None when the field is missing, null or hidden (OpenReview
    omits ``value`` from a field the reader may not see)."""
    wrapped = content.get(field)
    if wrapped is None:
        return None
    if not isinstance(wrapped, dict):
        raise _Malformed(f"{where}: content.{field} is {_kind(wrapped)}, not an object")
    return wrapped.get("value")


def _text(content: dict, field: str, where: str) -> str | None:
    value = _value(content, field, where)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Malformed(f"{where}: content.{field}.value is {_kind(value)}, not text")
    return value.strip() or None


def _texts(content: dict, field: str, where: str, *, split: bool = False) -> tuple[str, ...]:
    value = _value(content, field, where)
    if value is None:
        return ()
    if split and isinstance(value, str):  # some venues' forms take keywords as one line
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Malformed(f"{where}: content.{field}.value is {_kind(value)}, not a list of text")
    return tuple(s for s in (v.strip() for v in value) if s)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list" if all(isinstance(v, str) for v in value) else "a list of non-text"
    return {
        dict: "an object",
        str: "text",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)


def _pdf(value: str | None) -> str | None:
    """An absolute link to the PDF: ``/pdf/abc.pdf`` is on openreview.net; an absolute http(s)
    link is kept; anything else (``javascript:``, an attachment name) is no link at all."""
    if not value:
        return None
    url = urljoin(SITE, value)
    parts = urlsplit(url)
    return url if parts.scheme in ("http", "https") and parts.netloc else None


def _note(raw: Any, index: int) -> Note:
    where = f"notes[{index}]"
    if not isinstance(raw, dict):
        raise _Malformed(f"{where} is {_kind(raw)}, not an object")
    ids = {}
    for key in ("id", "forum"):
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise _Malformed(f"{where} has no {key}")
        ids[key] = value.strip()
    where = f"{where} ({ids['id']})"
    content = raw.get("content")
    if content is None:
        content = {}
    if not isinstance(content, dict):
        raise _Malformed(f"{where}: content is {_kind(content)}, not an object")
    authors = _texts(content, "authors", where)
    if authors == ("Anonymous",):  # the placeholder of a venue that hides its authors
        authors = ()
    return Note(
        id=ids["id"],
        forum=ids["forum"],
        title=_text(content, "title", where),
        authors=authors,
        abstract=_text(content, "abstract", where),
        keywords=_texts(content, "keywords", where, split=True),
        venue=_text(content, "venue", where),
        venueid=_text(content, "venueid", where),
        pdf=_pdf(_text(content, "pdf", where)),
    )


def _notes(raw: Any) -> list[Note]:
    if not isinstance(raw, list):
        raise _Malformed(f"notes is {_kind(raw)}, not a list")
    return [_note(item, i) for i, item in enumerate(raw)]


def parse_notes(raw: Any, where: str) -> list[Note]:
    """The notes of a list of raw note dicts (as received, or as cached from a reply).

    Raises :class:`OpenReviewError` ``"<where>: malformed reply: …"`` on a wrong type or a note
    without ``id``/``forum``: a reply we misread would fill records with wrong data, so we refuse
    it whole. Content fields may be missing (None or empty)."""
    try:
        return _notes(raw)
    except _Malformed as e:
        raise OpenReviewError(f"{where}: malformed reply: {e}") from None


# --- the requests -------------------------------------------------------------------------------


def _server_message(response: httpx.Response) -> str:
    """OpenReview's own explanation of an error (``{"name", "message"}``), if it gave one."""
    try:
        body = response.json()
    except ValueError:
        return ""
    message = body.get("message") if isinstance(body, dict) else None
    return f": {one_line(message)}" if isinstance(message, str) and message.strip() else ""


def fetch_venue(
    api: str,
    venueid: str,
    *,
    page_size: int = 1000,
    timeout: float = 30.0,
    retries: int = 5,
    max_wait: float = 120.0,
    progress: Callable[[int, int | None], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    client: httpx.Client | None = None,
) -> list[dict]:
    """All the notes of *venueid* as the raw dicts received (so they can be cached as they came),
    each already shape-checked by :func:`parse_notes`; ``[]`` for a venue OpenReview does not
    know (it answers an empty list, not an error).

    Paging stops at ``count``, at an empty page, or (``count`` missing) at a short page; a server
    that repeats itself or never ends is an error, never an endless loop. A 429 is waited out as
    its ``Retry-After`` says, at most *retries* times per page and never longer than *max_wait*
    seconds at once; a 502/503/504 is retried as often with a short backoff. *progress* is told
    (notes so far, total or None) after each page. *sleep* and *client* are for tests."""
    import httpx

    api = api.rstrip("/")
    if urlsplit(api).scheme not in ("http", "https") or not urlsplit(api).netloc:
        raise OpenReviewError(f"not an OpenReview API address: {api!r} (expected http(s)://…)")
    if page_size < 1:
        raise ValueError(f"page_size must be positive, not {page_size}")
    url = f"{api}/notes"
    retries = max(0, retries)
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json"}
    limits = httpx.Timeout(timeout, connect=min(10.0, timeout))
    own = client is None
    if own:
        client = httpx.Client(headers=headers, timeout=limits)

    def get(offset: int) -> httpx.Response:
        """One page, with 429s waited out and 5xx retried; any other answer is returned."""
        params = {"content.venueid": venueid, "limit": page_size, "offset": offset}
        backoff = BACKOFF
        for attempt in range(retries + 1):
            try:
                response = client.get(url, params=params, headers=headers, timeout=limits)
            except httpx.TimeoutException:
                raise OpenReviewError(
                    f"{api} did not answer within {timeout:g} s (venue {venueid}, offset "
                    f"{offset}); try again later or with a longer timeout"
                ) from None
            except httpx.HTTPError as e:
                raise OpenReviewError(f"cannot reach {api}: {one_line(e)}") from None
            except httpx.InvalidURL as e:
                raise OpenReviewError(f"not an OpenReview API address: {api!r}: {e}") from None
            status = response.status_code
            if status != 429 and status not in RETRIED_STATUSES:
                return response
            asked = retry_after(response.headers.get("Retry-After"))
            if status == 429:
                wait = asked if asked is not None else backoff
                if wait > max_wait:
                    raise OpenReviewError(
                        f"{api} is rate-limiting requests (HTTP 429) and asks to wait "
                        f"{wait:.0f} s, more than {max_wait:g} s; try again later"
                    )
            else:
                wait = min(asked if asked is not None else backoff, max_wait)
            if attempt == retries:
                break
            sleep(wait)
            backoff = min(backoff * 2, max_wait)
        if status == 429:
            raise OpenReviewError(
                f"{api} is still rate-limiting requests (HTTP 429) after {retries} "
                f"retr{'y' if retries == 1 else 'ies'}; try again later"
            )
        raise OpenReviewError(
            f"{api} answered {status} {response.reason_phrase} for {venueid} after "
            f"{retries} retr{'y' if retries == 1 else 'ies'}; try again later"
        )

    def malformed(detail: str) -> OpenReviewError:
        return OpenReviewError(f"{api}: malformed reply for {venueid}: {detail}")

    try:
        received: list[dict] = []
        seen: set[str] = set()
        total: int | None = None
        offset = 0
        while True:
            response = get(offset)
            if response.status_code != 200:
                raise OpenReviewError(
                    f"{api} answered {response.status_code} {response.reason_phrase} for "
                    f"{venueid}{_server_message(response)}"
                )
            try:
                body = response.json()
            except ValueError as e:  # not JSON, or not UTF-8
                raise malformed(f"not JSON ({one_line(e)})") from None
            if not isinstance(body, dict):
                raise malformed(f"the reply is {_kind(body)}, not an object")
            page = body.get("notes")
            try:
                notes = _notes(page)
            except _Malformed as e:
                raise malformed(f"offset {offset}: {e}") from None
            count = body.get("count")
            if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
                total = count
            fresh = 0
            for raw, note in zip(page, notes, strict=True):
                if note.id not in seen:  # a note seen twice (the list moved while paging): once
                    seen.add(note.id)
                    received.append(raw)
                    fresh += 1
            if notes and not fresh:  # a server ignoring the offset would send this forever
                raise malformed(f"offset {offset} repeats notes already received")
            offset += len(page)
            if progress is not None:
                progress(len(received), total)
            if not page or (total is not None and offset >= total):
                break
            if total is None and len(page) < page_size:
                break
            if len(received) >= MAX_NOTES:
                raise malformed(f"more than {MAX_NOTES:,} notes; stopping")
        return received
    finally:
        if own:
            client.close()
