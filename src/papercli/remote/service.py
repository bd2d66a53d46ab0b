"""One web service papers asks (arXiv, Crossref, OpenReview): its base address, one
connection, the pace it asks for, and every failure as one line.

- *interval*: the least time between two requests (arXiv asks for 3 s); the first request
  never waits.
- A 429 is waited out as its ``Retry-After`` says (at most *retries* times, never longer
  than *max_wait* at once); a 502/503/504 is retried after a short backoff.
- A timeout, a refused connection, another HTTP status and a reply that does not read are
  each a :class:`ServiceError` naming the service and its address; no exception of the HTTP
  library escapes. The caller says what was asked for (``for id_list=…``).

httpx is imported only when a request is made (by ``papers add`` and ``papers enrich``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .. import __version__
from ..errors import ServiceError

if TYPE_CHECKING:
    import httpx

USER_AGENT = f"papers/{__version__} (+local literature index)"
RETRIED = frozenset({502, 503, 504})  # a proxy or a restart: worth another try
BACKOFF = 1.0  # the first wait after a 5xx or a 429 without Retry-After (then 2, 4, …)
TIMEOUT = 20.0  # seconds a service may take to answer (tests shrink it)


class Service:
    """``Service("arXiv", base).get("/query", {"id_list": "2501.01234"})`` -> the reply."""

    def __init__(
        self,
        name: str,
        base: str,
        *,
        interval: float = 0.0,
        timeout: float | None = None,
        retries: int = 3,
        max_wait: float = 60.0,
        headers: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        base = base.rstrip("/")
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ServiceError(f"not an address of {name}'s API: {base!r} (expected http(s)://…)")
        self.name, self.base = name, base
        self.interval = interval
        self.timeout = TIMEOUT if timeout is None else timeout
        self.retries, self.max_wait = max(0, retries), max_wait
        self.headers = {"User-Agent": USER_AGENT, **(headers or {})}
        self.params = dict(params or {})  # sent with every request (Crossref's mailto)
        self.sleep, self.clock = sleep, clock
        self._last: float | None = None  # when the last request was sent
        self._client: httpx.Client | None = None
        self.requests = 0  # sent, retries included

    @property
    def who(self) -> str:
        return f"{self.name} ({self.base})"

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> Service:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pace(self) -> None:
        if self._last is not None and self.interval > 0:
            wait = self._last + self.interval - self.clock()
            if wait > 0:
                self.sleep(wait)
        self._last = self.clock()

    def get(self, path: str, params: dict[str, Any], what: str) -> httpx.Response:
        """GET *path* with *params*; the reply of any status but 429 and 5xx-retried ones.
        *what* names the request in errors (``for 2501.01234``)."""
        import httpx

        if self._client is None:
            limits = httpx.Timeout(self.timeout, connect=min(10.0, self.timeout))
            self._client = httpx.Client(headers=self.headers, timeout=limits)
        backoff, status = BACKOFF, None
        for attempt in range(self.retries + 1):
            self._pace()
            self.requests += 1
            try:
                response = self._client.get(self.base + path, params={**params, **self.params})
            except httpx.TimeoutException:
                raise ServiceError(
                    f"{self.who} did not answer within {self.timeout:g} s {what}; try again later"
                ) from None
            except httpx.HTTPError as e:
                raise ServiceError(f"cannot reach {self.who}: {one_line(e)}") from None
            except httpx.InvalidURL as e:
                raise ServiceError(
                    f"not an address of {self.name}'s API: {self.base!r}: {e}"
                ) from None
            status = response.status_code
            if status != 429 and status not in RETRIED:
                return response
            asked = retry_after(response.headers.get("Retry-After"))
            wait = asked if asked is not None else backoff
            if status == 429 and wait > self.max_wait:
                raise ServiceError(
                    f"{self.who} is rate-limiting requests (HTTP 429) and asks to wait "
                    f"{wait:.0f} s, more than {self.max_wait:g} s; try again later"
                )
            if attempt == self.retries:
                break
            self.sleep(min(wait, self.max_wait))
            self._last = self.clock()  # (the pause counts as the interval)
            backoff = min(backoff * 2, self.max_wait)
        tries = f"{self.retries} retr{'y' if self.retries == 1 else 'ies'}"
        if status == 429:
            raise ServiceError(
                f"{self.who} is still rate-limiting requests (HTTP 429) after {tries}; "
                "try again later"
            )
        raise ServiceError(f"{self.who} answered {status} {what} after {tries}; try again later")

    def failed(self, response: httpx.Response, what: str) -> ServiceError:
        """The error for a reply of an unexpected status."""
        return ServiceError(
            f"{self.who} answered {response.status_code} {response.reason_phrase} {what}"
        )

    def malformed(self, what: str, detail: str) -> ServiceError:
        return ServiceError(f"{self.who}: malformed reply {what}: {detail}")

    def json(self, response: httpx.Response, what: str) -> Any:
        try:
            return response.json()
        except ValueError as e:  # not JSON, or not UTF-8
            raise self.malformed(what, f"not JSON ({one_line(e)})") from None


def retry_after(header: str | None, now: float | None = None) -> float | None:
    """The seconds a ``Retry-After`` header asks for (``"12"`` or an HTTP date), never negative;
    None when absent or unreadable."""
    if header is None:
        return None
    header = header.strip()
    try:
        seconds = float(header)
    except ValueError:
        from email.utils import parsedate_to_datetime

        try:
            when = parsedate_to_datetime(header)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:  # an HTTP date is GMT, whether or not it says so
            from datetime import UTC

            when = when.replace(tzinfo=UTC)
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds or seconds in (float("inf"), float("-inf")):  # NaN, inf
        return None
    return max(0.0, seconds)


def one_line(error: BaseException) -> str:
    """An exception as a short single line (httpx's messages can span lines)."""
    text = " ".join(str(error).split())
    return text[:200] or type(error).__name__


def kind(value: Any) -> str:
    """What a JSON value is, for an error message."""
    if value is None:
        return "null"
    return {
        dict: "an object",
        list: "a list",
        str: "text",
        bool: "a boolean",
        int: "a number",
        float: "a number",
    }.get(type(value), type(value).__name__)
