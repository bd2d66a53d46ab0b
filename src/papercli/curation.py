"""Removing papers and merging two records of one paper: ``papers remove``, ``papers merge``.

In: paper ids (already resolved from what the user typed), the library. Out: the records
changed, written in one transaction under the write lock, and the index updated with them.
A removed paper's document copies go with it when no other paper cites them (``doctor``
would otherwise report them as orphans); a merged paper's copies stay, cited by the
record it was merged into.
"""

from __future__ import annotations

from .errors import UsageError
from .store.library import Library
from .store.record import Record
from .tags.taxonomy import Taxonomy


def remove_papers(library: Library, ids: list[str]) -> tuple[list[Record], list[str]]:
    """Remove the records of *ids*, all or none. Returns them and the document copies
    removed with them (those no remaining paper cites)."""
    from .search.index.paper_index import PaperIndex

    with library.lock():
        index = PaperIndex(library).open()
        records = [_load(library, rid) for rid in dict.fromkeys(ids)]
        gone = {r.id for r in records}
        copies = sorted(
            {s.document for r in records for s in r.sources if not s.remote}
            - _still_cited(index, library, records, gone)
        )
        with library.transaction() as txn:
            for record in records:
                txn.remove(record.id)
            for copy in copies:
                if (library.root / copy).is_file():
                    txn.remove_source(copy)
        index.write([], removed=sorted(gone))
    return records, copies


def merge_papers(library: Library, keep_id: str, gone_id: str, taxonomy: Taxonomy) -> Record:
    """Fold the record *gone_id* into *keep_id* by the merge rule (empty fields filled,
    each disagreement kept as a conflict, sources, links and tag edits united) and remove
    it; its id and citation key become aliases of the record kept. Returns that record."""
    from .search.index.paper_index import PaperIndex
    from .store.merge import merge_record
    from .tags.tagging import apply_tags, auto_tags

    if keep_id == gone_id:
        raise UsageError(f"{keep_id} is one paper: give two different papers to merge")
    with library.lock():
        index = PaperIndex(library).open()
        keep, gone = _load(library, keep_id), _load(library, gone_id)
        merge_record(keep, gone)
        for name in ("venue", "year"):  # (the merge rule keeps the first; the other is noted)
            mine, its = getattr(keep, name), getattr(gone, name)
            if mine is not None and its is not None and mine != its:
                keep.add_conflict({"field": name, "value": its, "source": f"record {gone.id}"})
        if keep.citekey is None:
            keep.citekey, gone.citekey = gone.citekey, None
        names = [gone.id, gone.citekey, *gone.aliases]
        taken = {keep.id, keep.citekey}
        keep.aliases = list(
            dict.fromkeys(a for a in [*keep.aliases, *names] if a and a not in taken)
        )
        apply_tags(keep, auto_tags(keep, taxonomy))
        with library.transaction() as txn:
            txn.save(keep)
            txn.remove(gone.id)
        index.write([keep], removed=[gone.id])
    return keep


def _load(library: Library, rid: str) -> Record:
    if not library.exists(rid):  # (removed or merged by another command meanwhile)
        raise UsageError(f"no paper with id {rid!r}")
    return library.load(rid)


def _still_cited(index, library: Library, records: list[Record], gone: set[str]) -> set[str]:
    """The document copies of *records* that a paper not in *gone* also cites: the index
    names the papers that came from a file of the same name, and only those are read."""
    from whoosh import query

    names = {s.name for r in records for s in r.sources if not s.remote}
    terms = [query.Term("facets", f"source:{n.replace(',', ' ')}") for n in sorted(names)]
    if not terms:
        return set()
    others = [rid for rid in index.ids(query.Or(terms)) if rid not in gone]
    return {s.document for rid in others if library.exists(rid) for s in library.load(rid).sources}
