"""The papers a draft cites, by the keys it cites them with (``export --cited-in``).

In: citations read from drafts (``parsers.citations``) and the open index. Out: each
paper with the key the draft cites it by, and the keys no paper has, each with the
closest keys that some paper has.

A key names a paper when it is the paper's citation key (what ``export`` writes), its id,
or the id or key of a paper merged into it (``papers merge``). Only exact keys count: a
draft that cites a key some other paper also starts with must not compile against it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..index.paper_index import PaperIndex

CLOSEST = 3  # (keys suggested for one unknown key)


@dataclass(frozen=True)
class Cited:
    rid: str
    key: str  # as the draft cites it: the entry is written under it


@dataclass(frozen=True)
class Unknown:
    key: str
    where: str  # file:line of its first citation
    closest: list[str]


def cited_papers(
    index: PaperIndex, citations: list[tuple[str, str]]
) -> tuple[list[Cited], list[Unknown], bool]:
    """*citations*: (key, where) pairs in the order cited. Returns the papers cited, the
    unknown keys, and whether a draft cites every record (``\\nocite{*}``)."""
    from whoosh import query

    every = any(key == "*" for key, _where in citations)
    found: list[Cited] = []
    unknown: list[Unknown] = []
    seen: set[str] = set()
    with index.searcher() as searcher:
        for key, where in citations:
            if key == "*" or key in seen:
                continue
            seen.add(key)
            rid = None
            for field, term in (("citekey", key), ("id", key), ("keys", f"i:{key}")):
                docs = list(searcher.docs_for_query(query.Term(field, term)))
                if docs:
                    rid = searcher.stored_fields(docs[0])["id"]
                    break
            if rid is None:
                unknown.append(Unknown(key, where, []))
            else:
                found.append(Cited(rid, key))
    if unknown:
        known = sorted(index.citekeys())  # (may hold removed papers' keys: checked below)
        with index.searcher() as searcher:
            unknown = [
                Unknown(
                    u.key,
                    u.where,
                    [k for k in _close(u.key, known) if index.has_citekey(k, searcher)],
                )
                for u in unknown
            ]
    return found, unknown, every


def _close(key: str, known: list[str]) -> list[str]:
    return difflib.get_close_matches(key, known, CLOSEST + 2, 0.6)[:CLOSEST]
