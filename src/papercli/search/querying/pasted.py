"""What a pasted text names whole, whatever the query language would make of its words: a
paper's id, one of its links, its title, or the titles a reference holds.

In: the text of a search and the open index. Out: Whoosh queries over the ``id`` and
``keys`` fields (the keys the merge rule recognises a paper by: ``store.merge``), for
``query.search_stream`` to list first, or when nothing else matched.

A title is compared the way the library compares two spellings of it: up to case, spacing,
punctuation and dash style (``Attention Is NOT All You Need`` and ``year: A Benchmark…``
are titles, not operators and fields). A reference copied from a bibliography holds a
title among its authors, venue and year; no paper holds those words, so the query finds
nothing, and the titles the text holds whole are its papers.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..index.paper_index import PaperIndex

# A title a reference is searched for holds at least this many letters and digits: "Muon"
# or "Adam" inside "muon adam zzqq" is a word of the query, not a title.
CITED_TITLE_MIN = 16
MAX_TITLE_WORDS = 40  # (the longest of the 10,063 titles measured: 15 words)
MAX_REFERENCE_WORDS = 200  # (a few references pasted at once; a whole page is no reference)
_WORD_RE = re.compile(r"[^\W_]+|∇")  # (the words of a title key: see text.fold_key)


def pasted_id(index: PaperIndex, text: str) -> str | None:
    """The id in *text* when *text* is a paper's id and nothing else."""
    from whoosh import query

    from ...store.record import ID_RE

    word = text.strip()
    if not ID_RE.fullmatch(word) or not index.library.exists(word):
        return None  # (a stat: most one-word queries look like ids; a searcher took ~3 ms)
    return word if index.run(query.Term("id", word), limit=1) else None


def named_paper(index: PaperIndex, text: str):
    """A query for the paper *text* names whole (its id, a link, its title), or None."""
    from whoosh import query

    from ...store.links import link_key
    from ...store.merge import title_key
    from ...text import strip_controls

    if rid := pasted_id(index, text):
        return query.Term("id", rid)
    if link := link_key(text):
        return query.Term("keys", link)
    if any(word[:1] == "-" and word[1:2].isalnum() for word in text.split()):
        return None  # (-muon excludes: a paper titled "Muon" is not first)
    key = title_key(strip_controls(text))  # (a title pasted with its colours: the title)
    return query.Term("keys", key) if key else None


def cited_titles(index: PaperIndex, text: str):
    """A query for the papers whose whole title *text* holds, word for word (a reference
    pasted with its authors, venue and year), or None. Each run of the text's words is
    looked up as a title key, longest first: the cost grows with the reference, not with
    the library (reading every title key would)."""
    from whoosh import query

    words = _WORD_RE.findall(_reading(text))[:MAX_REFERENCE_WORDS]
    keys = []
    with index.searcher() as searcher:
        reader = searcher.reader()
        i = 0
        while i < len(words):
            found = None
            for j in range(min(len(words), i + MAX_TITLE_WORDS), i, -1):  # (longest first)
                key = "p:" + "".join(words[i:j])
                if len(key) - 2 < CITED_TITLE_MIN:
                    break
                if ("keys", key) in reader:
                    found = j
                    keys.append(key)
                    break
            i = found or i + 1
    return query.Or([query.Term("keys", k) for k in keys]) if keys else None


def _reading(text: str) -> str:
    """*text* as titles are compared: its plain reading, NFKC, case-folded (an escape
    sequence pasted with it is a space, as it was when the title was indexed)."""
    import unicodedata

    from ...text import strip_controls
    from ...text.latex import latex_to_text

    return unicodedata.normalize("NFKC", latex_to_text(strip_controls(text))).casefold()
