"""One paper by what a user gives for it: its id (or a unique prefix of it), its citation
key, one of its links, or its title, pasted.

In: the text given and the open index. Out: the paper's hit, or a one-line ``UsageError``
(naming the papers whose short name it is, when it is one).
"""

from __future__ import annotations

from ...errors import UsageError
from ...store.links import link_key
from ..index.paper_index import PaperIndex
from ..results.hits import Hit


def get_paper(index: PaperIndex, rid: str) -> Hit:
    """One paper by id (exact, or a unique prefix), by its citation key (what a LaTeX
    document cites it as: ``papers show hiso2026``), by one of its links (an arXiv id,
    a DOI, its OpenReview forum) or by its title, pasted."""
    from whoosh import query

    from ...store.merge import title_key

    rid = rid.strip()
    hits = index.run(query.Term("id", rid), limit=1)
    if hits:
        return hits[0]
    if rid:
        hits = index.run(query.Term("citekey", rid), limit=2)
        if len(hits) == 1:  # (keys are unique in a library; two would be a damaged one)
            return hits[0]
        link = link_key(rid)
        hits = index.run(query.Term("keys", link), limit=2) if link else []
        if len(hits) == 1:
            return hits[0]
        key = None if link else title_key(rid)  # (its title, pasted)
        titled = index.run(query.Term("keys", key), limit=3) if key else []
        if len(titled) == 1:
            return titled[0]
        if titled:  # (the same title in two years, two venues)
            ids = ", ".join(h.id for h in titled)
            raise UsageError(f"{rid!r} is the title of several papers ({ids}); give the id")
        hits = index.run(query.Prefix("id", rid), limit=3)
        if len(hits) == 1:
            return hits[0]
        if hits:
            ids = ", ".join(h.id for h in hits[:2])
            raise UsageError(f"{rid!r} matches several papers ({ids}, …); give more of the id")
    named = _short_named(index, rid)
    hint = f"; {rid} is the short name of {', '.join(named)}" if named else ""
    raise UsageError(f"no paper with id, citation key, link or title {rid!r}{hint}")


def _short_named(index: PaperIndex, name: str) -> list[str]:
    """The ids of the papers whose short name is *name* (any case), for the message when
    it was given as an id (``papers show HiSo``): a short name may be shared, an id not."""
    from whoosh import query

    words = [t.text for t in index.ix.schema["name"].analyzer(name)]
    if not words or len(name) > 60:
        return []
    hits = index.run(query.And([query.Term("name", w) for w in words]), limit=4)
    return [h.id for h in hits if (h.data.get("short_name") or "").casefold() == name.casefold()]
