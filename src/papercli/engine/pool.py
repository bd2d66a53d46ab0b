"""Whoosh's posting pool, held compactly: the postings an indexing process collects before
it writes its segment.

Whoosh's ``PostingPool`` keeps each posting as a tuple ``(field, term, docnum, weight,
value)``, ~230 bytes in memory. Past ``limitmb`` it sorts what it holds and spills it to a
temporary file, one ``pickle.dump`` a posting; once anything has spilled, every posting is
written, read back one ``pickle.load`` at a time and merged through a heap of tuples: a
pool that spills indexes about 1.5 times slower than one that does not.

Here the postings of each term are appended to one ``bytearray`` (docnum, weight, the
value's length, the value: 16 bytes plus the value), under that term in a dict per field.
A posting is then ~30 bytes, so a 10,000-paper ingest never spills; documents arrive in
docnum order, so each term's postings are already in the order the segment needs and
only the terms are sorted. Past the limit a run is written a term at a time (``marshal``);
the runs are merged term by term, and a term's postings are joined in run order.

The pool is Whoosh's interface: ``add``, ``iter_postings``, ``fieldnames``, ``cleanup``.
"""

from __future__ import annotations

import contextlib
import heapq
import marshal
import os
import struct
from collections.abc import Iterator

_HEAD = struct.Struct("<Idi")  # docnum, weight, the value's length (-1: no value)
TERM_COST = 120  # bytes a new term costs beyond its postings (dict slot, bytearray header)
# Bytes of postings a run holds per marshal record: what merging holds of each run at a
# time, so that merging many runs holds little (chunks of a fixed number of terms did not).
CHUNK = 256 << 10


class CompactPool:
    """A posting pool for one segment writer (see the module's text)."""

    def __init__(self, tempstore, limitmb: float = 64) -> None:
        self.tempstore = tempstore
        self.limit = int(limitmb * 1024 * 1024)
        self.size = 0
        self.fieldnames: set[str] = set()
        self._fields: dict[str, dict[bytes, bytearray]] = {}
        self._top = -1  # the highest docnum added
        self._ordered = True  # every term's postings arrived in docnum order
        self.runs: list[str] = []
        self._token = os.urandom(4).hex()  # names this pool's runs (see storage.py)
        self.written = 0  # runs written in all (what a benchmark or a test asks)

    def add(self, item) -> None:
        fieldname, tbytes, docnum, weight, vbytes = item
        terms = self._fields.get(fieldname)
        if terms is None:
            terms = self._fields[fieldname] = {}
            self.fieldnames.add(fieldname)
        buf = terms.get(tbytes)
        if buf is None:
            buf = terms[tbytes] = bytearray()
            self.size += TERM_COST + len(tbytes)
        if docnum < self._top:
            self._ordered = False  # (postings merged from another segment, say)
        else:
            self._top = docnum
        if vbytes is None:
            buf += _HEAD.pack(docnum, weight, -1)
            self.size += 16
        else:
            buf += _HEAD.pack(docnum, weight, len(vbytes))
            buf += vbytes
            self.size += 16 + len(vbytes)
        if self.size > self.limit:
            self._spill()

    def _sorted_terms(self) -> Iterator[tuple[str, bytes, bytes]]:
        for fieldname in sorted(self._fields):
            terms = self._fields[fieldname]
            for tbytes in sorted(terms):
                yield fieldname, tbytes, terms[tbytes]

    def _spill(self) -> None:
        """Write what the pool holds as a run of sorted terms, and start afresh."""
        name = f"{self._token}.{len(self.runs)}.postings"
        f = self.tempstore.create_file(name)
        try:
            chunk, size = [], 0
            for entry in self._sorted_terms():
                chunk.append(entry)
                size += len(entry[2])
                if size >= CHUNK:
                    f.write(marshal.dumps(chunk))
                    chunk, size = [], 0
            if chunk:
                f.write(marshal.dumps(chunk))
        finally:
            f.close()
        self.runs.append(name)
        self.written += 1
        self._fields = {}
        self.size = 0

    def _read_run(self, name: str) -> Iterator[tuple[str, bytes, bytes]]:
        with self.tempstore.open_file(name).raw_file() as f:
            while True:
                try:
                    chunk = marshal.load(f)
                except EOFError:
                    return
                yield from chunk

    def iter_postings(self) -> Iterator[tuple[str, bytes, int, float, bytes | None]]:
        """Every posting, sorted by field, term and docnum, as Whoosh's pool yields them."""
        if not self.runs:
            terms = self._sorted_terms()
        else:
            # What the pool holds goes to a run too, so that merging holds only a chunk of
            # each run, not also up to the pool's limit (as Whoosh's pool does). Each run
            # yields (field, term, buffer) in term order; the runs were written in docnum
            # order. Tagged with the run's rank, equal terms come out in that order.
            if self._fields:
                self._spill()
            sources = [self._read_run(name) for name in self.runs]
            terms = _joined(heapq.merge(*map(_ranked, range(len(sources)), sources)))
        for fieldname, tbytes, buf in terms:
            postings = _decoded(buf)
            if not self._ordered:
                postings = sorted(postings, key=lambda p: p[0])  # (stable: as added)
            for docnum, weight, vbytes in postings:
                yield fieldname, tbytes, docnum, weight, vbytes

    def cleanup(self) -> None:
        for name in self.runs:
            with contextlib.suppress(OSError):
                self.tempstore.delete_file(name)
        self.runs = []


def _ranked(rank: int, source) -> Iterator[tuple[str, bytes, int, bytes]]:
    return ((fieldname, tbytes, rank, buf) for fieldname, tbytes, buf in source)


def _joined(merged) -> Iterator[tuple[str, bytes, bytes]]:
    """(field, term, buffer) once per term: the buffers of one term from several runs joined
    in run order."""
    current = None
    parts: list = []
    for fieldname, tbytes, _rank, buf in merged:
        if (fieldname, tbytes) != current:
            if current is not None:
                yield (*current, b"".join(parts))
            current, parts = (fieldname, tbytes), []
        parts.append(buf)
    if current is not None:
        yield (*current, b"".join(parts))


def _decoded(buf) -> Iterator[tuple[int, float, bytes | None]]:
    unpack, pos, end = _HEAD.unpack_from, 0, len(buf)
    view = bytes(buf)
    while pos < end:
        docnum, weight, length = unpack(view, pos)
        pos += 16
        if length < 0:
            yield docnum, weight, None
        else:
            yield docnum, weight, view[pos : pos + length]
            pos += length


def install(writer, limitmb: float):
    """Give a Whoosh ``SegmentWriter`` that has not yet added anything a compact pool."""
    if not isinstance(writer.pool, CompactPool):
        writer.pool = CompactPool(writer.temp_storage(), limitmb)
    return writer
