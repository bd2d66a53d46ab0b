"""The papers whose text holds a query's words as plain text, as ``grep -i`` reads it.

In: the query as typed, and the index's stored records. Out: the hits (best: most
occurrences) whose text holds every word, each with a snippet marking the first one.

The search asks this only when the index finds nothing: "no paper" is said only when a
literal, case-folded scan of the records agrees. It finds what the index's words cannot:
a piece of a word (``Muo``), a tag's word inside it (``training`` of distributed-training).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...text import STOP_WORDS
from ..querying.syntax import ASKING_WORDS, OPERATORS
from .hits import Hit, hit_from

_TOKEN_RE = re.compile(r'"([^"]*)"|(\S+)')
_FIELD_RE = re.compile(r"^[A-Za-z_]+:")
_EDGE = "?!&,;.:'`^[]{}<>=|/\\+%*~()“”‘’（），。、；：！？"
_CELLS = 60  # characters shown on each side of the first word


def plain_words(text: str) -> tuple[list[str], list[str]]:
    """The words a literal scan looks for, and those it excludes (``-word``), case-folded:
    a quoted phrase whole; field names, operators, wildcards and the words the query
    language leaves out (of, what) left out; ``year:`` ranges are no text."""
    from ...text.variants import normalize
    from ...venues import known_venue

    wanted, unwanted = [], []
    for m in _TOKEN_RE.finditer(text):
        word = m[1] if m[1] is not None else m[2]
        if m[2] is not None:
            if word in OPERATORS or word.lower().startswith("year:"):
                continue
            out = unwanted if word.startswith("-") and len(word) > 1 else wanted
            venue = word.lstrip("+-")[:6].lower() == "venue:"
            word = _FIELD_RE.sub("", word.lstrip("+-")).strip(_EDGE)
            word = (known_venue(word) or word) if venue else word  # (NIPS: NeurIPS)
        else:
            out = wanted
        word = normalize(word).casefold().strip()
        if word and word not in STOP_WORDS and word not in ASKING_WORDS:
            out.append(word)
    return list(dict.fromkeys(wanted)), unwanted


def record_text(data: dict) -> str:
    """A record's words as one case-folded text: what a literal scan reads."""
    from ...text.variants import normalize

    parts = [
        data.get("title"),
        data.get("short_name"),
        data.get("abstract"),
        data.get("summary_zh"),
        data.get("venue"),
        *(data.get("authors") or ()),
        *(data.get("keywords") or ()),
        *(data.get("tags") or ()),
        *(data.get("categories") or ()),
    ]
    return normalize("\n".join(p for p in parts if isinstance(p, str))).casefold()


def plain_matches(index, text: str, allowed=None) -> Iterator[Hit]:
    """The hits whose records hold every word of *text* as plain text and none it
    excludes, most occurrences first (then by id); only the docnums *allowed* (a query of
    the filters, or None)."""
    from ...engine.codec import stored_fields_reader
    from .marking import MARK_END, MARK_START

    wanted, unwanted = plain_words(text)
    if not wanted:
        return iter(())
    found = []
    with index.searcher() as searcher:
        stored = stored_fields_reader(searcher)
        reader = searcher.reader()
        docs = searcher.docs_for_query(allowed) if allowed is not None else reader.all_doc_ids()
        for docnum in docs:
            fields = stored(docnum)
            body = record_text(fields["data"])
            if all(w in body for w in wanted) and not any(w in body for w in unwanted):
                count = sum(body.count(w) for w in wanted)
                found.append((-count, fields["id"], fields))
    found.sort(key=lambda item: item[:2])
    hits = []
    for _count, _rid, fields in found:
        hit = hit_from(fields)
        body = "\n".join(
            t for t in (hit.text("abstract"), hit.text("summary_zh"), hit.text("title")) if t
        )
        at = body.casefold().find(wanted[0])
        if at >= 0:
            start, end = max(0, at - _CELLS), at + len(wanted[0])
            hit.snippet = (
                ("…" if start else "")
                + body[start:at]
                + MARK_START
                + body[at:end]
                + MARK_END
                + body[end : end + _CELLS]
            ).replace("\n", " ")
        hits.append(hit)
    return iter(hits)
