"""arXiv's API: ``GET {base}/query?id_list=ID,ID`` and ``?search_query=…&max_results=N``,
answered as an Atom 1.0 feed. Each ``entry`` has its ``id`` (``http://arxiv.org/abs/IDvN``),
``title``, ``summary``, ``author/name``, ``published``, and optionally ``arxiv:doi`` and
``arxiv:journal_ref``. An id arXiv cannot read comes back as an entry whose id is
``http://arxiv.org/api/errors#…``; an id it does not have, as no entry.

arXiv's terms ask for at most one request every 3 seconds, over one connection:
``INTERVAL`` (tests shrink it). The feed is read with the standard library's XML parser;
a feed that declares a DOCTYPE (Atom never does: entities are how XML bombs work) is
refused as malformed.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ..store.links import ARXIV, ARXIV_ID, link_patterns
from ..text import STOP_WORDS
from ..text.latex import latex_to_text
from ..venues import canonical_venue, find_venue_years, known_venue, venue_in_name
from .found import Found, arxiv_links, clean, doi_link

if TYPE_CHECKING:
    from .service import Service

DEFAULT_API = "https://export.arxiv.org/api"
INTERVAL = 3.0  # seconds between two requests, as arXiv's terms of use ask
SEARCH_RESULTS = 5  # candidates a title search asks for
QUERY_WORDS = 12  # at most this many words of a title in a search
ABSTRACT_WORDS = 6  # the distinctive words of an abstract a search asks for (all of them)
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV_NS = "{http://arxiv.org/schemas/atom}"
_ENTRY_ID_RE = re.compile(rf"arxiv\.org/abs/({ARXIV_ID})$", re.I)
_YEAR_RE = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_QUERY_WORD_RE = re.compile(r"[^\W_]+")


def service(base: str) -> Service:
    from .service import Service

    return Service("arXiv", base, interval=INTERVAL)


def unversioned(identifier: str) -> str:
    return re.sub(r"v\d+$", "", identifier)


def by_ids(api: Service, ids: list[str], fetched: str) -> dict[str, Found]:
    """The papers of *ids* (as given, versions kept), by version-less id; an id arXiv does
    not have is absent, and one it cannot read raises ``ServiceError``."""
    what = f"for {', '.join(ids)}"
    response = api.get("/query", {"id_list": ",".join(ids), "max_results": len(ids)}, what)
    found = _feed(api, response, what, fetched)
    return {f.arxiv: f for f in found}


def search(api: Service, query: str, fetched: str) -> list[Found]:
    """The papers a ``search_query`` finds, best first (at most ``SEARCH_RESULTS``)."""
    what = f"for search_query={query}"
    params = {"search_query": query, "max_results": SEARCH_RESULTS}
    return _feed(api, api.get("/query", params, what), what, fetched)


def title_query(words: list[str]) -> str:
    """arXiv's query for titles holding every one of *words*: ``ti:a AND ti:b``."""
    return " AND ".join(f"ti:{w}" for w in words)


def search_words(text: str) -> list[str]:
    """The words of *text* a search asks for: plain words, lower case, each once, without
    stop words or single letters, at most ``QUERY_WORDS``."""
    found = [w.casefold() for w in _QUERY_WORD_RE.findall(text)]
    kept = [w for w in found if w not in STOP_WORDS and len(w) > 1]
    return list(dict.fromkeys(kept))[:QUERY_WORDS]


def abstract_query(abstract: str) -> str | None:
    """arXiv's query for abstracts holding the ``ABSTRACT_WORDS`` most distinctive words of
    *abstract* (``abs:a AND abs:b``): names and acronyms first (a capital after the first
    letter: QZO, LoRA), then the longest words; never one with a digit (``13B`` and ``13 B``
    are both written). None when it has too few words to ask by."""
    words: dict[str, tuple[int, int, int]] = {}
    for n, word in enumerate(_QUERY_WORD_RE.findall(latex_to_text(abstract))):
        key, name = word.casefold(), any(c.isupper() for c in word[1:])
        if key in STOP_WORDS or key in words or len(key) < (3 if name else 4) or not word.isalpha():
            continue
        words[key] = (-name, -len(key), n)
    if len(words) < ABSTRACT_WORDS:
        return None
    chosen = sorted(words, key=words.__getitem__)[:ABSTRACT_WORDS]
    return " AND ".join(f"abs:{w}" for w in sorted(chosen, key=lambda w: words[w][2]))


