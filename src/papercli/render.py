"""Printing results: Rich tables on a terminal, tab-separated lines on a pipe, or JSON.

Untrusted text never reaches Rich as markup: every cell is a ``rich.text.Text`` built from
the value with control characters made visible (``terminal_safe``). Plain output replaces
tabs and newlines inside values so that each paper stays one line with stable columns:

    search:  id  score  venue  year  tags  title  snippet
    list:    id  venue  year  tags  title

An untitled paper's title column holds its derived label, marked ``(untitled)``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable

from .index import Hit
from .record import Record
from .text import terminal_safe

UNTITLED = "(untitled)"


COLOR = "auto"  # the ``color`` setting: auto (terminal only), always, never
TERMINAL_LIMIT = 50  # rows a listing shows on a terminal unless --limit or a setting says


def on_terminal(stream=None) -> bool:
    """Whether to draw tables: on a terminal, or when ``color: always`` / FORCE_COLOR ask.
    Decided without importing Rich: piped output never pays for it."""
    if COLOR == "always" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return (stream or sys.stdout).isatty()
    except (AttributeError, ValueError):
        return False


def console(stderr: bool = False):
    from rich.console import Console

    return Console(
        stderr=stderr,
        highlight=False,
        soft_wrap=False,
        force_terminal=True if COLOR == "always" else None,
        no_color=COLOR == "never" or None,
    )


@contextlib.contextmanager
def progress(total: int, what: str):
    """A progress bar on stderr (count, rate, time left) when stderr is a terminal; a no-op
    otherwise. Yields ``advance(n=1)``."""
    try:
        interactive = sys.stderr.isatty()
    except (AttributeError, ValueError):
        interactive = False
    if total < 2 or not interactive:
        yield lambda n=1: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            return Text(f"{task.speed:,.0f}/s" if task.speed else "", style="progress.data.speed")

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeRemainingColumn(),
    )
    # Rich's default is to capture stdout while a bar is drawn and print it on the bar's
    # console (stderr): `papers export > file` would leave the file empty.
    bar = Progress(
        *columns,
        console=console(stderr=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    with bar:
        task = bar.add_task(what, total=total)
        yield lambda n=1: bar.advance(task, n)


def page(render_into) -> None:
    """Draw with *render_into(console)*; through $PAGER when it is taller than the terminal."""
    out = console()
    with out.capture() as captured:
        render_into(out)
    text = captured.get()
    if text.count("\n") > out.height - 2 and sys.stdin.isatty():
        os.environ.setdefault("LESS", "FRX")  # like git: quit if one screen, keep colours
        with out.pager(styles=True):
            out.print(text, end="", markup=False, highlight=False)
    else:
        sys.stdout.write(text)


def _plain(value: object) -> str:
    return terminal_safe(str(value)).replace("\t", " ").replace("\n", " ")


def _label(record: Record) -> str:
    return record.title if record.title else f"{UNTITLED} {record.label}"


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def hits_json(hits: Iterable[Hit], scores: bool) -> list[dict]:
    from .snippets import plain

    out = []
    for hit in hits:
        data = dict(hit.data)
        if scores:
            data["score"] = round(hit.score or 0.0, 4)
            data["snippet"] = plain(hit.snippet) if hit.snippet else None
        out.append(data)
    return out


def snippet_width() -> int:
    """Characters of snippet that fit in about two lines of the paper column."""
    if not on_terminal():
        return 200
    return max(60, min(320, 2 * (console().width - 62)))


def _marked_text(marked: str, style: str = "", match_style: str = "bold yellow"):
    from rich.text import Text

    from .snippets import segments

    text = Text()
    for piece, is_match in segments(terminal_safe(marked)):
        text.append(piece, style=match_style if is_match else style)
    return text


def print_ids(hits: list[Hit]) -> None:
    sys.stdout.write("".join(f"{hit.id}\n" for hit in hits))


def print_hits(hits: list[Hit], scores: bool, footer: str | None = None) -> None:
    from .snippets import plain

    if not on_terminal():
        for hit in hits:
            r = hit.record
            cols = [r.id] + ([f"{hit.score or 0:.3f}"] if scores else [])
            cols += [r.venue or "", r.year or "", ",".join(r.tags), _label(r)]
            if scores:
                cols.append(plain(hit.snippet) if hit.snippet else "")
            sys.stdout.write("\t".join(_plain(c) for c in cols) + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(show_edge=False, pad_edge=False, expand=True, header_style="bold")
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("paper (id)", ratio=3, min_width=24, overflow="fold")
    table.add_column("venue", no_wrap=True)
    widest = max((len(t) for h in hits for t in h.record.tags), default=4)
    table.add_column("tags", style="green", no_wrap=True, min_width=min(widest, 26))
    if scores:
        table.add_column("score", justify="right", style="dim", no_wrap=True)
    for number, hit in enumerate(hits, start=1):
        r = hit.record
        if hit.title_marked:
            paper = _marked_text(hit.title_marked)
        else:
            paper = Text(terminal_safe(r.label), style="" if r.title else "italic")
        if not r.title:
            paper.append(f" {UNTITLED}", style="dim")
        if hit.snippet:
            paper.append("\n")
            paper.append_text(_marked_text(hit.snippet, style="dim", match_style="bold yellow"))
        paper.append("\n" + r.id, style="cyan")
        row = [str(number), paper, Text(_plain(f"{r.venue or ''} {r.year or ''}".strip()))]
        row.append(Text("\n".join(_plain(t) for t in r.tags)))  # one tag a line
        if scores:
            row.append(f"{hit.score or 0:.2f}")
        table.add_row(*row)

    def draw(out):
        out.print(table)
        if footer:
            out.print(Text(footer, style="dim"))

    page(draw)


def _conflict(record: Record, conflict: dict) -> str:
    """``summary_zh: kept the value from a.txt:5; b.txt:9 says '…'``."""
    name = str(conflict.get("field"))
    kept = next((f"{s.name}:{s.line}" for s in record.sources if name in s.fields), "the record")
    value = str(conflict.get("value"))
    value = value if len(value) <= 60 else value[:59] + "…"
    return f"{name}: kept the value from {kept}; {conflict.get('source')} says {value!r}"


def print_record(record: Record) -> None:
    rows = [
        ("id", record.id),
        ("citekey", record.citekey or ""),
        ("short name", record.short_name or ""),
        ("venue", f"{record.venue or ''} {record.year or ''}".strip()),
        ("categories", ", ".join(record.categories)),
        ("tags", ", ".join(record.tags)),
        ("urls", " ".join(record.urls)),
    ]
    sources = [f"{s.name}:{s.line} ({s.format}: {', '.join(s.fields)})" for s in record.sources]
    conflicts = [_conflict(record, c) for c in record.conflicts]
    if not on_terminal():
        lines = [f"title: {_label(record)}"]
        lines += [f"{k}: {v}" for k, v in rows if v]
        lines += [f"source: {s}" for s in sources]
        lines += [f"disagrees: {c}" for c in conflicts]
        if record.abstract:
            lines.append(f"abstract: {record.abstract}")
        if record.summary_zh:
            lines.append(f"summary_zh: {record.summary_zh}")
        sys.stdout.write("".join(_plain(line) + "\n" for line in lines))
        return
    from rich.table import Table
    from rich.text import Text

    out = console()
    title = Text(terminal_safe(record.label), style="bold" if record.title else "bold italic")
    if not record.title:
        title.append(f" {UNTITLED}: label derived from the abstract", style="dim")
    out.print(title)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column()
    for key, value in rows:
        if value:
            grid.add_row(key, Text(terminal_safe(value)))
    for i, source in enumerate(sources):
        grid.add_row("sources" if i == 0 else "", Text(terminal_safe(source)))
    for i, conflict in enumerate(conflicts):
        grid.add_row("disagrees" if i == 0 else "", Text(terminal_safe(conflict), style="yellow"))
    out.print(grid)
    for heading, text in (("Abstract", record.abstract), ("摘要 (summary)", record.summary_zh)):
        if text:
            out.print()
            out.print(Text(heading, style="bold"))
            out.print(Text(terminal_safe(text)))


def print_tag_counts(rows: list[tuple[str, int, list[str]]], aliases: bool = False) -> None:
    """Tag, count (and aliases): a table with a bar per count, or tab-separated lines."""
    if not on_terminal():
        for tag, n, names in rows:
            cols = [tag, str(n)] + ([", ".join(names)] if aliases else [])
            sys.stdout.write("\t".join(_plain(c) for c in cols) + "\n")
        return
    from rich.table import Table
    from rich.text import Text

    out = console()
    top = max((n for _t, n, _a in rows), default=1) or 1
    table = Table(show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("tag", style="green", no_wrap=True)
    table.add_column("papers", justify="right")
    table.add_column("", no_wrap=True)
    if aliases:
        table.add_column("aliases", style="dim", ratio=1)
    for tag, n, names in rows:
        bar = "█" * round(20 * n / top) if n else ""
        row = [Text(terminal_safe(tag)), str(n), Text(bar or "·", style="blue")]
        if aliases:
            row.append(Text(terminal_safe(", ".join(names))))
        table.add_row(*row)
    out.print(table)


def print_stats(stats: dict[str, list[tuple[str, int]]]) -> None:
    """Each section a table with a bar per count (terminal), or ``section  value  count``."""
    if not on_terminal():
        for section, rows in stats.items():
            for value, n in rows:
                sys.stdout.write(f"{section}\t{_plain(value)}\t{n}\n")
        return
    from rich.table import Table
    from rich.text import Text

    tables = []
    for section, rows in stats.items():
        if section == "papers":
            continue
        top = max((n for _v, n in rows), default=1) or 1
        table = Table(title=section, title_justify="left", show_edge=False, header_style="bold")
        table.add_column(section, no_wrap=True, max_width=48)
        table.add_column("papers", justify="right")
        table.add_column("", no_wrap=True)
        for value, n in rows:
            table.add_row(
                Text(terminal_safe(value)),
                str(n),
                Text("█" * max(1, round(24 * n / top)), style="blue"),
            )
        tables.append(table)

    def draw(out):
        out.print(Text(f"{stats['papers'][0][1]} papers", style="bold"))
        for table in tables:
            out.print()
            out.print(table)

    page(draw)
