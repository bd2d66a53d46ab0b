"""``papers doctor``: find what is wrong with a library, and repair what can be repaired.

Checked: an interrupted write (``.txn``), stray temporary files, records that do not
validate (with file and line), two files claiming one id, two records with one citation
key, provenance copies that are missing, document copies no record cites (left by an
interrupted ingest), and an index that is missing or out of date.

``--fix`` finishes or discards interrupted writes, removes stray temporary files and
uncited document copies, and rebuilds the index. It never changes or deletes a record:
an invalid record is for its owner to correct (``papers edit``), so it is reported with
the exact place to look.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..errors import RecordError
from .files import Stamp
from .library import Library
from .transaction import TXN_DIR


@dataclass
class Problem:
    kind: str
    where: str
    message: str
    fixable: bool

    def __str__(self) -> str:
        fix = " (--fix repairs it)" if self.fixable else ""
        return f"{self.kind}: {self.where}: {self.message}{fix}"


def check(library: Library) -> list[Problem]:
    problems: list[Problem] = []
    root = library.root
    if (root / TXN_DIR).exists():
        state = "committed" if (root / TXN_DIR / "COMMIT").exists() else "uncommitted"
        problems.append(
            Problem("interrupted write", TXN_DIR, f"a killed command left an {state} write", True)
        )
    for folder in (library.papers_dir, library.sources_dir):
        for stray in sorted(folder.glob(".*.tmp")) if folder.exists() else []:
            where = f"{folder.name}/{stray.name}"
            problems.append(Problem("temporary file", where, "left by a killed write", True))

    for folder in library.stale_pending():
        n = sum(1 for _ in folder.iterdir())
        message = f"{n} document cop{'y' if n == 1 else 'ies'} left by an interrupted ingest"
        where = folder.relative_to(library.root).as_posix()
        problems.append(Problem("orphaned source copies", where, message, True))

    ids: dict[str, str] = {}
    keys: dict[str, str] = {}
    stamps: dict[str, list[int]] = {}
    cited: set[str] = set()
    for entry in sorted(library.record_files(), key=lambda e: e.name):
        where = f"papers/{entry.name}"
        stamps[entry.name] = Stamp.of(entry.stat()).as_list()
        try:
            record = library.load_path(library.papers_dir / entry.name)
        except RecordError as exc:
            problems.append(Problem("invalid record", where, _reason(str(exc)), False))
            continue
        if record.id in ids:
            problems.append(
                Problem("duplicate id", where, f"{record.id} is also in {ids[record.id]}", False)
            )
        ids.setdefault(record.id, where)
        if record.citekey:
            if record.citekey in keys:
                message = f"citation key {record.citekey} is also in {keys[record.citekey]}"
                problems.append(Problem("duplicate citation key", where, message, False))
            keys.setdefault(record.citekey, where)
        for source in record.sources:
            cited.add(source.document)
            if not (root / source.document).is_file():
                message = f"{source.document} (from {source.name}:{source.line}) is missing"
                problems.append(Problem("missing source copy", where, message, False))
    for copy in sorted(library.sources_dir.glob("[!.]*")) if library.sources_dir.is_dir() else []:
        if copy.is_file() and f"sources/{copy.name}" not in cited:
            message = "no record cites this document copy"
            problems.append(Problem("orphaned source copy", f"sources/{copy.name}", message, True))
    problems += _index_problems(library, stamps)
    return problems


def _reason(message: str) -> str:
    """'lib/papers/x.yaml line 3: …' → 'line 3: …' (the location is already shown)."""
    _head, sep, rest = message.partition(".yaml")
    return rest.lstrip(" :") if sep else message


def _index_problems(library: Library, stamps: dict[str, list[int]]) -> list[Problem]:
    from ..search.schema import SCHEMA_VERSION

    index_dir = library.index_dir
    if not stamps and not _read_object(index_dir / "stamps.json"):
        return []  # an empty library needs no index (and nothing is indexed)
    try:
        state = json.loads((index_dir / "state.json").read_text("utf-8"))
        indexed = json.loads((index_dir / "stamps.json").read_text("utf-8"))
    except (FileNotFoundError, ValueError):
        return [Problem("index", ".index", "missing or unreadable", True)]
    if state.get("version") != SCHEMA_VERSION:
        return [Problem("index", ".index", "built by another version of papers", True)]
    invalid = set(state.get("invalid", {}))
    stale = [n for n, s in stamps.items() if indexed.get(n) != s and n not in invalid]
    orphans = [n for n in indexed if n not in stamps]
    out = []
    if stale:
        message = f"{_n(stale, 'record')} changed since indexing (first: {sorted(stale)[0]})"
        out.append(Problem("index", ".index", message, True))
    if orphans:
        message = f"{_n(orphans, 'indexed record')} no longer there (first: {sorted(orphans)[0]})"
        out.append(Problem("index", ".index", message, True))
    return out


def _read_object(path) -> dict:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _n(items: list, noun: str) -> str:
    return f"{len(items)} {noun}{'s' * (len(items) != 1)}"


def fix(library: Library, problems: list[Problem]) -> list[str]:
    """Repair the fixable problems; return what was done."""
    from ..search.index import PaperIndex

    done = []
    with library.lock():
        if any(p.kind == "interrupted write" for p in problems):
            from .transaction import Transaction

            done.append(Transaction(library).recover())
        for p in problems:
            if p.kind in ("temporary file", "orphaned source copy"):
                (library.root / p.where).unlink(missing_ok=True)
                done.append(f"removed {p.where}")
            elif p.kind == "orphaned source copies":
                library.clean_pending([library.root / p.where])
                done.append(f"removed {p.where}")
        if any(p.fixable and p.kind in ("index", "interrupted write") for p in problems):
            report = PaperIndex(library).open(refresh=False).sync(full=True)
            done.append(f"rebuilt the index ({report.added} papers)")
    return done
