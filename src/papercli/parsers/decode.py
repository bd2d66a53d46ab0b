"""Bytes to text: detect the encoding from the content, never from the file name.

Accepted: UTF-8 (with or without BOM), UTF-16 with a BOM, and GB18030/GBK (common for
Chinese files saved on Windows, and English ones saved there too: their non-ASCII
characters are Chinese, or the GB sets' own punctuation and symbols). Line endings CRLF
and CR become LF. Anything else is refused with the byte offset where decoding failed.
"""

from __future__ import annotations

import codecs
import re

from ..errors import DocumentError
from ..text import CJK_RE

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_NEWLINES_RE = re.compile(r"\r\n?")


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 9 or 13 < b < 32)
    return controls > len(sample) // 100 + 2


def _gb_symbol(ch: str) -> bool:
    """Whether *ch* is a symbol of the GB character sets' own rows: CJK and full-width
    punctuation, and the dashes, quotes, ×, Greek letters… that an English document saved
    as GBK on a Chinese Windows holds (the bundled abstract list: 12 of its 16 non-ASCII
    characters are such, and it was refused). Not a private-use character: GB18030 decodes
    bytes that are no character to those."""
    if "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef":
        return True
    if "\ue000" <= ch <= "\uf8ff":
        return False
    try:
        encoded = ch.encode("gbk")
    except UnicodeEncodeError:
        return False
    return len(encoded) == 2 and 0xA1 <= encoded[0] <= 0xA9  # (rows 1-9: symbols)


def decode(data: bytes, path: str) -> str:
    """The text of *data*: a ``DocumentError`` when it is not text in a known encoding, or
    holds a NUL anywhere (the first 8 KiB decide whether it looks binary; a NUL further on
    would otherwise reach a record)."""
    text = _decode(data, path)
    nul = text.find("\x00")
    if nul != -1:
        line = text.count("\n", 0, nul) + 1
        raise DocumentError(path, f"holds a NUL character on line {line}: not a text document")
    return text


def _decode(data: bytes, path: str) -> str:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return _NEWLINES_RE.sub("\n", data.decode(encoding))
            except UnicodeDecodeError as exc:
                raise DocumentError(
                    path, f"invalid {encoding} at byte {exc.start} despite its byte-order mark"
                ) from None
    if _looks_binary(data):
        raise DocumentError(path, "looks like a binary file, not a text document")
    try:
        return _NEWLINES_RE.sub("\n", data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        utf8_error = exc
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        non_ascii = [ch for ch in text if ord(ch) > 127]
        chinese = sum(1 for ch in non_ascii if CJK_RE.match(ch) or _gb_symbol(ch))
        if non_ascii and chinese / len(non_ascii) >= 0.9:
            return _NEWLINES_RE.sub("\n", text)
    raise DocumentError(
        path,
        f"not valid UTF-8 (byte {utf8_error.start}: 0x{data[utf8_error.start]:02x}) "
        "and not GB18030 Chinese text; save it as UTF-8",
    )
