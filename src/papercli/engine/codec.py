"""How the index's segments are written: Whoosh's own format (``W3Codec``), with each
paper's stored fields kept uncompressed.

Whoosh deflates every document's stored fields. A listing reads them for every hit, and
inflating them was the largest single cost of a hit; uncompressed, the column is about
2.4× larger on disk, which the page cache holds.

A segment records the codec that wrote it (pickled in the index's table of contents, by
this module's name), so a reader always reads a segment the way it was written.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Callable

from whoosh import columns
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    W3Codec,
    W3PerDocReader,
    W3PerDocWriter,
    W3TermInfo,
    W3TermsReader,
    _lenfield,
)
from whoosh.filedb.structfile import StructFile
from whoosh.reading import TermNotFound
from whoosh.util.numeric import byte_to_length

STORED = columns.PickleColumn(columns.VarBytesColumn())
KEPT_ENTRIES = 4096  # terms' entries a reader keeps (see _TermsReader)


class PapersCodec(W3Codec):
    def per_document_writer(self, storage, segment):
        return _PerDocWriter(self, storage, segment)

    def per_document_reader(self, storage, segment):
        return _PerDocReader(storage, segment)

    def terms_reader(self, storage, segment):
        tiname = segment.make_filename(self.TERMS_EXT)
        tilen, tifile = storage.file_length(tiname), storage.open_file(tiname)
        return _TermsReader(self, tifile, tilen, segment.open_file(storage, self.POSTS_EXT))


class _PerDocWriter(W3PerDocWriter):
    def _create_column(self, fieldname, column):
        super()._create_column(fieldname, STORED if fieldname == "_stored" else column)


class _PerDocReader(W3PerDocReader):
    """Whoosh's reader of a segment's columns, with every column file opened at once.

    Whoosh opens a column file when it is first read. A writer's commit deletes the files
    of the generation it replaces, so a search that had opened its reader just before
    found them gone: "No such file or directory", or no stored records at all (a search
    failed during another process's ingest). An open file outlives its name: opened here,
    the segment is read whole as it was. A file gone already raises
    ``FileNotFoundError``, and Whoosh reads its table of contents again (``reader()``
    retries on ``IOError``), now naming the new generation."""

    def __init__(self, storage, segment) -> None:
        super().__init__(storage, segment)
        self._length_bytes: dict[str, bytes | None] = {}
        prefix, suffix = segment.make_filename("."), W3Codec.COLUMN_EXT
        names = [
            f[len(prefix) : -len(suffix)]
            for f in storage.list()
            if f.startswith(prefix) and f.endswith(suffix)
        ]
        if self._doccount and "_stored" not in names:  # (every paper stores its record)
            raise FileNotFoundError(f"{segment.make_filename('._stored' + suffix)} is gone")
        for fieldname in names:
            self._colfiles[fieldname] = self._get_column_file(fieldname)

    def has_column(self, fieldname):
        return fieldname in self._colfiles

    def field_lengths(self, fieldname) -> bytes | None:
        """The field's length byte of every document (None: no column), read in one piece
        (a column of one byte a document: typecode "B")."""
        if fieldname not in self._length_bytes:
            reader = self._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
            self._length_bytes[fieldname] = (
                None if reader is None else reader._dbfile.get(reader._basepos, reader._count)
            )
        return self._length_bytes[fieldname]

    def doc_field_length(self, docnum, fieldname, default=0):
        """``W3PerDocReader.doc_field_length`` from the field's lengths read in one piece:
        Whoosh read them a document at a time (a seek and a read each), for every posting
        it wrote when committing and every hit it scored."""
        lengths = self.field_lengths(fieldname)
        if lengths is None:
            return default
        if docnum > self._doccount:
            raise IndexError(f"Asked for docnum {docnum!r} of {self._doccount}")
        lbyte = lengths[docnum] if docnum < len(lengths) else 0
        return byte_to_length(lbyte) if lbyte else None  # (None, as Whoosh's own does)

    def stored_fields(self, docnum):
        return self._cached_reader("_stored", STORED)[docnum] or {}

    def _get_column_file(self, fieldname):
        """The stored fields' column read with ``pread``: a hit's fields are one system
        call, not a seek and a read. (A memory map was as fast, but the pages a listing
        touched counted in its resident memory: it grew with the number of hits.)"""
        colfile, offset, length = super()._get_column_file(fieldname)
        if fieldname != "_stored":
            return colfile, offset, length
        return _PRead(colfile), offset, length


class _TermsReader(W3TermsReader):
    """Whoosh's reader of a segment's terms, each term's entry looked up once.

    Whoosh looks a term up in the terms file's hash table (a few seeks and reads) each
    time it asks about it: whether the segment holds it, its document count for an AND's
    order, its entry for the postings, its document count again for the score's idf.
    Three or four lookups a term; a bridged query has dozens of terms (49 for 训练加速):
    178 probes of the table for 39 distinct ones in a whole search, now 39. Up to
    ``KEPT_ENTRIES`` are kept: a search asks about hundreds at most, while ``papers doctor``
    reads every term of the index and an ingest looks up each record's id it replaces."""

    def __init__(self, codec, dbfile, length, postfile) -> None:
        super().__init__(codec, dbfile, length, postfile)
        self._entries: dict[bytes, bytes | None] = {}

    def _entry(self, fieldname, tbytes) -> bytes | None:
        key = self._keycoder(fieldname, tbytes)
        try:
            return self._entries[key]
        except KeyError:
            entry = self._tindex.get(key)
            if len(self._entries) < KEPT_ENTRIES:
                self._entries[key] = entry
            return entry

    def __contains__(self, term):
        return self._entry(*term) is not None

    def term_info(self, fieldname, tbytes):
        entry = self._entry(fieldname, tbytes)
        if entry is None:
            raise TermNotFound(f"No term {fieldname}:{tbytes!r}")
        return W3TermInfo.from_bytes(entry)

    def frequency(self, fieldname, tbytes):
        return self._header(fieldname, tbytes)[1]

    def doc_frequency(self, fieldname, tbytes):
        return self._header(fieldname, tbytes)[2]

    def _header(self, fieldname, tbytes) -> tuple:
        entry = self._entry(fieldname, tbytes)
        if entry is None:
            raise KeyError((fieldname, tbytes))  # (as Whoosh's: the reader counts it 0)
        return W3TermInfo._struct.unpack_from(entry)


def stored_fields_reader(searcher) -> Callable[[int], dict]:
    """docnum -> that paper's stored fields, read from its segment's column directly.

    Whoosh's own way (searcher, then the reader of all segments, then the segment's) also
    copies the fields through a check of each name against the schema, for fields removed
    from it (ours never are: a schema change rebuilds the index), a third of a hit's
    cost. An index with segments of another codec is read Whoosh's way."""
    leaves = searcher.reader().leaf_readers()
    perdocs = [getattr(reader, "_perdoc", None) for reader, _offset in leaves]
    if not all(isinstance(perdoc, _PerDocReader) for perdoc in perdocs):
        return searcher.stored_fields
    offsets = [offset for _reader, offset in leaves]

    def read(docnum: int) -> dict:
        i = bisect_right(offsets, docnum) - 1
        return perdocs[i].stored_fields(docnum - offsets[i])

    return read


class _PRead(StructFile):
    """A ``StructFile`` whose ``get`` is one ``os.pread``."""

    def __init__(self, colfile: StructFile) -> None:
        super().__init__(colfile.file)
        self._fd = colfile.fileno()

    def get(self, position, length):
        return os.pread(self._fd, length, position)


def lengths_reader(segment_reader, fieldname: str) -> bytes | None:
    """The length byte of *fieldname* for every document of one segment, as our codec
    holds it; None where the segment is of another codec or has no such column."""
    perdoc = getattr(segment_reader, "_perdoc", None)
    return perdoc.field_lengths(fieldname) if isinstance(perdoc, _PerDocReader) else None
