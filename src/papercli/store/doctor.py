"""``papers doctor``: find what is wrong with a library, and repair what can be repaired.

First the index is opened as every command opens it (``heal``): one found damaged, or left
unfinished by a killed command, is rebuilt or brought up to date, and that is reported as
a repair. Then checked: a directory where the lock file belongs, an interrupted write
(``.txn``), stray temporary files (of records, and of the index's writers), records that
do not validate (with file and line), two files claiming one id, two records with one
citation key, provenance copies that are missing, document copies no record cites (left by
an interrupted ingest), and an index that is out of date or damaged.

``--fix`` removes an empty directory named ``.lock``, finishes or discards interrupted
writes, removes stray temporary files and uncited document copies, and rebuilds the index.
It never changes or deletes a record: an invalid record is for its owner to correct
(``papers edit``), so it is reported with the exact place to look.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass

from ..errors import IndexDamaged, PapersError, RecordError
from .files import Stamp
from .library import TXN_DIR, Library


@dataclass
class Problem:
    kind: str
    where: str
    message: str
    fixable: bool

    def __str__(self) -> str:
        fix = " (--fix repairs it)" if self.fixable else ""
        return f"{self.kind}: {self.where}: {self.message}{fix}"


def heal(library: Library) -> tuple[list[str], list[str]]:
    """Bring the index up to date, as any command would first. Returns what that repaired
    (an index damaged, or left unfinished by a killed command) and what it noted (an index
    built where there was none: a library cloned without one lacks nothing)."""
    from ..search.index.folder import MISSING
    from ..search.index.paper_index import PaperIndex

    if not library.papers_dir.exists():
        return [], []
    index = PaperIndex(library)
    with contextlib.suppress(PapersError, OSError):  # (then reported by check)
        index.open()
    said = index.repaired()
    if said is None:
        return [], []
    return ([], [said]) if index.rebuilt == MISSING else ([said], [])


def check(library: Library) -> list[Problem]:
    problems = _leftovers(library)
    records = _Records()
    for entry in sorted(library.record_files(), key=lambda e: e.name):
        records.stamps[entry.name] = Stamp.of(entry.stat()).as_list()
        try:
            record = library.load_path(library.papers_dir / entry.name)
        except RecordError as exc:
            problems.append(
                Problem("invalid record", f"papers/{entry.name}", _reason(str(exc)), False)
            )
            continue
        problems += records.check(library, record, f"papers/{entry.name}")
    problems += records.reused_aliases()
    for copy in sorted(library.sources_dir.glob("[!.]*")) if library.sources_dir.is_dir() else []:
        if copy.is_file() and f"sources/{copy.name}" not in records.cited:
            message = "no record cites this document copy"
            problems.append(Problem("orphaned source copy", f"sources/{copy.name}", message, True))
    return problems + _index_problems(library, records.stamps)


def _leftovers(library: Library) -> list[Problem]:
    """What killed commands leave: a write in progress, temporary files, pending copies."""
    problems = []
    if library.lock_file.is_dir():
        empty = not any(library.lock_file.iterdir())
        message = "a directory where the lock file belongs: no command can write the library"
        problems.append(
            Problem(
                "lock file",
                ".lock",
                message + ("" if empty else " (not empty: look inside, then remove it)"),
                empty,
            )
        )
    if (library.root / TXN_DIR).exists():
        state = "committed" if (library.root / TXN_DIR / "COMMIT").exists() else "uncommitted"
        message = f"a killed command left an {state} write"
        problems.append(Problem("interrupted write", TXN_DIR, message, True))
    for folder in (library.papers_dir, library.sources_dir):
        for stray in sorted(folder.glob(".*.tmp")) if folder.exists() else []:
            where = f"{folder.name}/{stray.name}"
            problems.append(Problem("temporary file", where, "left by a killed write", True))
    problems += _index_leftovers(library)
    for folder in library.stale_pending():
        n = sum(1 for _ in folder.iterdir())
        message = f"{n} document cop{'y' if n == 1 else 'ies'} left by an interrupted ingest"
        where = folder.relative_to(library.root).as_posix()
        problems.append(Problem("orphaned source copies", where, message, True))
    return problems


def _index_leftovers(library: Library) -> list[Problem]:
    """What dead writers left in the index folder: temporary folders, unused segment files
    (a writer at work makes the same: looked for only when the lock is free)."""
    from ..engine.storage import leftovers

    if not library.index_dir.is_dir() or library.lock_file.is_dir():
        return []  # (no lock to take: that problem is reported first)
    with library.try_lock() as locked:
        found = leftovers(library.index_dir) if locked else []
    message = "left by a write that was killed or failed"
    return [Problem("index leftover", f".index/{name}", message, True) for name in found]


class _Records:
    """What the records seen so far claim: ids, citation keys, cited copies, stamps."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.keys: dict[str, str] = {}
        self.cited: set[str] = set()
        self.stamps: dict[str, list[int]] = {}
        self.aliases: dict[str, str] = {}  # a merged paper's id or key -> where it is kept

    def check(self, library: Library, record, where: str) -> list[Problem]:
        problems = []
        if record.id in self.ids:
            message = f"{record.id} is also in {self.ids[record.id]}"
            problems.append(Problem("duplicate id", where, message, False))
        self.ids.setdefault(record.id, where)
        if record.citekey and record.citekey in self.keys:
            message = f"citation key {record.citekey} is also in {self.keys[record.citekey]}"
            problems.append(Problem("duplicate citation key", where, message, False))
        if record.citekey:
            self.keys.setdefault(record.citekey, where)
        for alias in record.aliases:
            self.aliases.setdefault(alias, where)
        for source in record.sources:
            if source.remote:  # a service's reply: nothing stored to look for
                continue
            self.cited.add(source.document)
            if not (library.root / source.document).is_file():
                message = f"{source.document} (from {source.name}:{source.line}) is missing"
                problems.append(Problem("missing source copy", where, message, False))
        return problems

    def reused_aliases(self) -> list[Problem]:
        """A merged paper's id or key that another record has taken again (by hand, or a
        record copied in): it no longer names one paper."""
        problems = []
        for alias, where in sorted(self.aliases.items()):
            other = self.ids.get(alias) or self.keys.get(alias)
            if other and other != where:
                message = (
                    f"{alias}, the id or key of a paper merged into this one, is also in {other}"
                )
                problems.append(Problem("alias in use", where, message, False))
        return problems


