"""Showing results: tables on a terminal, tab-separated lines on a pipe, or JSON.

In: hits, records, counts, and the command's ``Environment`` (streams, terminal or pipe,
colour, size). Out: text on the environment's stdout, and nothing else there.

Plain output (a pipe) replaces tabs and newlines inside values so that each paper stays
one line with stable columns, and makes control characters visible:

    search:  id  score  venue  year  tags  title  snippet
    list:    id  venue  year  tags  title

An untitled paper's title column holds its derived label, marked ``(untitled)``. Tables
(``tables``) are drawn only on a terminal, so a pipe never imports Rich.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..text import UNTITLED, escaped_json, terminal_safe
from .environment import TERMINAL_LIMIT, Environment

if TYPE_CHECKING:  # (importing the index here would load it for `papers --help`)
    from ..search.results.hits import Hit
    from ..store.record import Record

__all__ = ["TERMINAL_LIMIT", "Environment"]


def _plain(value: object) -> str:
    return terminal_safe(str(value)).replace("\t", " ").replace("\n", " ")


def _label(hit: Hit) -> str:
    """The title as it reads, or ``(untitled)`` and the derived label."""
    return hit.label if hit.data.get("title") else f"{UNTITLED} {hit.label}"


def print_json(env: Environment, data: object) -> None:
    """JSON for scripts: every control character escaped, invisible ones too."""
    env.stdout.write(escaped_json(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


def hits_json(hits: Iterable[Hit], scores: bool) -> list[dict]:
    return [hit_json(hit, scores) for hit in hits]


def hit_json(hit: Hit, scores: bool) -> dict:
    """A hit as ``--json`` shows it: the record, with its score and snippet for a search."""
    from ..search.results.marking import plain

    data = dict(hit.data)
    if scores:
        data["score"] = round(hit.score or 0.0, 4)
        data["snippet"] = plain(hit.snippet) if hit.snippet else None
    return data


FLUSH_FIRST = 20  # lines flushed one by one: a screenful, and at 100k papers the best 20,
# which come before every match is ranked
# Then what was written is flushed at least this often (seconds): a flush a line, a write
# call each, was a few percent of a piped hit's cost.
FLUSH_EVERY = 0.05


def write_hits(
    env: Environment, hits: Iterable[Hit], scores: bool, fmt: str, clock=time.monotonic
) -> int:
    """A piped listing (*fmt*: "plain", "ids" or "json"), written hit by hit as the hits
    are made: the reader (``head -1``, ``fzf``) sees the first paper before the last is
    read, and no listing is held in memory. The first ``FLUSH_FIRST`` lines are flushed
    one by one; later, a line written ``FLUSH_EVERY`` seconds or more after the last flush
    is flushed with those before it (and the stream writes whenever its buffer fills: hits
    come steadily once the first are out). The JSON is one array, the same bytes
    ``print_json`` would write for the whole list. Returns the count."""
    out, n, flushed = env.stdout, 0, 0.0
    for n, hit in enumerate(hits, 1):
        if fmt == "ids":
            out.write(f"{hit.id}\n")
        elif fmt == "json":
            item = json.dumps(hit_json(hit, scores), ensure_ascii=False, indent=2)
            out.write(("[\n" if n == 1 else ",\n") + escaped_json(_indented(item)))
        else:
            out.write(_plain_line(hit, scores))
        if n <= FLUSH_FIRST or clock() - flushed >= FLUSH_EVERY:
            out.flush()
            flushed = clock()
    if fmt == "json":
        out.write("\n]\n" if n else "[]\n")
    out.flush()  # (before what the command writes next, on stderr)
    return n


def _indented(text: str) -> str:
    return "  " + text.replace("\n", "\n  ")


def snippet_width(env: Environment) -> int:
    """Terminal cells of snippet: about two lines of the paper column, whose width is known
    only once the hits are (the venue and tag columns show from about 130 columns on)."""
    if not env.tables:
        return 200
    paper = env.width - (60 if env.width >= 130 else 13)
    return max(60, min(320, 2 * paper - 8))


def print_ids(env: Environment, hits: list[Hit]) -> None:
    env.stdout.write("".join(f"{hit.id}\n" for hit in hits))


def print_hits(env: Environment, hits: list[Hit], scores: bool, footer: str | None = None) -> None:
    if env.tables:
        from . import tables

        tables.hits(env, hits, scores, footer)
        return
    for hit in hits:
        env.stdout.write(_plain_line(hit, scores))


def _plain_line(hit: Hit, scores: bool) -> str:
    """``id [score] venue year tags title [snippet]``, from the stored record as it is
    (no Record is built: a piped listing of 38,000 hits spent a fifth of its time there)."""
    from ..search.results.marking import plain

    data = hit.data
    cols = [hit.id] + ([f"{hit.score or 0:.3f}"] if scores else [])
    cols += [
        data.get("venue") or "",
        str(data.get("year") or ""),
        ",".join(data.get("tags") or ()),
        _label(hit),
    ]
    if scores:
        cols.append(plain(hit.snippet) if hit.snippet else "")
    if all(map(str.isprintable, cols)):  # (nothing to make safe: most lines; 3 of 9 µs)
        return "\t".join(cols) + "\n"
    # a column's own tabs and newlines become spaces (they are not among what
    # terminal_safe shows), then controls are shown
    line = "\t".join(c.replace("\t", " ").replace("\n", " ") for c in cols)
    return terminal_safe(line) + "\n"


def _conflict(record: Record, conflict: dict) -> str:
    """``summary_zh: kept the value from a.txt:5; b.txt:9 says '…'``."""
    name = str(conflict.get("field"))
    kept = next((s.place for s in record.sources if name in s.fields), "the record")
    value = str(conflict.get("value"))
    value = value if len(value) <= 60 else value[:59] + "…"
    return f"{name}: kept the value from {kept}; {conflict.get('source')} says {value!r}"


def print_record(env: Environment, hit: Hit) -> None:
    """Every field and where it came from; LaTeX shown as its plain reading."""
    record = hit.record
    rows = [
        ("id", [record.id]),
        ("citekey", [record.citekey or ""]),
        ("merged from", [", ".join(record.aliases)]),  # (ids and keys that still name it)
        ("short name", [record.short_name or ""]),
        ("authors", ["; ".join(record.authors)]),
        ("venue", [f"{record.venue or ''} {record.year or ''}".strip()]),
        ("kind", [record.kind or ""]),
        ("categories", [", ".join(record.categories)]),
        ("tags", [", ".join(record.tags)]),
        ("urls", list(record.urls)),
        ("keywords", [", ".join(record.keywords)]),
        ("source", [f"{s.place} ({s.format}: {', '.join(s.fields)})" for s in record.sources]),
        ("disagrees", [_conflict(record, c) for c in record.conflicts]),
    ]
    rows = [(key, [v for v in values if v]) for key, values in rows]
    rows = [(key, values) for key, values in rows if values]
    if env.tables:
        from . import tables

        tables.record(env, hit, rows)
        return
    lines = [f"title: {_label(hit)}"]
    lines += [f"{key}: {value}" for key, values in rows for value in values]
    lines += [f"{name}: {hit.text(name)}" for name in ("abstract", "summary_zh") if hit.text(name)]
    env.stdout.write("".join(_plain(line) + "\n" for line in lines))


def print_tag_counts(
    env: Environment, rows: list[tuple[str, int, list[str]]], aliases: bool = False
) -> None:
    """Tag, count (and aliases): a table with a bar per count, or tab-separated lines."""
    if env.tables:
        from . import tables

        tables.tag_counts(env, rows, aliases)
        return
    for tag, n, names in rows:
        cols = [tag, str(n)] + ([", ".join(names)] if aliases else [])
        env.stdout.write("\t".join(_plain(c) for c in cols) + "\n")


def print_stats(env: Environment, stats: dict[str, list[tuple[str, int]]]) -> None:
    """Each section a table with a bar per count (terminal), or ``section  value  count``."""
    if env.tables:
        from . import tables

        tables.stats(env, stats)
        return
    for section, rows in stats.items():
        for value, n in rows:
            env.stdout.write(f"{section}\t{_plain(value)}\t{n}\n")


def print_settings(env: Environment, where: str, rows: list[tuple[str, str, str]]) -> None:
    """*where* the config file is (a line), then each setting's value and origin (a table,
    or tab-separated)."""
    if env.tables:
        from . import tables

        tables.settings(env, where, rows)
        return
    env.stdout.write(f"{_plain(where)}\n")
    for key, value, origin in rows:
        env.stdout.write(f"{key}\t{_plain(value)}\t{origin}\n")


def _change_value(value: object, joined: bool = True) -> str | list[str]:
    """A change's value, cut at 200 characters; a list joined with ``; `` (or kept)."""
    if isinstance(value, list):
        return "; ".join(map(str, value)) if joined else [str(v) for v in value]
    text = str(value)
    return text if len(text) <= 200 else text[:199] + "…"


def print_enrichment(env: Environment, report, as_json: bool) -> None:
    """``papers enrich``: one row a change (paper, field, fill/add/conflict, value), or JSON
    of every chosen paper with its match and changes."""
    if as_json:
        print_json(env, [o.as_dict() for o in report.outcomes])
        return
    rows = [
        (o.id, c.field, c.action, _change_value(c.value, not env.tables or c.field != "urls"))
        for o in report.changed
        for c in o.changes
    ]
    if env.tables:
        from . import tables

        if rows:
            tables.changes(env, rows)
        return
    env.stdout.write("".join("\t".join(_plain(c) for c in row) + "\n" for row in rows))
