"""Where each service answers (the ``*_api`` settings), the address Crossref is told, and
the clients made from them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..config import DEFAULT_ARXIV_API, DEFAULT_CROSSREF_API, DEFAULT_OPENREVIEW_API
from . import arxiv, crossref

if TYPE_CHECKING:
    from .service import Service


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


class Clients:
    """arXiv's and Crossref's clients for one command, each made when first asked, and
    closed together (``papers add`` and ``papers enrich`` add their own)."""

    closes = ("arxiv", "crossref")  # the clients close() closes, once made

    def __init__(self, apis: Apis) -> None:
        self.apis = apis

    @cached_property
    def arxiv(self) -> Service:
        return arxiv.service(self.apis.arxiv)

    @cached_property
    def crossref(self) -> Service:
        return crossref.service(self.apis.crossref, self.apis.email)

    def close(self) -> None:
        for name in self.closes:
            if name in self.__dict__:
                self.__dict__[name].close()
