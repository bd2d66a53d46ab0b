"""Records exported by ``papers export --format json|yaml``, read back in.

A JSON array of record objects, or YAML documents (``---``) each holding one record. Every
record is validated like a file in ``papers/``; an invalid one is reported with its line and
skipped. This is what makes an export a backup: export → ingest into an empty library →
the same records, ids, citation keys, tags and provenance.
"""

from __future__ import annotations

import json
import re

from ..errors import RecordError
from ..store.record import Record
from .base import Document, Entry

NAME = "records"
DESCRIPTION = "papers JSON/YAML export"

_JSON_START_RE = re.compile(r'^\s*\[\s*(\{\s*"id"\s*:|\])')
_YAML_START_RE = re.compile(r"^---\s*$")


def sniff(lines: list[str]) -> bool:
    head = "\n".join(lines[:3])
    if _JSON_START_RE.match(head):
        return True
    return (
        bool(lines)
        and _YAML_START_RE.match(lines[0]) is not None
        and any(line.startswith("id: ") for line in lines[1:3])
    )


def _json_entries(text: str, doc: Document) -> list[tuple[int, object]]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        doc.warn(getattr(exc, "lineno", 1), f"not valid JSON: {exc}")
        return []
    if not isinstance(data, list):
        doc.warn(1, "a records file holds a JSON array of records")
        return []
    starts = [m.start() for m in re.finditer(r"^  \{|^\{", text, re.M)]
    lines = [text.count("\n", 0, pos) + 1 for pos in starts]
    if len(lines) != len(data):  # not our own layout: number entries by position
        lines = [1] * len(data)
    return list(zip(lines, data, strict=True))


def _yaml_entries(lines: list[str], doc: Document) -> list[tuple[int, object]]:
    from ..store.yamlio import load_yaml

    starts = [i for i, line in enumerate(lines) if _YAML_START_RE.match(line)]
    out = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        text = "\n".join(lines[start + 1 : end])
        try:
            out.append((start + 1, load_yaml(text, "record")))
        except RecordError as exc:
            doc.warn(start + 1, str(exc))
    return out


def parse(lines: list[str]) -> Document:
    doc = Document(format=NAME)
    text = "\n".join(lines)
    is_json = text.lstrip().startswith("[")
    items = _json_entries(text, doc) if is_json else _yaml_entries(lines, doc)
    for line, data in items:
        try:
            record = Record.from_dict(data, f"record at line {line}")
        except RecordError as exc:
            doc.warn(line, f"{exc}; skipped")
            continue
        doc.entries.append(
            Entry(
                line=line,
                title=record.title,
                short_name=record.short_name,
                abstract=record.abstract,
                summary_zh=record.summary_zh,
                urls=list(record.urls),
                categories=list(record.categories),
                venue=record.venue,
                year=record.year,
                record=record,
            )
        )
    return doc
