"""Full records as JSON or YAML: everything a record holds, in record field order."""

from __future__ import annotations

import json

from ..library import dump_yaml
from ..record import Record


def render(records: list[Record], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([r.to_dict() for r in records], ensure_ascii=False, indent=2) + "\n"
    return "".join("---\n" + dump_yaml(r.to_dict()) for r in records)
