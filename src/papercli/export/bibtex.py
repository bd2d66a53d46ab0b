"""BibTeX entries that bibtex, biber and pybtex accept.

``ascii_only=True`` (``--format bibtex``): every non-ASCII character spelled in LaTeX
(``∇`` → ``\\ensuremath{\\nabla}``), for classic bibtex under pdflatex. The Chinese summary
has no ASCII spelling and is left out. ``ascii_only=False`` (``--format biblatex``):
UTF-8, with the Chinese summary in ``annotation``, which styles do not print.

No author is ever invented (nor ``Anonymous``). Each name is one name: an ``and`` inside
it is braced so that BibTeX does not split it. ``key`` (classic sorting) and ``shorthand``
(biblatex labels) carry the short name so that author-less entries sort and label
sensibly. An untitled paper gets a title built from its short name and its abstract's
first sentence.

What the tool says about an entry (no authors, a derived title, a field left out) is a
``%`` line above it, never a field: a style prints ``note`` under the reference, in the
user's paper. The count of each goes to *notes* (a Counter) for one line on stderr.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator

from ..store.links import arxiv_id, is_arxiv
from ..store.record import Record
from ..text import first_sentence
from ..text.latex import latex_to_text
from ..venues import full_name
from .latex import Unencodable, to_latex

DERIVED_NOTE = "title derived from the short name and the first sentence of the abstract"
NO_AUTHOR_NOTE = "authors unknown: no source names them"
UNENCODABLE_NOTE = "the {} has characters with no ASCII spelling; export as biblatex"
FORUM = "https://openreview.net/forum?id="
_AND_RE = re.compile(r"\band\b", re.I)
_URL_SAFE_RE = re.compile(r"^https?://[^\s{}\\%#]+$")


def chunks(
    records: Iterable[Record], ascii_only: bool, notes: Counter | None = None
) -> Iterator[str]:
    for n, record in enumerate(records):
        yield ("\n" if n else "") + entry(record, ascii_only, notes)


def derived_title(record: Record) -> str:
    opening = first_sentence(latex_to_text(record.abstract or record.summary_zh or ""), 400)
    parts = [p for p in (record.short_name, opening) if p]
    return ": ".join(parts) or record.id


def _field(
    name: str, text: str, ascii_only: bool, notes: list[str], protect: bool = False
) -> str | None:
    try:
        value = to_latex(text, ascii_only, protect_caps=protect)
    except Unencodable:
        notes.append(UNENCODABLE_NOTE.format(name))
        kept = "".join(ch for ch in text if ch.isascii() or _encodable(ch))
        value = to_latex(kept, ascii_only, protect_caps=protect)
    return value or None


def _url(urls: list[str]) -> str | None:
    """The paper's page: its OpenReview forum when known, else the first link."""
    safe = [u for u in urls if _URL_SAFE_RE.match(u)]
    return next((u for u in safe if u.startswith(FORUM)), safe[0] if safe else None)


def _name(author: str, ascii_only: bool, notes: list[str]) -> str:
    """One author as BibTeX reads one name: "Given Family" or "Family, Given"."""
    value = _field("author", author, ascii_only, notes) or ""
    return f"{{{value}}}" if _AND_RE.search(value) else value


def _encodable(ch: str) -> bool:
    try:
        to_latex(ch, True)
    except Unencodable:
        return False
    return True


def _kind(record: Record) -> str:
    """The entry type: a journal's article, a preprint or a venue-less paper as misc, and
    a conference's paper (what digest pages and abstract lists list) as inproceedings."""
    if not record.venue or is_arxiv(record.venue) or record.kind == "misc":
        return "misc"
    return "article" if record.kind == "article" else "inproceedings"


def _venue_fields(record: Record, ascii_only: bool, notes: list[str]) -> list[tuple[str, str]]:
    """Where the paper appeared: a journal's or conference's full name; for an arXiv
    preprint, its identifier as classic styles print it (``howpublished``) or as biblatex
    reads it."""
    if not is_arxiv(record.venue):
        name = {"article": "journal", "misc": "howpublished"}.get(_kind(record), "booktitle")
        value = _field(name, full_name(record.venue) or "", ascii_only, notes)
        return [(name, value)] if value else []
    preprint = arxiv_id(record.urls)
    if preprint is None:
        return [("howpublished", "arXiv")]
    if ascii_only:
        return [("howpublished", f"arXiv preprint arXiv:{preprint}")]
    return [("eprinttype", "arxiv"), ("eprint", preprint)]


def entry(record: Record, ascii_only: bool, tally: Counter | None = None) -> str:
    notes: list[str] = []
    title = record.title
    if not title:
        title = derived_title(record)
        notes.append(DERIVED_NOTE)
    fields: list[tuple[str, str | None]] = [
        ("title", _field("title", title, ascii_only, notes, protect=True)),
        ("author", " and ".join(_name(a, ascii_only, notes) for a in record.authors)),
        *_venue_fields(record, ascii_only, notes),
        ("year", str(record.year) if record.year else None),
        ("abstract", _field("abstract", record.abstract or "", ascii_only, notes)),
        ("keywords", ", ".join(record.tags) or None),
        ("url", _url(record.urls)),
    ]
    # key: what classic styles sort an author-less entry by; shorthand: biblatex's label
    if record.short_name:
        name = _field("short name", record.short_name, ascii_only, notes)
        fields += [("key", name), ("shorthand", name)]
    else:
        fields.append(("key", _field("key", " ".join(title.split()[:5]), ascii_only, [])))
    if record.summary_zh and not ascii_only:
        fields.append(("annotation", _field("summary", record.summary_zh, False, notes)))
    if not record.authors:
        notes.append(NO_AUTHOR_NOTE)
    if tally is not None:
        tally.update(dict.fromkeys(notes, 1))
    # (the notes are this module's own words: no "@", which would start an entry)
    comments = "".join(f"% papers: {note}\n" for note in dict.fromkeys(notes))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"{comments}@{_kind(record)}{{{record.citekey or record.id},\n{body}\n}}\n"


def advice(notes: Counter, total: int) -> list[str]:
    """What to do about the notes of an export of *total* entries: a line for each kind."""
    lines = []
    if n := notes[NO_AUTHOR_NOTE]:
        lines.append(f"{_entries(n, total)} no authors: papers enrich can fill them in")
    if n := sum(c for note, c in notes.items() if note.endswith("export as biblatex")):
        lines.append(
            f"{n} fields have characters with no ASCII spelling: --format biblatex keeps them"
        )
    return lines


def _entries(n: int, total: int) -> str:
    """The subject and verb of a count: "3 of 63 entries name", "the entry names"."""
    return "the entry names" if total == 1 else f"{n} of {total} entries name"