def _feed(api: Service, response, what: str, fetched: str) -> list[Found]:
    if response.status_code != 200:
        raise api.failed(response, what)
    body = response.content
    if b"<!DOCTYPE" in body[:4096].upper() or b"<!ENTITY" in body.upper():
        raise api.malformed(what, "the feed declares a DOCTYPE")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        raise api.malformed(what, f"not XML ({e})") from None
    if root.tag != f"{ATOM}feed":
        raise api.malformed(what, f"not an Atom feed (<{_local(root.tag)}>)")
    found, errors = [], []
    for n, entry in enumerate(root.findall(f"{ATOM}entry")):
        identifier = (entry.findtext(f"{ATOM}id") or "").strip()
        if "/api/errors" in identifier:
            errors.append(clean(entry.findtext(f"{ATOM}summary")) or identifier)
            continue
        m = _ENTRY_ID_RE.search(identifier)
        if not m:
            raise api.malformed(what, f"entry {n + 1} has no arXiv id ({identifier[:80]!r})")
        found.append(_found(entry, m.group(1), fetched))
        if not found[-1].title:
            raise api.malformed(what, f"entry {n + 1} ({m.group(1)}) has no title")
    if errors:
        from ..errors import UsageError

        raise UsageError(f"arXiv: {errors[0]}")
    return found


def read_entry(text: str, fetched: str) -> Found:
    """An entry as ``Found.raw`` keeps it, read again; ValueError when it does not read."""
    if "<!DOCTYPE" in text.upper() or "<!ENTITY" in text.upper():
        raise ValueError("an entry declares a DOCTYPE")
    try:
        entry = ET.fromstring(text)
    except ET.ParseError as e:
        raise ValueError(f"not XML ({e})") from None
    m = _ENTRY_ID_RE.search((entry.findtext(f"{ATOM}id") or "").strip())
    if entry.tag != f"{ATOM}entry" or not m:
        raise ValueError("not an arXiv entry")
    found = _found(entry, m.group(1), fetched)
    if not found.title:
        raise ValueError(f"{m.group(1)} has no title")
    return found


def _found(entry: ET.Element, versioned: str, fetched: str) -> Found:
    identifier = unversioned(versioned)
    authors = [
        name for a in entry.findall(f"{ATOM}author") if (name := clean(a.findtext(f"{ATOM}name")))
    ]
    published = (entry.findtext(f"{ATOM}published") or "").strip()
    year = int(published[:4]) if published[:4].isdigit() else None
    doi = clean(entry.findtext(f"{ARXIV_NS}doi"))
    doi = checked_doi(doi.split()[0]) if doi else None  # (two are sometimes given: the first)
    found = Found(
        service="arXiv",
        document=f"arxiv:{versioned}",
        fetched=fetched,
        title=clean(entry.findtext(f"{ATOM}title")),
        authors=authors,
        abstract=clean(entry.findtext(f"{ATOM}summary")),
        venue=ARXIV,
        year=year,
        urls=arxiv_links(identifier) + ([doi_link(doi)] if doi else []),
        arxiv=identifier,
        doi=doi,
        raw=ET.tostring(entry, encoding="unicode"),
    )
    ref = clean(entry.findtext(f"{ARXIV_NS}journal_ref"))
    if ref and (published_in := journal_venue(ref)):
        found.venue, found.year = published_in
        found.status = f"journal reference: {ref}"
    return found


def checked_doi(text: str) -> str | None:
    """*text* when it is a DOI (``10.NNNN/…``, no ``.`` or ``..`` path segment: it becomes
    part of a Crossref address), else None."""
    m = link_patterns()["doi"].match(text)
    if not m or re.search(r"/\.\.?(?:/|$)", m.group(1)):
        return None
    return m.group(1).rstrip(".,;")


def journal_venue(ref: str) -> tuple[str, int] | None:
    """The venue and year a journal reference names (``ICLR 2024``, ``Proceedings of the
    40th International Conference on Machine Learning, 2023``, ``Phys. Rev. D 76, 013009
    (2007)``); None when it names no year or no venue: a venue is never guessed."""
    years = _YEAR_RE.findall(ref)
    for venue, year in find_venue_years(ref):
        if known_venue(venue):
            return venue, year
    if not years:
        return None
    year = int(years[-1])
    if venue := venue_in_name(ref):
        return venue, year
    for venue, _year in find_venue_years(ref):  # an acronym of a venue papers does not know
        return canonical_venue(venue), year
    name = re.split(r"[\d(,;]", ref, maxsplit=1)[0].strip(" .:-")
    if sum(c.isalpha() for c in name) >= 3:
        return name, year
    return None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]
