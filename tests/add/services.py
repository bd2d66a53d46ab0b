"""Stand-ins for arXiv's and Crossref's APIs on 127.0.0.1 (``stand_in.StandIn``: real HTTP
servers), answering in each API's documented shape:

    arXiv     GET /query?id_list=ID,ID  and  /query?search_query=ti:a AND abs:b&max_results=N
              -> an Atom 1.0 feed (opensearch:totalResults; entries with id, title, summary,
              author/name, published, links, arxiv:doi, arxiv:journal_ref); an id arXiv
              cannot read -> an entry whose id is http://arxiv.org/api/errors#…
    Crossref  GET /works/{doi} -> {"status": "ok", "message-type": "work", "message": {…}},
              404 with a plain-text body for a DOI it does not know;
              GET /works?query.bibliographic=…&rows=N -> message.items, best first

    def test_x(arxiv_api, crossref_api):          # the fixtures (registered in conftest.py)
        arxiv_api.add(paper("2501.01234", title="…", doi="10.1000/x"))
        crossref_api.add(work("10.1000/x", title="…", container="Nature", year=2025))
        ... arxiv_api.url, crossref_api.url ...   # and the script of ``StandIn``
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import pytest

from stand_in import Answer, Request, StandIn, json_answer

ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_WORD_RE = re.compile(r"[a-z0-9]+")


def paper(
    id: str,
    title: str = "A Title",
    authors: list[str] | None = None,
    summary: str | None = None,
    published: str = "2025-01-02T18:00:00Z",
    version: int = 1,
    doi: str | None = None,
    journal_ref: str | None = None,
    category: str = "cs.LG",
) -> dict:
    """An arXiv paper as the stand-in serves it (*id* without its version)."""
    return {
        "id": id,
        "title": title,
        "authors": ["Ada Lovelace", "Alan Turing"] if authors is None else authors,
        "summary": f"The abstract of {title}." if summary is None else summary,
        "published": published,
        "version": version,
        "doi": doi,
        "journal_ref": journal_ref,
        "category": category,
    }


def entry_xml(p: dict, version: int | None = None) -> str:
    """One Atom entry, wrapped as arXiv wraps titles and abstracts."""
    vid = f"{p['id']}v{version or p['version']}"
    authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in p["authors"])
    title = escape(p["title"]).replace(" ", "\n  ", 1)  # (arXiv folds long titles)
    extra = ""
    if p["doi"]:
        extra += f"<arxiv:doi>{escape(p['doi'])}</arxiv:doi>"
        extra += (
            f'<link title="doi" href={quoteattr("http://dx.doi.org/" + p["doi"])} rel="related"/>'
        )
    if p["journal_ref"]:
        extra += f"<arxiv:journal_ref>{escape(p['journal_ref'])}</arxiv:journal_ref>"
    return (
        f"<entry><id>http://arxiv.org/abs/{vid}</id>"
        f"<updated>{p['published']}</updated><published>{p['published']}</published>"
        f"<title>{title}</title><summary>  {escape(p['summary'])}\n</summary>{authors}{extra}"
        f'<link href="http://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="http://arxiv.org/pdf/{vid}" rel="related" type="application/pdf"/>'
        f'<arxiv:primary_category term="{p["category"]}" scheme="http://arxiv.org/schemas/atom"/>'
        f'<category term="{p["category"]}" scheme="http://arxiv.org/schemas/atom"/></entry>'
    )


def error_entry(identifier: str) -> str:
    return (
        f"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_{escape(identifier)}</id>"
        f"<title>Error</title><summary>incorrect id format for {escape(identifier)}</summary>"
        "<author><name>arXiv api core</name></author></entry>"
    )


def feed(entries: list[str], query: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">'
        f'<link href={quoteattr("http://arxiv.org/api/query?" + query)} rel="self" '
        'type="application/atom+xml"/>'
        f'<title type="html">ArXiv Query: {escape(query)}</title>'
        "<id>http://arxiv.org/api/stand-in</id><updated>2026-12-01T00:00:00-05:00</updated>"
        f"<opensearch:totalResults>{len(entries)}</opensearch:totalResults>"
        "<opensearch:startIndex>0</opensearch:startIndex>"
        f"<opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>"
        + "".join(entries)
        + "</feed>"
    ).encode("utf-8")


class ArxivServer(StandIn):
    content_type = "application/atom+xml; charset=utf-8"

    def __init__(self) -> None:
        super().__init__()
        self.papers: dict[str, dict] = {}

    def add(self, *papers: dict) -> None:
        for p in papers:
            self.papers[p["id"]] = p

    def queries(self) -> list[dict[str, str]]:
        return [r.query for r in self.requests if r.path == "/query"]

    def serve(self, request: Request) -> Answer:
        if request.path != "/query":
            return Answer(404, b"Not Found", {"Content-Type": "text/plain"})
        query = request.query
        entries = []
        if "id_list" in query:
            for identifier in filter(None, query["id_list"].split(",")):
                if not re.fullmatch(ARXIV_ID, identifier):
                    entries.append(error_entry(identifier))
                    continue
                base, version = re.fullmatch(r"(.+?)(?:v(\d+))?", identifier).groups()
                if base in self.papers:
                    entries.append(entry_xml(self.papers[base], int(version) if version else None))
        elif "search_query" in query:  # ti:a AND abs:b …: every word in its field
            wanted = re.findall(r"\b(ti|abs):(\S+)", query["search_query"].casefold())
            for p in self.papers.values():
                fields = {
                    "ti": set(_WORD_RE.findall(p["title"].casefold())),
                    "abs": set(_WORD_RE.findall(p["summary"].casefold())),
                }
                if wanted and all(word in fields[f] for f, word in wanted):
                    entries.append(entry_xml(p))
        limit = int(query.get("max_results", 10))
        text = "&".join(f"{k}={v}" for k, v in query.items())
        return Answer(200, feed(entries[:limit], text), {"Content-Type": self.content_type})


def work(
    doi: str,
    title: str = "A Title",
    authors: list[tuple[str, str]] | None = None,
    container: str | None = "Journal of Examples",
    year: int | None = 2025,
    type: str = "journal-article",
    abstract: str | None = None,
) -> dict:
    """A Crossref work as the API gives it."""
    people = [("Ada", "Lovelace"), ("Alan", "Turing")] if authors is None else authors
    out: dict[str, Any] = {
        "DOI": doi,
        "URL": f"https://doi.org/{doi}",
        "type": type,
        "title": [title],
        "author": [{"given": g, "family": f, "sequence": "additional"} for g, f in people],
        "container-title": [container] if container else [],
        "publisher": "Example Press",
        "score": 1.0,
    }
    if year is not None:
        out["published"] = {"date-parts": [[year, 5, 1]]}
        out["issued"] = {"date-parts": [[year]]}
    if abstract is not None:
        out["abstract"] = f"<jats:title>Abstract</jats:title><jats:p>{abstract}</jats:p>"
    return out


class CrossrefServer(StandIn):
    content_type = "application/json"

    def __init__(self) -> None:
        super().__init__()
        self.works: dict[str, dict] = {}

    def add(self, *works: dict) -> None:
        for w in works:
            self.works[w["DOI"].casefold()] = w

    def serve(self, request: Request) -> Answer:
        path, query = request.path, request.query
        if path.startswith("/works/"):
            found = self.works.get(path[len("/works/") :].casefold())
            if found is None:
                return Answer(404, b"Resource not found.", {"Content-Type": "text/plain"})
            return json_answer(
                200,
                {
                    "status": "ok",
                    "message-type": "work",
                    "message-version": "1.0.0",
                    "message": found,
                },
            )
        if path == "/works":
            mine = set(_WORD_RE.findall(query.get("query.bibliographic", "").casefold()))
            scored = []
            for w in self.works.values():
                text = " ".join(w["title"] + [a["family"] for a in w["author"]])
                shared = len(mine & set(_WORD_RE.findall(text.casefold())))
                if shared:
                    scored.append((-shared, w["DOI"], w))
            rows = int(query.get("rows", 20))
            items = [w for _s, _d, w in sorted(scored)[:rows]]
            message = {"items": items, "total-results": len(scored), "items-per-page": rows}
            return json_answer(
                200,
                {
                    "status": "ok",
                    "message-type": "work-list",
                    "message-version": "1.0.0",
                    "message": message,
                },
            )
        return Answer(404, b"Resource not found.", {"Content-Type": "text/plain"})


@pytest.fixture
def arxiv_api():
    """A running :class:`ArxivServer`, empty and unscripted; closed after the test."""
    with ArxivServer() as server:
        yield server


@pytest.fixture
def crossref_api():
    """A running :class:`CrossrefServer`, empty and unscripted; closed after the test."""
    with CrossrefServer() as server:
        yield server
