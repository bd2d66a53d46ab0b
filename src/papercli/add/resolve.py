"""Each item of ``papers add`` to the paper it names, as the services give it; nothing is
written here.

- arXiv ids are asked for in one request. A paper whose DOI Crossref knows, whose journal
  reference names a venue, or whose title a cached OpenReview list holds as accepted, takes
  that venue and year: the published version is preferred.
- A DOI is asked of Crossref; a forum of OpenReview (a bare word OpenReview has no forum
  for is looked up as a title).
- A title or reference is looked up on arXiv, on Crossref and in the cached OpenReview
  lists, and decided as ``lookup`` says: a clear match, or ``Unsure`` with the candidates.

A service that fails raises ``ServiceError`` (one line, exit 2); an id no service has is a
``UsageError``. Either way nothing has been written.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..remote import arxiv, crossref
from ..remote.apis import Apis, Clients
from ..remote.found import Found
from ..store.library import Library
from . import forums
from .items import Item, forum_item_as_text
from .lookup import Candidate, decide, query_words

if TYPE_CHECKING:
    from ..remote.service import Service


@dataclass
class Resolved:
    item: Item
    parts: list[Found]  # one paper; the first part's text comes first
    how: str  # "id", "title" (the title is the text), "fuzzy", or "chosen"


@dataclass
class Unsure:
    item: Item
    candidates: list[Candidate] = field(default_factory=list)  # best first; [] nothing found

    def choose(self, n: int) -> Resolved:
        return Resolved(self.item, parts_of(self.candidates[n]), "chosen")


def parts_of(candidate: Candidate) -> list[Found]:
    """A candidate's parts, arXiv's first, that part given the published venue."""
    parts = candidate.ordered()
    published = next((f for f in parts if f.published), None)
    if published is not None and not parts[0].published:
        parts[0].publish(published)
    return parts


class Services(Clients):
    """The three services, each made when first asked, and closed together."""

    closes = ("arxiv", "crossref", "openreview")

    def __init__(self, apis: Apis, library: Library | None, today: str) -> None:
        super().__init__(apis)
        self.library, self.today = library, today

    @cached_property
    def openreview(self) -> Service:
        return forums.service(self.apis.openreview)

    @cached_property
    def accepted(self) -> forums.Accepted:
        """The venue lists ``papers enrich`` cached (none in a library not made yet)."""
        from ..enrich.cache import cached_lists

        return forums.Accepted(cached_lists(self.library) if self.library is not None else [])


def resolve(
    items: list[Item],
    apis: Apis,
    library: Library | None,
    today: Callable[[], datetime.date] = datetime.date.today,
) -> list[Resolved | Unsure]:
    """What each of *items* is, in their order."""
    day = today().isoformat()
    services = Services(apis, library, day)
    with contextlib.closing(services):
        papers = _arxiv(services, [i for i in items if i.kind == "arxiv"])
        out: list[Resolved | Unsure] = []
        for item in items:
            if item.kind == "arxiv":
                out.append(Resolved(item, papers[arxiv.unversioned(item.value)], "id"))
            elif item.kind == "doi":
                out.append(_doi(services, item))
            elif item.kind == "openreview":
                out.append(_forum(services, item))
            else:
                out.append(_title(services, item))
        return out


def _arxiv(services: Services, items: list[Item]) -> dict[str, list[Found]]:
    """Each arXiv id's paper, in parts: arXiv's, then the published version's."""
    ids = list(dict.fromkeys(i.value for i in items))
    if not ids:
        return {}
    found = arxiv.by_ids(services.arxiv, ids, services.today)
    missing = [i for i in ids if arxiv.unversioned(i) not in found]
    if missing:
        raise UsageError(f"arXiv has no paper {missing[0]}")
    return {key: _published(services, paper) for key, paper in found.items()}


def _published(services: Services, paper: Found) -> list[Found]:
    """*paper* (an arXiv preprint) with the version its DOI or OpenReview says was published."""
    if paper.doi:
        work = crossref.by_doi(services.crossref, paper.doi, services.today)
        if work is not None:
            if work.published:
                paper.publish(work)
            return [paper, work]
    if not paper.published and (note := services.accepted.same_title(paper.title)):
        paper.publish(note)
        return [paper, note]
    return [paper]


def _doi(services: Services, item: Item) -> Resolved:
    work = crossref.by_doi(services.crossref, item.value, services.today)
    if work is None:
        raise UsageError(f"Crossref has no work with the DOI {item.value}")
    return Resolved(item, [work], "id")


def _forum(services: Services, item: Item) -> Resolved | Unsure:
    note = forums.by_forum(services.openreview, item.value, services.today)
    if note is not None:
        return Resolved(item, [note], "id")
    if item.maybe_text:
        return _title(services, forum_item_as_text(item))
    raise UsageError(f"OpenReview has no forum {item.value}")


def _title(services: Services, item: Item) -> Resolved | Unsure:
    found: list[Found] = []
    wanted = query_words(item.value)
    if wanted:
        found += arxiv.search(services.arxiv, arxiv.title_query(wanted), services.today)
    found += crossref.search(services.crossref, item.value, services.today)
    found += services.accepted.candidates(item.value)
    decision = decide(item.value, found)
    if decision.clear:
        return Resolved(item, parts_of(decision.chosen), decision.chosen.how)
    return Unsure(item, decision.candidates)
