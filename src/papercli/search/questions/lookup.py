"""One paper by what a user gives for it: its id, its citation key (or a merged paper's
id or key), one of its links,
its title pasted, its short name, or a unique part of its id.

In: the text given and the open index. Out: the paper's hit, or a ``UsageError``: one
line when nothing fits, the candidates when several do.
"""

from __future__ import annotations

from ...errors import UsageError
from ...store.links import link_key
from ..index.paper_index import PaperIndex
from ..results.hits import Hit


def get_paper(index: PaperIndex, rid: str) -> Hit:
    """One paper by id, by its citation key (what a LaTeX document cites it as: ``papers
    show hiso2026``), by one of its links (an arXiv id, a DOI, its OpenReview forum), by
    its title pasted (alone, or inside a reference), by its short name in any case
    (``Scaf-GRPO``), or by a unique prefix or suffix of its id, with or without the
    venue (``scaf``: iclr2026-scaf-grpo). Several papers fitting is a ``UsageError``
    that lists them."""
    from whoosh import query

    from ...store.merge import title_key
    from ..querying.pasted import cited_titles

    rid = rid.strip()
    hits = index.run(query.Term("id", rid), limit=1)
    if hits:
        return hits[0]
    if not rid:
        raise UsageError("no paper with an empty id")
    hits = index.run(query.Term("citekey", rid), limit=2)
    if len(hits) == 1:  # (keys are unique in a library; two would be a damaged one)
        return hits[0]
    if merged := index.run(query.Term("keys", f"i:{rid}"), limit=2):
        return merged[0]  # (the id or key of a paper merged into this one: papers merge)
    link = link_key(rid)
    if link:
        return _one(rid, index.run(query.Term("keys", link), limit=SHOWN + 1), "link")
    key = title_key(rid)  # (its title, pasted)
    if titled := index.run(query.Term("keys", key), limit=SHOWN + 1) if key else []:
        return _one(rid, titled, "title")  # (the same title in two years, two venues)
    named = _short_named(index, rid)
    if named:
        return _one(rid, [index.get(i) for i in named], "short name")
    # (the list of terms keeps a removed paper's id until its segment is merged)
    if fitting := [h for h in map(index.get, _id_parts(index, rid)) if h is not None]:
        return _one(rid, fitting, "part of an id")
    cited = cited_titles(index, rid)
    if cited is not None and (hits := index.run(cited, limit=SHOWN + 1)):
        return _one(rid, hits, "title")
    raise UsageError(f"no paper with id, short name, citation key, link or title {rid!r}")


SHOWN = 8  # (the candidates listed when several papers fit)
LINE_CELLS = 76  # (each on one line of an 80-column terminal, after its indent)


def _one(rid: str, hits: list[Hit], what: str) -> Hit:
    """The one paper of *hits*, or the error listing them (each with its title)."""
    if len(hits) == 1:
        return hits[0]
    from ...text import fit_cells, strip_controls

    lines = [
        fit_cells(f"{h.id}  {strip_controls(h.record.label)}", LINE_CELLS) for h in hits[:SHOWN]
    ]
    more = ["…"] if len(hits) > SHOWN else []
    listed = "\n  ".join([*lines, *more])
    raise UsageError(f"{rid!r} fits several papers ({what}); give the id:\n  {listed}")


def _id_parts(index: PaperIndex, rid: str) -> list[str]:
    """The ids that *rid* begins or ends (any case), or whose part after the venue and
    year it begins: ``scaf`` and ``grpo`` for iclr2026-scaf-grpo."""
    typed = rid.casefold()
    if not typed or any(c.isspace() for c in typed):
        return []
    with index.searcher() as searcher:
        reader = searcher.reader()
        ids = list(reader.field_terms("id"))
        merged = [
            k.decode("utf-8")[2:] for k in reader.expand_prefix("keys", "i:")
        ]  # (papers merge)
    fitting = sorted(
        i
        for i in [*ids, *merged]
        if i.startswith(typed) or i.endswith(typed) or i.partition("-")[2].startswith(typed)
    )
    found = [_merged_into(index, i) if i in merged else i for i in fitting]
    return list(dict.fromkeys(i for i in found if i))[: SHOWN + 1]


def _merged_into(index: PaperIndex, alias: str) -> str | None:
    from whoosh import query

    hits = index.run(query.Term("keys", f"i:{alias}"), limit=1)
    return hits[0].id if hits else None


def _short_named(index: PaperIndex, name: str) -> list[str]:
    """The ids of the papers whose short name is *name* (any case)."""
    from whoosh import query

    words = [t.text for t in index.ix.schema["name"].analyzer(name)]
    if not words or len(name) > 60:
        return []
    hits = index.run(query.And([query.Term("name", w) for w in words]), limit=SHOWN + 1)
    return [h.id for h in hits if (h.data.get("short_name") or "").casefold() == name.casefold()]
