"""Crossref's REST API: ``GET {base}/works/{doi}`` answers ``{"status": "ok", "message-type":
"work", "message": {…}}`` (404, with a plain-text body, for a DOI it does not know);
``GET {base}/works?query.bibliographic=…&rows=N`` answers the same with ``message.items``.

A work gives ``title`` and ``container-title`` as lists, ``author`` as ``given``/``family``
(or ``name``), ``published``/``issued`` as ``date-parts``, its ``type``, ``DOI`` and an
``abstract`` in JATS XML. The ``contact_email`` setting is sent as ``mailto``, which puts
the requests in Crossref's "polite pool". A reply of another shape is refused whole.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import quote

from ..venues import canonical_venue, venue_in_name
from .arxiv import checked_doi
from .found import Found, clean, doi_link
from .service import kind

if TYPE_CHECKING:
    from .service import Service

DEFAULT_API = "https://api.crossref.org"
SEARCH_RESULTS = 5  # candidates a bibliographic search asks for
KINDS = {  # Crossref's type -> BibTeX's entry type
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "book-chapter": "incollection",
    "book": "book",
    "monograph": "book",
    "report": "techreport",
    "dissertation": "phdthesis",
}
_TAG_RE = re.compile(r"<[^>]*>")


class _Malformed(Exception):
    pass


def service(base: str, email: str | None) -> Service:
    from .service import Service

    if not email:
        return Service("Crossref", base)
    from .service import USER_AGENT

    agent = USER_AGENT.replace(")", f"; mailto:{email})")
    return Service("Crossref", base, params={"mailto": email}, headers={"User-Agent": agent})


def by_doi(api: Service, doi: str, fetched: str) -> Found | None:
    """The work *doi* names, or None when Crossref does not know it (404)."""
    what = f"for DOI {doi}"
    response = api.get(f"/works/{quote(doi, safe='/:;()._-')}", {}, what)
    if response.status_code == 404:
        return None
    message = _message(api, response, what, "work")
    try:
        return _found(message, fetched)
    except _Malformed as e:
        raise api.malformed(what, str(e)) from None


def search(api: Service, text: str, fetched: str) -> list[Found]:
    """The works Crossref finds for a title or reference, best first."""
    what = "for query.bibliographic"
    params = {"query.bibliographic": text, "rows": SEARCH_RESULTS}
    message = _message(api, api.get("/works", params, what), what, "work-list")
    items = message.get("items")
    if not isinstance(items, list):
        raise api.malformed(what, f"message.items is {kind(items)}, not a list")
    out = []
    for n, item in enumerate(items):
        try:
            found = _found(item, fetched)
        except _Malformed as e:
            raise api.malformed(what, f"items[{n}]: {e}") from None
        if found.title:
            out.append(found)
    return out


def read_work(work: object, fetched: str) -> Found:
    """A work as ``Found.raw`` keeps it, read again; ValueError when it does not read."""
    try:
        found = _found(work, fetched)
    except _Malformed as e:
        raise ValueError(str(e)) from None
    if not found.title:
        raise ValueError(f"{found.doi} has no title")
    return found


def _message(api: Service, response, what: str, expected: str) -> dict:
    if response.status_code != 200:
        raise api.failed(response, what)
    body = api.json(response, what)
    if not isinstance(body, dict):
        raise api.malformed(what, f"the reply is {kind(body)}, not an object")
    if body.get("message-type") != expected:
        raise api.malformed(what, f"message-type is {body.get('message-type')!r}, not {expected!r}")
    message = body.get("message")
    if not isinstance(message, dict):
        raise api.malformed(what, f"message is {kind(message)}, not an object")
    return message


def _texts(work: dict, name: str) -> list[str]:
    value = work.get(name)
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Malformed(f"{name} is {kind(value)}, not a list of text")
    return [t for t in map(clean, value) if t]


def _authors(work: dict) -> list[str]:
    people = work.get("author") or []
    if not isinstance(people, list) or not all(isinstance(p, dict) for p in people):
        raise _Malformed(f"author is {kind(people)}, not a list of objects")
    names = []
    for person in people:
        parts = [person.get("given"), person.get("family")]
        if not any(isinstance(p, str) for p in parts):
            parts = [person.get("name")]
        name = clean(" ".join(p for p in parts if isinstance(p, str)))
        if name:
            names.append(name)
    return names


def _year(work: dict) -> int | None:
    for name in ("published", "issued", "published-print", "published-online"):
        date = work.get(name)
        if date is None:
            continue
        parts = date.get("date-parts") if isinstance(date, dict) else None
        if not isinstance(parts, list):
            raise _Malformed(f"{name} has no date-parts")
        first = parts[0] if parts and isinstance(parts[0], list) else []
        year = first[0] if first else None
        if isinstance(year, int) and not isinstance(year, bool) and 1000 <= year <= 9999:
            return year
    return None


def _abstract(work: dict) -> str | None:
    """JATS XML as text: the tags gone, a leading "Abstract" heading too."""
    value = work.get("abstract")
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Malformed(f"abstract is {kind(value)}, not text")
    import html

    text = clean(html.unescape(_TAG_RE.sub(" ", value)))
    if text and text.casefold().startswith("abstract "):
        text = text[len("abstract ") :]
    return text or None


def _found(work: dict, fetched: str) -> Found:
    if not isinstance(work, dict):
        raise _Malformed(f"a work is {kind(work)}, not an object")
    raw = work.get("DOI")
    doi = checked_doi(raw.strip()) if isinstance(raw, str) else None
    if doi is None:
        raise _Malformed(f"a work has no DOI ({raw!r})")
    titles = _texts(work, "title")
    containers = _texts(work, "container-title")
    kind_of = work.get("type")
    venue = None
    if containers:
        venue = venue_in_name(containers[0]) or canonical_venue(containers[0])
    return Found(
        service="Crossref",
        document=f"crossref:{doi}",
        fetched=fetched,
        title=titles[0] if titles else None,
        authors=_authors(work),
        abstract=_abstract(work),
        venue=venue,
        year=_year(work),
        kind=KINDS.get(kind_of) if isinstance(kind_of, str) else None,
        urls=[doi_link(doi)],
        doi=doi,
        raw=work,
    )
