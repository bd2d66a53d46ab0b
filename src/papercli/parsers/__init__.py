"""Document formats: decode the bytes, recognise the format from content, parse it.

In: a file's bytes (UTF-8, UTF-16, GB18030). Out: a ``Document``: its header facts, one
``Entry`` per paper it lists (with its line), and warnings with lines; or a
``DocumentError`` saying why the file cannot be used.

Each format is one module with ``NAME``, ``DESCRIPTION`` (named in the refusal),
``sniff(lines) -> bool`` and ``parse(lines) -> Document``. Adding a format means adding a
module to ``FORMATS`` and its example to docs/formats.md.
The file name never decides the format.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import DocumentError
from . import abstracts, bibtex, digest, nearmiss, records
from .base import Document, Entry, ParseWarning
from .decode import decode

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "STDIN",
    "Document",
    "Entry",
    "ParseWarning",
    "parse_bytes",
    "parse_file",
    "parse_stream",
]

FORMATS = (records, bibtex, digest, abstracts)
MAX_BYTES = 64 * 1024 * 1024  # a paper list this large is not a paper list
MAX_LINE = 256 * 1024  # no entry of any format is this long on one line
GUIDE = "see docs/formats.md"  # a minimal example of every format, what each may omit


def parse_bytes(data: bytes, path: str) -> Document:
    """Decode, detect and parse one document; raise ``DocumentError`` if it is unusable."""
    text = decode(data, path)
    lines = text.split("\n")
    if not any(line.strip() for line in lines):
        raise DocumentError(path, "the document is empty")
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            size = f"{len(line) / 2**20:.1f} MiB" if len(line) >= 2**20 else f"{len(line)} chars"
            raise DocumentError(path, f"line {number} is {size} long; no paper entry is that long")
    matches = [fmt for fmt in FORMATS if fmt.sniff(lines)]
    if not matches:
        raise DocumentError(path, _unrecognised(lines))
    doc = matches[0].parse(lines)
    if doc.foreign:
        line, what = doc.foreign
        raise DocumentError(path, f"line {line} starts {what}: split it into separate files")
    if not doc.entries:
        near = nearmiss.hint(lines)  # (a list of titles can pass for prose after a header)
        if near:
            raise DocumentError(path, f"{near} ({GUIDE})")
        raise DocumentError(path, f"{doc.format} document with no complete entries")
    return doc


def _unrecognised(lines: list[str]) -> str:
    """Why no format reads the document: what it nearly is and lacks, when that is known;
    a header with nothing under it; else the formats there are."""
    near = nearmiss.hint(lines)
    if near:
        return f"{near} ({GUIDE})"
    header = _header_only(lines)
    if header:
        return f"has a header ({header}) but no paper entries"
    names = [f.DESCRIPTION for f in (digest, abstracts, bibtex, records)]
    return f"not a {', '.join(names[:-1])} or {names[-1]} ({GUIDE})"


def _header_only(lines: list[str]) -> str | None:
    """The venue and year of a document that is nothing but header lines, if it is one."""
    from ..text import strip_decoration
    from ..venues import find_venue_years

    content = [strip_decoration(line) for line in lines if line.strip()]
    if len(content) > 6 or any(len(line) > 200 for line in content):
        return None
    for line in content:
        pairs = find_venue_years(line)
        if pairs:
            return f"{pairs[0][0]} {pairs[0][1]}"
    return None


def _folder(shown: str) -> str:
    return f"is a folder, not a document: name the documents in it, as in {shown}/*.txt"


def parse_file(path: Path) -> tuple[Document, bytes]:
    """Read and parse *path*; return the document and the exact bytes read."""
    shown = str(path)
    try:
        if path.is_dir():
            raise DocumentError(shown, _folder(shown))
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise DocumentError(shown, f"is {size // 2**20} MiB; documents over 64 MiB are refused")
        data = path.read_bytes()
    except FileNotFoundError:
        raise DocumentError(shown, "no such file") from None
    except PermissionError:
        raise DocumentError(shown, "permission denied") from None
    except IsADirectoryError:
        raise DocumentError(shown, _folder(shown)) from None
    return parse_bytes(data, shown), data


STDIN = "stdin"  # the name a document read from standard input goes by (``ingest -``)


def parse_stream(stream) -> tuple[Document, bytes]:
    """Read and parse a document from a binary *stream* (standard input: ``ingest -``)."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise DocumentError(STDIN, "is over 64 MiB; documents over 64 MiB are refused")
    return parse_bytes(data, STDIN), data
