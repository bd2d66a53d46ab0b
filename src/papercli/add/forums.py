"""OpenReview for ``papers add``: a forum's submission (``GET {base}/notes?id=FORUM``, API
v2: ``{"notes": […], "count": N}``), and the venues' lists of accepted papers that
``papers enrich`` cached in the library, searched without asking the network.

A submission is accepted when its ``venueid`` is the venue itself (``ICLR.cc/2026/
Conference``), not one of its piles (``…/Submission``, ``…/Rejected_Submission``,
``…/Withdrawn_Submission``); its venue and year are then read from ``venue`` (``ICLR 2026
Poster``), else from the venue id. A submission not accepted has no venue, the year it was
submitted in, and says what it is (``Submitted to ICLR 2026``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

from ..enrich.match import words
from ..enrich.openreview import Note, parse_notes
from ..errors import OpenReviewError
from ..remote.found import Found
from ..remote.service import kind
from ..store.merge import text_key
from ..venues import canonical_venue, find_venue_years

if TYPE_CHECKING:
    from ..enrich.cache import VenueList
    from ..remote.service import Service

_PILE_RE = re.compile(r"(submission|rejected|withdrawn|desk_reject)", re.I)
PER_LIST = 3  # candidates a title lookup takes from each cached venue list


def service(base: str) -> Service:
    from ..remote.service import Service

    return Service("OpenReview", base)


def by_forum(api: Service, forum: str, fetched: str) -> Found | None:
    """The submission of forum *forum*, or None when OpenReview has no such note. An id of
    a reply (a review, a comment) leads to its forum's submission."""
    note = _note(api, forum)
    if note is not None and note.forum != note.id:
        note = _note(api, note.forum)
    return None if note is None else from_note(note, fetched)


def _note(api: Service, identifier: str) -> Note | None:
    what = f"for note {identifier}"
    response = api.get("/notes", {"id": identifier}, what)
    if response.status_code in (400, 404):  # (OpenReview's NotFoundError)
        return None
    if response.status_code != 200:
        raise api.failed(response, what)
    body = api.json(response, what)
    if not isinstance(body, dict):
        raise api.malformed(what, f"the reply is {kind(body)}, not an object")
    try:
        notes = parse_notes(body.get("notes"), "notes")
    except OpenReviewError as e:
        raise api.malformed(what, str(e).removeprefix("notes: malformed reply: ")) from None
    return next((n for n in notes if n.id == identifier), None)


def accepted(note: Note) -> tuple[str, int | None] | None:
    """The venue and year *note* was accepted at, or None when it was not (yet)."""
    venueid = note.venueid or ""
    parts = venueid.split("/")
    if not venueid or _PILE_RE.search(parts[-1]):
        return None
    if note.venue and note.venue.casefold().startswith("submitted to"):
        return None
    for venue, year in find_venue_years(note.venue or ""):
        return venue, year
    name = re.sub(r"\.(?:cc|org|net|com)$", "", parts[0], flags=re.I)
    return canonical_venue(name), _year_of(venueid)


def from_note(note: Note, fetched: str) -> Found:
    published = accepted(note)
    found = note.paper(fetched)
    if published:
        found.venue, found.year = published
    else:  # (the year it was submitted in, without a venue it was not accepted at)
        found.status = f"OpenReview: {note.venue or 'not accepted'}"
        found.year = _year_of(note.venueid or "")
    return found


def _year_of(venueid: str) -> int | None:
    return next((int(p) for p in venueid.split("/") if re.fullmatch(r"(?:19|20)\d{2}", p)), None)


class Accepted:
    """The accepted papers of every venue list ``papers enrich`` cached in the library."""

    def __init__(self, lists: list[VenueList]) -> None:
        self.lists = lists
        self.notes: list[tuple[Note, str]] = [(n, v.fetched) for v in lists for n in v.notes()]
        self.by_title: dict[str, list[int]] = defaultdict(list)
        self.words: list[set[str]] = []
        for i, (note, _fetched) in enumerate(self.notes):
            if note.title and (key := text_key(note.title)):
                self.by_title[key].append(i)
            self.words.append(words(note.title))

    def _found(self, i: int) -> Found:
        note, fetched = self.notes[i]
        return from_note(note, fetched)

    def same_title(self, title: str | None) -> Found | None:
        """The accepted paper of this title (as the merge rule compares titles), when one
        venue list holds exactly one."""
        found = self.by_title.get(text_key(title)) if title else None
        return self._found(found[0]) if found and len(found) == 1 else None

    def candidates(self, text: str) -> list[Found]:
        """The accepted papers whose titles share most of the rarer words of *text*."""
        mine = words(text)
        if not mine or not self.notes:
            return []
        scores: dict[int, int] = defaultdict(int)
        for i, theirs in enumerate(self.words):
            shared = len(mine & theirs)
            if theirs and shared * 2 >= len(theirs):  # at least half of the title's words
                scores[i] = shared
        best = sorted(scores, key=lambda i: (-scores[i], i))[: PER_LIST * max(1, len(self.lists))]
        return [self._found(i) for i in best]
