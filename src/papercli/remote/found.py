"""A paper as one service gave it (``Found``), and what it becomes in the library: an
``Entry`` folded in by the merge rule, cited by a ``Source`` that names the service and the
day it answered (``arxiv:2501.01234v2``, ``crossref:10.1000/xyz``, ``openreview:FORUM``),
as ``papers enrich`` cites OpenReview.

Every text is plain: whitespace collapsed, control characters removed. It is data, never
markup or a path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..parsers.base import Entry
from ..store.links import arxiv_url, is_arxiv
from ..store.record import Source
from ..text import strip_controls

DOI_URL = "https://doi.org/{}"


def clean(text: str | None) -> str | None:
    """A service's text as one plain line; None when nothing is left."""
    if not isinstance(text, str):
        return None
    return " ".join(strip_controls(text).split()) or None


@dataclass
class Found:
    service: str  # "arXiv", "Crossref" or "OpenReview"
    document: str  # the source's name: "arxiv:2501.01234v2", "crossref:10.1/x", …
    fetched: str  # the day the service answered, YYYY-MM-DD
    title: str | None = None
    authors: list[str] = field(default_factory=list)  # "Given Family", in order
    abstract: str | None = None
    venue: str | None = None  # "arXiv" for a preprint; None when unknown
    year: int | None = None
    kind: str | None = None  # BibTeX's entry type when the service says (article, …)
    urls: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)  # the authors' own (OpenReview)
    arxiv: str | None = None  # the arXiv id, version aside
    doi: str | None = None
    forum: str | None = None
    status: str | None = None  # what the service says of it (OpenReview: "Submitted to …")
    raw: Any = field(default=None, repr=False, compare=False)  # as sent: an entry, a work

    @property
    def published(self) -> bool:
        """Whether it names a venue other than arXiv."""
        return bool(self.venue) and not is_arxiv(self.venue)

    def link_keys(self) -> list[str]:
        """The link keys it can be found by in the library (``store.links``)."""
        keys = []
        if self.arxiv:
            keys.append(f"x:{self.arxiv}")
        if self.doi:
            keys.append(f"d:{self.doi.casefold()}")
        if self.forum:
            keys.append(f"o:{self.forum}")
        return keys

    def publish(self, other: Found) -> None:
        """Take *other*'s venue, year and kind: the version published there."""
        self.venue, self.year, self.kind = other.venue, other.year or self.year, other.kind

    def entry(self) -> Entry:
        from ..parsers import shortname

        return Entry(
            line=0,
            title=self.title,
            short_name=(self.title and shortname.from_title(self.title))
            or (self.abstract and shortname.from_abstract(self.abstract))
            or None,
            authors=list(self.authors),
            abstract=self.abstract,
            venue=self.venue,
            year=self.year,
            kind=self.kind,
            urls=list(dict.fromkeys(self.urls)),
            keywords=list(self.keywords),
        )

    def source(self) -> Source:
        return Source(
            document=self.document,
            name=self.service,
            line=0,
            format=self.service.casefold(),
            fields=self.entry().fields(),
            fetched=self.fetched,
        )

    def summary(self) -> dict:
        """What a list of candidates shows of it."""
        return {
            "title": self.title,
            "authors": list(self.authors),
            "venue": self.venue,
            "year": self.year,
            "source": self.service,
            "link": self.urls[0] if self.urls else None,
        }


def arxiv_links(identifier: str) -> list[str]:
    """The abstract page and the PDF of an arXiv paper (version aside)."""
    return [arxiv_url(identifier), f"https://arxiv.org/pdf/{identifier}"]


def doi_link(doi: str) -> str:
    return DOI_URL.format(doi)
