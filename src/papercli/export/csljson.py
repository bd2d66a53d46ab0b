"""CSL-JSON, the citation format of pandoc's citeproc, Zotero and Mendeley.

Text is plain Unicode (LaTeX leftovers read as text, math as Unicode where it can be).
CSL processors read a few HTML-like tags inside strings (``<i>``, ``<b>``, ``<sup>``,
``<span class="nocase">``); a ``<`` in our data that could open one gets a zero-width space
after it, so it prints as typed. Titles are wrapped in ``<span class="nocase">`` so that
styles print them as written instead of re-casing them. No author is invented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from ..store.links import arxiv_id, is_arxiv
from ..store.record import Record
from ..text.latex import latex_to_text
from ..venues import full_name
from .bibtex import DERIVED_NOTE, derived_title
from .records import json_array

_TAG_OPEN_RE = re.compile(r"<(?=[A-Za-z/])")


def _text(value: str | None) -> str | None:
    if not value:
        return None
    return _TAG_OPEN_RE.sub("<\u200b", latex_to_text(value))


def _name(author: str) -> dict:
    family, comma, given = author.partition(",")
    if comma:
        return {"family": _text(family.strip()), "given": _text(given.strip())}
    return {"literal": _text(author)}


def item(record: Record) -> dict:
    title = record.title or derived_title(record)
    preprint = is_arxiv(record.venue)  # CSL has no preprint type: an article arXiv publishes
    number = arxiv_id(record.urls) if preprint else None
    venue = None if preprint else full_name(record.venue)
    journal = venue is not None and record.kind == "article"
    kind = "article-journal" if journal else "paper-conference" if venue else "article"
    data = {
        "id": record.citekey or record.id,
        "citation-key": record.citekey or record.id,
        "type": kind,
        "title": f'<span class="nocase">{_text(title)}</span>',
        "title-short": _text(record.short_name),
        "author": [_name(a) for a in record.authors] or None,
        "container-title": venue,
        "event-title": None if journal else venue,
        "publisher": record.venue if preprint else None,
        "number": f"arXiv:{number}" if number else None,
        "issued": {"date-parts": [[record.year]]} if record.year else None,
        "abstract": _text(record.abstract),
        "keyword": ", ".join(record.tags) or None,
        "URL": record.urls[0] if record.urls else None,
        "annote": _text(record.summary_zh),
        "note": DERIVED_NOTE if not record.title else None,
    }
    return {k: v for k, v in data.items() if v is not None}


def chunks(records: Iterable[Record]) -> Iterator[str]:
    yield from json_array(item(r) for r in records)
