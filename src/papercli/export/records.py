"""Full records as JSON or YAML: everything a record holds, in record field order."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from ..store.record import Record
from ..store.yamlio import dump_yaml
from ..text import escaped_json


def json_array(items: Iterable[dict]) -> Iterator[str]:
    """A JSON array written one item at a time (the same text as json.dumps(…, indent=2))."""
    first = True
    for item in items:
        body = escaped_json(json.dumps(item, ensure_ascii=False, indent=2)).replace("\n", "\n  ")
        yield ("[\n  " if first else ",\n  ") + body
        first = False
    yield "[]\n" if first else "\n]\n"


def chunks(records: Iterable[Record], fmt: str) -> Iterator[str]:
    if fmt == "json":
        yield from json_array(r.to_dict() for r in records)
    else:
        for r in records:
            yield "---\n" + dump_yaml(r.to_dict())
