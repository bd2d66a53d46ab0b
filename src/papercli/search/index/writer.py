"""Writing to the index: one Whoosh writer per batch of changes, committed together with
the state that describes it.

In: records just saved (with their files' stamps), and ids removed. Out: the index, its
``stamps.json`` and ``state.json``, and the spelling vocabulary, all in step.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from ...progress import Progress, quiet
from ...store.files import Stamp, atomic_write
from ...store.record import Record
from . import state
from .schema import SCHEMA_VERSION, document, record_document
from .vocabulary import FILE as VOCABULARY_FILE
from .vocabulary import Vocabulary, words_of

if TYPE_CHECKING:
    from .folder import IndexFolder

PARALLEL_FROM = 1000  # records in one write before a second indexing process pays off
POOL_MB = 32  # the posting pool of each indexing process (MB; see pool.CompactPool)


class Writer:
    """Changes to the index within ``open_writer``; keeps the stamp list and the
    vocabulary (see ``vocabulary``) in step."""

    def __init__(self, index: IndexFolder, whoosh_writer, stamps: dict, clear: bool) -> None:
        self.index = index
        self.whoosh = whoosh_writer
        self.stamps = stamps
        self.papers_dir: list[int] | None = None  # papers/'s stamp to record (None: keep)
        self.vocabulary = Vocabulary() if clear else None  # loaded at the first change
        self._searcher = None  # reads the versions being replaced

    def upsert(
        self, record: Record, stamp: Stamp, known_new: bool = False, data: dict | None = None
    ) -> None:
        """Index *record* (replacing its old version unless *known_new*: then it is added
        without a lookup). *data*: ``record.to_dict()``, when the caller has it already."""
        name = f"{record.id}.yaml"
        self.stamps[name] = stamp.as_list()
        self.index.invalid.pop(name, None)
        old = Counter() if known_new else self._old_words(record.id)
        self._count(old, words_of(record))
        add_record = getattr(self.whoosh, "add_record", None)
        if add_record is not None:  # (an indexing process makes the document)
            data = record.to_dict() if data is None else data
            add_record(record.id, data, stamp.as_list(), replace=not known_new)
            return
        fields = document(record, stamp, data, *self.index.concepts(record))
        if known_new:
            self.whoosh.add_document(**fields)
        else:
            self.whoosh.update_document(**fields)

    def delete(self, rid: str) -> None:
        self.stamps.pop(f"{rid}.yaml", None)
        self._count(self._old_words(rid), Counter())
        self.whoosh.delete_by_term("id", rid)

    def _old_words(self, rid: str) -> Counter:
        if self._searcher is None:
            self._searcher = self.index.ix.searcher()
        fields = self._searcher.document(id=rid)
        if not fields:
            return Counter()
        return words_of(Record.from_dict(fields["data"], rid))

    def _count(self, old: Counter, new: Counter) -> None:
        if old == new:
            return
        if self.vocabulary is None:
            self.vocabulary = Vocabulary.load(self.index.dir)
        self.vocabulary.remove(old)
        self.vocabulary.add(new)

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
            self._searcher = None


@contextlib.contextmanager
def open_writer(
    index: IndexFolder,
    expected: int,
    papers_dir=None,
    clear: bool = False,
    progress: Progress = quiet,
) -> Iterator[Writer]:
    """One Whoosh writer for a batch of changes, committed (with the stamps and state that
    describe it) when the block ends, cancelled if it fails. Records can be added while
    they are produced: an ingest indexes each record as soon as it is saved.

    *expected* (the number of upserts) chooses the writer: from ``PARALLEL_FROM`` on,
    Whoosh's multiprocess writer (one more process, one segment each).

    *clear* starts the index afresh, yet the old one stays whole and searchable until the
    new one commits (Whoosh drops every old segment in that same commit): an interrupted
    rebuild leaves the index as it was, not empty."""
    from ...engine.storage import discard_leftovers

    stamps = {} if clear else state.read(index.dir, "stamps.json")
    state.begin_write(index.dir)  # (ended once the state below describes the index)
    discard_leftovers(index.dir)  # (a dead writer's: the library's lock is held)
    whoosh_writer = _whoosh_writer(index, expected)
    writer = Writer(index, whoosh_writer, stamps, clear)
    writer.papers_dir = papers_dir
    try:
        yield writer
        writer.close()
        from whoosh.writing import CLEAR

        with progress(None, "writing the index"):  # (a long step at 10,000 papers or more)
            whoosh_writer.commit(mergetype=CLEAR if clear else None)
    except BaseException:
        writer.close()
        with contextlib.suppress(Exception):  # (after a failed commit there is nothing to cancel)
            whoosh_writer.cancel()
        discard_partial(index)
        state.end_write(index.dir)  # (what it began is undone: only a kill leaves the mark)
        raise
    if writer.vocabulary is not None:
        atomic_write(index.dir / VOCABULARY_FILE, writer.vocabulary.to_json())
    if clear:  # (what a query matches the glossary with, from the glossary just indexed)
        index.glossary().save(index.dir)
    state.write(index.dir, "stamps.json", stamps)
    saved = {} if clear else state.read(index.dir, "state.json")
    if writer.papers_dir is not None:
        saved["papers_dir"] = writer.papers_dir
    index.saved_categories = None  # (read from the index just committed)
    index.saved_categories = sorted(index.categories())  # (what a query names: querying.rewrite)
    saved.update(
        version=SCHEMA_VERSION,
        invalid=index.invalid,
        files=state.files(index.dir),
        glossary=index.glossary_files.fingerprint(),
        categories=index.saved_categories,
    )
    state.write(index.dir, "state.json", saved)
    state.end_write(index.dir)


def _whoosh_writer(index: IndexFolder, expected: int):
    """Whoosh's own writer, or from ``PARALLEL_FROM`` upserts on (and with two cores), the
    two-process one."""
    from ...engine.codec import PapersCodec
    from ...engine.pool import install

    if expected >= PARALLEL_FROM and (os.cpu_count() or 1) > 1:
        from ...engine.parallel import ParallelWriter

        # limitmb: the postings each process holds (``pool.CompactPool``) before it writes
        # a run to disk: POOL_MB keeps the memory of a 100k ingest bounded, and writing and
        # merging runs costs little.
        return ParallelWriter(
            index.ix,
            procs=2,
            multisegment=True,
            limitmb=POOL_MB,
            compound=False,
            codec=PapersCodec(),
            make_document=partial(record_document, index.glossary()),
        )
    writer = index.ix.writer(timeout=30.0, limitmb=POOL_MB, compound=False, codec=PapersCodec())
    return install(writer, POOL_MB)


def discard_partial(index: IndexFolder) -> None:
    """Remove what a cancelled or failed write left in the index folder (see
    ``storage.leftovers``): on a full disk it would keep the space the next attempt needs."""
    from ...engine.storage import discard_leftovers

    with contextlib.suppress(OSError):
        discard_leftovers(index.dir, own=True)
