"""Where each service answers (the ``*_api`` settings), and the address Crossref is told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..config import DEFAULT_ARXIV_API, DEFAULT_CROSSREF_API, DEFAULT_OPENREVIEW_API


@dataclass
class Apis:
    arxiv: str = DEFAULT_ARXIV_API
    crossref: str = DEFAULT_CROSSREF_API
    openreview: str = DEFAULT_OPENREVIEW_API
    email: str | None = None  # contact_email: sent to Crossref

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Apis:
        return cls(
            arxiv=settings["arxiv_api"].value,
            crossref=settings["crossref_api"].value,
            openreview=settings["openreview_api"].value,
            email=settings["contact_email"].value,
        )
