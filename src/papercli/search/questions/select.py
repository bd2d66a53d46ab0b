"""The papers an export writes: their ids, as ``search`` lists them for the same query
(within the filters, with the ids given), then their records, read one at a time.

In: a query, filters, ids, and the open index. Out: the ids, sorted (``select``), and the
records (``RecordStream``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import UsageError
from ...store.record import Record
from ..index.paper_index import PaperIndex
from ..querying.parse import TagResolver, parse_query
from ..querying.pasted import cited_titles, named_paper
from .filters import Filters, filter_query
from .lookup import get_paper
from .search import in_passing


def select(
    index: PaperIndex,
    text: str | None,
    filters: Filters,
    ids: Iterable[str] = (),
    resolve_tag: TagResolver | None = None,
    passing: bool = True,
) -> list[str]:
    """Ids of the papers to export, ordered by id: by query and/or filters, plus explicit
    ids: what ``search`` lists for the same query (without *passing*, not the papers that
    name its concepts only in passing). Only ids are collected; records are read while they
    are written out."""
    from whoosh import query

    chosen = {get_paper(index, rid).id for rid in ids}
    if text:  # (what search lists: the paper the text names, the query's, or a reference's)
        extra = filter_query(filters)

        def found(node) -> list[str]:
            return index.ids(node if extra is None else query.And([node, extra]))

        named = named_paper(index, text)
        bridges: dict[str, str] = {}
        try:
            q = parse_query(index, text, resolve_tag, bridges=bridges)
            matched, error = found(q), None
            if not passing and (aside := in_passing(bridges)) is not None:
                matched = sorted(set(matched) - set(index.ids(aside)))
        except UsageError as exc:  # (a title the query language cannot read: named, or not)
            matched, error = [], exc
        matched += found(named) if named is not None else []
        if not matched and (cited := cited_titles(index, text)) is not None:
            matched = found(cited)
        if not matched:  # (as search lists them: the papers holding it as plain text)
            from ..results.literal_scan import plain_matches

            matched = [hit.id for hit in plain_matches(index, text, extra)]
        if not matched and error is not None:
            raise error
        chosen.update(matched)
    elif filters.tags or filters.venue or filters.year or not chosen:
        chosen.update(index.ids(filter_query(filters) or query.Every()))
    return sorted(chosen)


class RecordStream:
    """Records by id, read from the index one at a time each time it is iterated: an
    export of the whole library never holds every record in memory."""

    def __init__(self, index: PaperIndex, ids: list[str], keys: list | None = None) -> None:
        self.index = index
        self.ids = ids
        self.keys = keys  # (parallel to *ids*: the key to write each under; None: its own)

    def __len__(self) -> int:
        return len(self.ids)

    def __iter__(self):
        with self.index.searcher() as searcher:
            for n, rid in enumerate(self.ids):
                fields = searcher.document(id=rid)
                if fields:
                    record = Record.from_dict(fields["data"], rid)
                    if self.keys and self.keys[n]:  # (as a draft cites it: it compiles)
                        record.citekey = self.keys[n]
                    yield record
