"""What arXiv and Crossref answered ``papers enrich``, kept in the library with the day it
was fetched: ``<library>/.cache/arxiv/<key>.json`` and ``.cache/crossref/<key>.json``, one
file a question, named by a hash of the question (``id 2501.01234``, ``search ti:a AND
ti:b``, ``doi 10.1000/x``, ``search <title venue year>``), which the file holds too.

The answer is the papers as the service sent them (Atom entries, Crossref works), read
again as a reply is read. Later runs read it; ``papers enrich --refresh`` asks again. An
answer that does not read back is asked again, as a damaged venue list is downloaded again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..remote import arxiv, crossref
from ..remote.found import Found
from ..store.files import atomic_write
from ..store.library import Library

FOLDERS = {"arXiv": Path(".cache") / "arxiv", "Crossref": Path(".cache") / "crossref"}
READ = {"arXiv": arxiv.read_entry, "Crossref": crossref.read_work}


@dataclass
class Answer:
    service: str  # "arXiv" or "Crossref"
    question: str
    fetched: str  # YYYY-MM-DD
    raw: list  # the papers as the service sent them; [] when it had none

    def papers(self) -> list[Found]:
        """The papers, read again (ValueError when one does not read)."""
        return [READ[self.service](raw, self.fetched) for raw in self.raw]


def path(library: Library, service: str, question: str) -> Path:
    key = hashlib.sha256(question.encode("utf-8")).hexdigest()[:32]
    return library.root / FOLDERS[service] / f"{key}.json"


def load(library: Library, service: str, question: str) -> tuple[Answer, list[Found]] | None:
    """The kept answer and its papers, or None when there is none or it does not read back."""
    try:
        data = json.loads(path(library, service, question).read_text("utf-8"))
        answer = Answer(service, data["question"], data["fetched"], data["papers"])
        if answer.question != question or not isinstance(answer.raw, list):
            return None
        if not isinstance(answer.fetched, str):
            return None
        return answer, answer.papers()
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(library: Library, answer: Answer) -> None:
    data = {
        "service": answer.service,
        "question": answer.question,
        "fetched": answer.fetched,
        "count": len(answer.raw),
        "papers": answer.raw,
    }
    encoded = json.dumps(data, ensure_ascii=False).encode("utf-8")
    atomic_write(path(library, answer.service, answer.question), encoded)
