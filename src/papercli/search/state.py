"""What the index was last synced with: ``.index/state.json`` (schema version, the
``papers/`` folder's stamp, invalid records) and ``.index/stamps.json`` (each record
file's stamp). A file that is missing, damaged or not a mapping reads as empty: the
index is then brought up to date from the records, never trusted."""

from __future__ import annotations

import json
from pathlib import Path

from ..store.files import atomic_write


def read(folder: Path, name: str) -> dict:
    try:
        data = json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write(folder: Path, name: str, data: dict) -> None:
    atomic_write(folder / name, json.dumps(data, ensure_ascii=False).encode("utf-8"))
