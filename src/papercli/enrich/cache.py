"""A venue's accepted papers as downloaded, kept in the library with the day they were
fetched: ``<library>/.cache/openreview/<venue id>.json``. Later runs read it; ``papers
enrich --refresh`` downloads again. A cache that does not read back is downloaded again."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import PapersError
from ..store.files import atomic_write
from ..store.library import Library
from .openreview import Note, parse_notes

CACHE_DIR = Path(".cache") / "openreview"


@dataclass
class VenueList:
    venueid: str
    api: str
    fetched: str  # YYYY-MM-DD
    raw: list[dict]  # the notes as received

    def notes(self) -> list[Note]:
        return parse_notes(self.raw, f"OpenReview's list for {self.venueid}")


def path(library: Library, venueid: str) -> Path:
    return library.root / CACHE_DIR / (re.sub(r"[^A-Za-z0-9.-]+", "_", venueid) + ".json")


def load(library: Library, venueid: str) -> VenueList | None:
    """The cached list, or None when there is none or it does not read back."""
    cached = _read(path(library, venueid))
    return cached if cached is not None and cached.venueid == venueid else None


def _read(file: Path) -> VenueList | None:
    try:
        data = json.loads(file.read_text("utf-8"))
        cached = VenueList(data["venueid"], data["api"], data["fetched"], data["notes"])
        if not isinstance(cached.venueid, str) or not isinstance(cached.raw, list):
            return None
        cached.notes()  # (checked now: a damaged cache is downloaded again)
        return cached
    except (OSError, ValueError, KeyError, TypeError, PapersError):
        return None


def save(library: Library, cached: VenueList) -> None:
    data = {
        "venueid": cached.venueid,
        "api": cached.api,
        "fetched": cached.fetched,
        "count": len(cached.raw),
        "notes": cached.raw,
    }
    atomic_write(path(library, cached.venueid), json.dumps(data, ensure_ascii=False).encode())


def cached_lists(library: Library) -> list[VenueList]:
    """Every venue list cached in *library* that reads back, by venue id."""
    folder = library.root / CACHE_DIR
    try:
        names = sorted(p.name for p in folder.iterdir() if p.suffix == ".json")
    except OSError:
        return []
    lists = [_read(folder / name) for name in names]
    return [cached for cached in lists if cached is not None]