def _reason(message: str) -> str:
    """'lib/papers/x.yaml line 3: …' → 'line 3: …' (the location is already shown)."""
    _head, sep, rest = message.partition(".yaml")
    return rest.lstrip(" :") if sep else message


def _index_problems(library: Library, stamps: dict[str, list[int]]) -> list[Problem]:
    from ..search.index.schema import SCHEMA_VERSION

    index_dir = library.index_dir
    if not stamps and not _read_object(index_dir / "stamps.json"):
        return []  # an empty library needs no index (and nothing is indexed)
    from ..search.index import state as index_state

    saved = index_state.read(index_dir, "state.json")
    indexed = index_state.read(index_dir, "stamps.json")
    if not saved or (stamps and not indexed):
        return [Problem("index", ".index", "missing or unreadable", True)]
    if saved.get("version") != SCHEMA_VERSION:
        return [Problem("index", ".index", "built by another version of papers", True)]
    if why := index_state.changed(index_dir, saved):
        return [Problem("index", ".index", why, True)]
    state = saved
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
    return out or _unreadable(library)


def _unreadable(library: Library) -> list[Problem]:
    """Every stored record, term and posting of the index read once (random bytes in a
    segment file pass every other check)."""
    from ..search.index.paper_index import PaperIndex

    try:
        PaperIndex(library).open(refresh=False).verify()
    except IndexDamaged as exc:
        detail = str(exc).split("(", 1)[-1].rsplit(")", 1)[0]
        return [Problem("index", ".index", f"damaged: {detail}", True)]
    return []


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
    from ..search.index.paper_index import PaperIndex

    done = []
    if any(p.kind == "lock file" and p.fixable for p in problems):
        library.lock_file.rmdir()  # (empty: checked) before the lock can be taken
        done.append("removed the directory .lock")
    with library.lock():
        if any(p.kind == "interrupted write" for p in problems):
            from .transaction import Transaction

            done.append(Transaction(library).recover())
        if any(p.kind == "index leftover" for p in problems):
            from ..engine.storage import discard_leftovers

            for name in discard_leftovers(library.index_dir):
                done.append(f"removed .index/{name}")
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
