"""A paper's links as keys: what a pasted link, DOI or arXiv identifier finds it by.

In: a record's links, or the text of a query. Out: one key a link, the same for every
spelling of it, indexed with the paper (``keys`` field) and looked up for a pasted one:

    x:1412.6980          arXiv: https://arxiv.org/abs/1412.6980v9, …/pdf/1412.6980,
                         arXiv:1412.6980, 1412.6980, DOI 10.48550/arXiv.1412.6980
    d:10.1000/xyz        DOI (case-insensitive): https://doi.org/10.1000/XYZ, doi:10.1000/xyz
    o:3d5CIRG1n2         OpenReview: https://openreview.net/forum?id=3d5CIRG1n2, …/pdf?id=…
    u:example.org/a/b    any other web link: no scheme, no www., no trailing / or #fragment
"""

from __future__ import annotations

import functools
import re

# arXiv identifiers: 2101.00001 (since 2007, 5 digits since 2015), hep-th/9901001 (before)
ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"


@functools.cache
def link_patterns() -> dict[str, re.Pattern]:
    """Compiled on first use: case-insensitive patterns took 2-4 ms to compile, which a
    search of plain words (no '.', ':' or '/') never needs."""
    return {
        "arxiv": re.compile(
            rf"^(?:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/|arxiv:\s*)?({ARXIV_ID})"
            r"(?:\.pdf)?/?(?:[?#]\S*)?$",
            re.I,
        ),
        "doi": re.compile(
            r"^(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)$", re.I
        ),
        "arxiv_doi": re.compile(rf"^10\.48550/arxiv\.({ARXIV_ID})$", re.I),
        "openreview": re.compile(
            r"^(?:https?://)?(?:www\.)?openreview\.net/(?:forum|pdf)\?(?:.*&)?id=([A-Za-z0-9_-]+)",
            re.I,
        ),
        "url": re.compile(r"^https?://(?:www\.)?([^/?#\s]+)([^#\s]*)", re.I),
    }


def link_key(text: str) -> str | None:
    """The key of the link *text* is (None: it is not a link, a DOI or an arXiv id)."""
    text = text.strip()
    if not any(mark in text for mark in ".:/"):  # (no link: most queries, at once)
        return None
    p = link_patterns()
    if m := p["arxiv"].match(text):
        return "x:" + re.sub(r"v\d+$", "", m.group(1))
    if m := p["doi"].match(text):
        doi = m.group(1).rstrip(".,;")
        arxiv = p["arxiv_doi"].match(doi)
        return "x:" + re.sub(r"v\d+$", "", arxiv.group(1)) if arxiv else "d:" + doi.casefold()
    if m := p["openreview"].match(text):
        return "o:" + m.group(1)
    if m := p["url"].match(text):
        host, rest = m.group(1).casefold(), m.group(2).rstrip("/")
        return "u:" + (host + rest).replace(",", "%2C")
    return None


def link_keys(urls: list[str]) -> list[str]:
    """The keys of a record's links, each once."""
    return list(dict.fromkeys(k for k in map(link_key, urls) if k))


ARXIV = "arXiv"  # the venue of a preprint


def is_arxiv(venue: str | None) -> bool:
    return venue is not None and venue.casefold() == "arxiv"


def arxiv_url(identifier: str) -> str:
    return f"https://arxiv.org/abs/{identifier}"


def arxiv_id(urls: list[str]) -> str | None:
    """The arXiv identifier (version aside) of the first arXiv link among *urls*, in any
    spelling ``link_key`` knows (abs or pdf page, arXiv's DOI)."""
    for url in urls:
        key = link_key(url)
        if key and key.startswith("x:"):
            return key[2:]
    return None
