"""arXiv and Crossref, for the records OpenReview cannot serve (a venue it does not list, or
a paper its list does not have). Each record is asked of arXiv, then of Crossref:

- arXiv: by the arXiv id of its links (every record's in one request); else by its title
  (``ti:`` words); else by the distinctive words of its abstract (``abs:``).
- Crossref: by the DOI of its links or of arXiv's paper; else by its title (arXiv's, for
  a record that had none), venue and year (``query.bibliographic``). It cannot search
  abstracts: an untitled record arXiv did not find is not asked.

A paper asked for by the record's own link is the record's (``link``). A search's results
are matched as a venue's list is (``match``): abstract, title, a fuzzy score with a clear
margin; a near tie is left alone. Crossref's changes are what it adds to arXiv's.

Every answer is read from the library's cache (``replies``) unless ``refresh``. Each paper
a search or a request of several ids brings is kept as the answer to asking for its id or
DOI too, so that a record that gained the link is not asked about again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..remote import arxiv, crossref
from ..remote.apis import Apis, Clients
from ..remote.found import Found
from ..store.library import Library
from ..store.links import arxiv_id, is_arxiv, link_patterns
from ..store.record import Record
from . import replies
from .changes import Change, apply, changes
from .match import Match, Matcher

if TYPE_CHECKING:
    pass

IDS_PER_REQUEST = 100  # arXiv ids asked for in one request
_NONE = {"arXiv": "arXiv: no paper matches", "Crossref": "Crossref: no work matches"}


@dataclass
class Lookup:
    """What one service made of one record: its match, the changes, or why none."""

    service: str  # "OpenReview", "arXiv" or "Crossref"
    match: Match
    changes: list[Change] = field(default_factory=list)
    reason: str | None = None

    def as_dict(self) -> dict:
        paper = self.match.paper
        return {
            "service": self.service,
            "match": self.match.how,
            "paper": paper.document if paper and self.match.found else None,
            "fetched": paper.fetched if paper and self.match.found else None,
            "reason": self.reason,
        }


def decide(service: str, record: Record, match: Match, none: str) -> Lookup:
    if match.how == "none":
        return Lookup(service, match, reason=none)
    if match.how == "ambiguous":
        return Lookup(service, match, reason=match.describe())  # (it names the service)
    return Lookup(service, match, changes(record, match.paper))


def _listed(paper: Found | None) -> list[Found]:
    return [] if paper is None else [paper]


def doi_of(urls: list[str]) -> str | None:
    """The DOI of the first DOI link among *urls* (not arXiv's own DOIs: Crossref has none)."""
    patterns = link_patterns()
    for url in urls:
        m = patterns["doi"].match(url.strip())
        if m and not patterns["arxiv_doi"].match(m.group(1)):
            return arxiv.checked_doi(m.group(1))
    return None


class Asker(Clients):
    """The two services for one run: answers from the cache or asked, and what to keep."""

    def __init__(self, library: Library, apis: Apis, today: str, refresh: bool) -> None:
        super().__init__(apis)
        self.library, self.today, self.refresh = library, today, refresh
        self.answers: dict[tuple[str, str], list[Found]] = {}  # this run's, by question
        self.new: dict[tuple[str, str], replies.Answer] = {}  # to keep when the run writes
        self.cached: dict[str, list[str]] = {"arXiv": [], "Crossref": []}  # fetched dates

    def requests(self, service: str) -> int:
        name = {"arXiv": "arxiv", "Crossref": "crossref"}[service]
        return self.__dict__[name].requests if name in self.__dict__ else 0

    # --- answers ---

    def _known(self, service: str, question: str) -> list[Found] | None:
        if (service, question) in self.answers:
            return self.answers[(service, question)]
        if self.refresh or (kept := replies.load(self.library, service, question)) is None:
            return None
        answer, papers = kept
        self.cached[service].append(answer.fetched)
        self.answers[(service, question)] = papers
        return papers

    def _keep(self, service: str, question: str, papers: list[Found]) -> None:
        self.answers[(service, question)] = papers
        raw = [p.raw for p in papers]
        self.new[(service, question)] = replies.Answer(service, question, self.today, raw)

    def _keep_each(self, papers: list[Found]) -> None:
        """Each paper as the answer to asking for its id or DOI, unless asked already."""
        for paper in papers:
            key = ("arXiv", f"id {paper.arxiv}") if paper.service == "arXiv" else None
            if paper.service == "Crossref" and paper.doi:
                key = ("Crossref", f"doi {paper.doi.casefold()}")
            if key and key not in self.answers:
                self._keep(*key, [paper])

    def answer(self, service: str, question: str, ask: Callable[[], list[Found]]) -> list[Found]:
        known = self._known(service, question)
        if known is None:
            known = ask()
            self._keep(service, question, known)
            self._keep_each(known)
        return known

    def prefetch(self, records: list[Record]) -> None:
        """Ask arXiv for the ids of *records*' links that are not known yet, together."""
        ids = dict.fromkeys(i for r in records if (i := arxiv_id(r.urls)))
        wanted = [i for i in ids if self._known("arXiv", f"id {i}") is None]
        for start in range(0, len(wanted), IDS_PER_REQUEST):
            chunk = wanted[start : start + IDS_PER_REQUEST]
            found = arxiv.by_ids(self.arxiv, chunk, self.today)
            for identifier in chunk:
                self._keep("arXiv", f"id {identifier}", _listed(found.get(identifier)))

    # --- the records ---

    def ask(self, record: Record) -> list[Lookup]:
        """arXiv's lookup of *record*, then Crossref's (of the record as arXiv filled it)."""
        first = self._arxiv(record)
        if first.changes:
            record = copy.deepcopy(record)
            apply(record, first.match.paper, first.changes)
        return [first, self._crossref(record)]

    def _arxiv(self, record: Record) -> Lookup:
        if identifier := arxiv_id(record.urls):
            found = self.answer(
                "arXiv",
                f"id {identifier}",
                lambda: _listed(arxiv.by_ids(self.arxiv, [identifier], self.today).get(identifier)),
            )
            if not found:
                return Lookup("arXiv", Match("none"), reason=f"arXiv has no paper {identifier}")
            return decide("arXiv", record, Match("link", found[0]), "")
        query = None
        if record.title:
            query = arxiv.title_query(arxiv.search_words(record.title)) or None
        elif record.abstract:
            query = arxiv.abstract_query(record.abstract)
        if query is None:
            return Lookup("arXiv", Match("none"), reason="arXiv: too few words to search by")
        found = self.answer(
            "arXiv", f"search {query}", lambda: arxiv.search(self.arxiv, query, self.today)
        )
        return decide("arXiv", record, Matcher(found).match(record), _NONE["arXiv"])

    def _crossref(self, record: Record) -> Lookup:
        if doi := doi_of(record.urls):
            found = self.answer(
                "Crossref",
                f"doi {doi.casefold()}",
                lambda: _listed(crossref.by_doi(self.crossref, doi, self.today)),
            )
            if not found:
                return Lookup("Crossref", Match("none"), reason=f"Crossref has no work {doi}")
            return decide("Crossref", record, Match("link", found[0]), "")
        if not record.title:
            reason = "Crossref: no title to search by (it does not search abstracts)"
            return Lookup("Crossref", Match("none"), reason=reason)
        venue = None if is_arxiv(record.venue) else record.venue
        text = " ".join(str(p) for p in (record.title, venue, record.year) if p)
        found = self.answer(
            "Crossref", f"search {text}", lambda: crossref.search(self.crossref, text, self.today)
        )
        return decide("Crossref", record, Matcher(found).match(record), _NONE["Crossref"])
