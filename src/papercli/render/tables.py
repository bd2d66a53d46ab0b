"""Terminal output: Rich tables laid out for the terminal's width, paged when taller.

Every cell is filled here, line by line (``wrap``), for a column width computed here: Rich
only draws the grid, so it never re-wraps a cell. That is what keeps ids, tags and
citation keys whole, breaks Chinese between characters, and lets the pager show exactly
the lines that were laid out (``less -S``).

Untrusted text never reaches Rich as markup: every cell is a ``Text`` made from the value
with control characters made visible (``terminal_safe``).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..search.results.hits import Hit
from ..search.results.marking import segments
from ..text import UNTITLED, UNTITLED_NOTE, terminal_safe
from . import wrap
from .environment import Environment

GAP = 3  # cells between two columns: padding, rule, padding
MIN_PAPER = 30  # the paper column is at least this wide, and as wide as the longest id
TABLE = {"show_edge": False, "pad_edge": False, "header_style": "bold"}


def _safe(value: object, style: str = "") -> Text:
    return Text(terminal_safe(str(value)), style=style)


def _marked(marked: str, style: str = "", match_style: str = "bold yellow") -> Text:
    text = Text()
    for piece, is_match in segments(terminal_safe(marked)):
        text.append(piece, style=match_style if is_match else style)
    return text


def _lines(lines: list[Text]) -> Text:
    return Text("\n").join(lines)


def _show(env: Environment, *renderables) -> None:
    """Render for this terminal's width, then print or page the lines as they are."""
    console = env.console()
    with console.capture() as captured:
        for renderable in renderables:
            console.print(renderable)
    env.page(captured.get())


# --- search, list, similar ---------------------------------------------------------------------


def authors_line(authors: list[str], shown: int = 3) -> str:
    """``A, B, C`` or ``A, B, C, … (7 authors)``: who wrote it, in one line or two. Names
    written "Family, Given" (as BibTeX writes them) show as "Given Family": joined by
    commas, "Kingma, Diederik P, Ba, Jimmy" would read as four names."""
    names = [_given_first(a) for a in authors]
    if len(names) <= shown + 1:
        return ", ".join(names)
    return ", ".join(names[:shown]) + f", … ({len(names)} authors)"


def _given_first(name: str) -> str:
    """ "von Family, Given" → "Given von Family"; "Family, Jr, Given" → "Given Family Jr"."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and all(parts):
        return f"{parts[2]} {parts[0]} {parts[1]}"
    return name


def _paper_cell(hit: Hit, width: int, meta: list[Text] | None) -> Text:
    """Title (matches marked), the authors, the snippet, venue and tags when they have no
    column, the id."""
    record = hit.record
    if hit.title_marked:
        title = _marked(hit.title_marked)
    else:
        title = _safe(hit.label, "" if record.title else "italic")
    if not record.title:
        title.append(f" {UNTITLED}", style="dim")
    lines = wrap.wrap(title, width)
    if record.authors:
        lines += wrap.wrap(_safe(authors_line(record.authors), "dim"), width)
    if hit.snippet:
        lines += wrap.wrap(_marked(hit.snippet, style="dim"), width)
    if meta:
        lines += wrap.items(meta, width, separator=" · ")
    lines += wrap.items([Text(record.id, style="cyan")], width)
    return _lines(lines)


def hits(env: Environment, found: list[Hit], scores: bool, footer: str | None) -> None:
    """One row a paper. Wide terminals: # | paper (id) | venue | tags | score. Where the
    venue and tag columns would leave the paper column narrower than an id, the venue and
    tags move into the paper cell, one line under the snippet."""
    records = [hit.record for hit in found]
    venues = [f"{r.venue or ''} {r.year or ''}".strip() for r in records]
    number_w = len(str(len(found)))
    score_w = max(5, *(len(f"{h.score or 0:.2f}") for h in found)) if scores else 0
    venue_w = max(5, *(cell_len(terminal_safe(v)) for v in venues))
    tags_w = max([4] + [cell_len(terminal_safe(t)) for r in records for t in r.tags])
    need = max([MIN_PAPER] + [len(r.id) for r in records])
    fixed = number_w + score_w + GAP * (1 + bool(scores))
    wide = env.width - fixed - venue_w - tags_w - 2 * GAP >= need
    paper_w = env.width - fixed - (venue_w + tags_w + 2 * GAP if wide else 0)

    table = Table(**TABLE)
    table.add_column("#", justify="right", style="dim", no_wrap=True, width=number_w)
    table.add_column("paper (id)", no_wrap=True, width=max(paper_w, 10))
    if wide:
        table.add_column("venue", no_wrap=True, width=venue_w)
        table.add_column("tags", style="green", no_wrap=True, width=tags_w)
    if scores:
        table.add_column("score", justify="right", style="dim", no_wrap=True, width=score_w)
    for number, (hit, record, venue) in enumerate(zip(found, records, venues, strict=True), 1):
        tags = [_safe(t, "green") for t in record.tags]
        meta = None if wide else [_safe(venue)] * bool(venue) + tags
        row = [str(number), _paper_cell(hit, paper_w, meta)]
        if wide:
            row += [_safe(venue), _lines(tags)]
        if scores:
            row.append(f"{hit.score or 0:.2f}")
        table.add_row(*row)
    _show(env, table, *([Text(footer, style="dim")] if footer else []))


def changes(env: Environment, rows: list[tuple[str, str, str, str | list[str]]]) -> None:
    """papers enrich: each paper's id on a line of its own (whole, at any width), then one
    line a change: field, fill/add/conflict, the value wrapped beside them (a list's items
    one a line)."""
    field_w = max(5, *(len(r[1]) for r in rows))
    action_w = max(6, *(len(r[2]) for r in rows))
    value_w = max(10, env.width - 2 - field_w - action_w - 2 * 2)
    parts: list = []
    for rid in dict.fromkeys(r[0] for r in rows):
        grid = Table.grid(padding=(0, 2), pad_edge=False)
        grid.add_column(no_wrap=True, width=field_w)
        grid.add_column(no_wrap=True, width=action_w)
        grid.add_column(no_wrap=True, width=value_w)
        for _rid, name, action, value in (r for r in rows if r[0] == rid):
            style = "yellow" if action == "conflict" else ""
            items = value if isinstance(value, list) else [value]
            lines = [line for item in items for line in wrap.wrap(_safe(item, style), value_w)]
            grid.add_row(name, _safe(action, style), _lines(lines))
        parts += [_lines(wrap.items([_safe(rid, "cyan")], env.width)), Padding(grid, (0, 0, 0, 2))]
    _show(env, *parts)


# --- show ----------------------------------------------------------------------------------


def record(env: Environment, hit: Hit, rows: list[tuple[str, list[str]]]) -> None:
    """The title, then ``key  value`` lines (values wrapped beside their key; ids, tags and
    keys never cut), then the abstract and the Chinese summary as paragraphs."""
    width = env.width
    titled = bool(hit.data.get("title"))
    title = _safe(hit.label, "bold" if titled else "bold italic")
    if not titled:
        title.append(f" {UNTITLED_NOTE}", style="dim")
    key_w = max(len(key) for key, _values in rows)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="dim", no_wrap=True, width=key_w)
    grid.add_column(no_wrap=True, width=max(10, width - key_w - 2))
    for key, values in rows:
        style = "yellow" if key == "disagrees" else ""
        for i, value in enumerate(values):
            lines = wrap.wrap(_safe(value, style), width - key_w - 2)
            grid.add_row(key if i == 0 else "", _lines(lines))
    parts: list = [_lines(wrap.wrap(title, width)), grid]
    for heading, name in (("Abstract", "abstract"), ("摘要 (summary)", "summary_zh")):
        if hit.text(name):
            parts += ["", Text(heading, style="bold")]
            parts.append(_lines(wrap.wrap(_safe(hit.text(name)), width)))
    _show(env, *parts)


# --- tags, stats, config ---------------------------------------------------------------------


def _bar(n: int, top: int, cells: int) -> Text:
    return Text("█" * max(1, round(cells * n / top)) if n else "·", style="blue")


def tag_counts(env: Environment, rows: list[tuple[str, int, list[str]]], aliases: bool) -> None:
    """tag | papers | a bar per count; with --aliases, the aliases instead of the bar
    (each alias whole where it fits, Chinese wrapped between characters)."""
    top = max((n for _t, n, _a in rows), default=1) or 1
    tag_w = max([3] + [cell_len(terminal_safe(t)) for t, _n, _a in rows])
    count_w = max(6, *(len(str(n)) for _t, n, _a in rows))
    rest = env.width - tag_w - count_w - 2 * GAP
    table = Table(**TABLE)
    table.add_column("tag", style="green", no_wrap=True, width=tag_w)
    table.add_column("papers", justify="right", no_wrap=True, width=count_w)
    if aliases:
        table.add_column("aliases", style="dim", no_wrap=True, width=max(10, rest))
    else:
        table.add_column("", no_wrap=True, width=min(20, max(1, rest)))
    for tag, n, names in rows:
        if aliases:
            cell = _lines(wrap.items([_safe(a) for a in names], max(10, rest)))
        else:
            cell = _bar(n, top, min(20, max(1, rest)))
        table.add_row(_safe(tag), str(n), cell)
    _show(env, table)


def stats(env: Environment, sections: dict[str, list[tuple[str, int]]]) -> None:
    """Each section a table: value | papers | a bar per count."""
    tables = []
    for section, rows in sections.items():
        if section == "papers":
            continue
        top = max((n for _v, n in rows), default=1) or 1
        value_w = min(max([len(section)] + [cell_len(terminal_safe(v)) for v, _n in rows]), 48)
        table = Table(title=section, title_justify="left", **TABLE)
        table.add_column(section, no_wrap=True, width=value_w)
        table.add_column("papers", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
        for value, n in rows:
            cell = _safe(value)
            lines = wrap.items([cell], value_w) if section == "tag" else wrap.wrap(cell, value_w)
            table.add_row(_lines(lines), str(n), _bar(n, top, 24))
        tables += ["", table]
    _show(env, Text(f"{sections['papers'][0][1]} papers", style="bold"), *tables)


def settings(env: Environment, where: str, rows: list[tuple[str, str, str]]) -> None:
    """*where* the config file is, then setting | value | where it came from."""
    key_w = max(len(key) for key, _v, _o in rows)
    origin_w = max(6, *(cell_len(o) for _k, _v, o in rows))
    value_w = max(10, min(max(cell_len(v) for _k, v, _o in rows), env.width - key_w - origin_w - 6))
    table = Table(**TABLE)
    table.add_column("setting", no_wrap=True, width=key_w)
    table.add_column("value", no_wrap=True, width=value_w, style="bold")
    table.add_column("from", no_wrap=True, style="dim")
    for key, value, origin in rows:
        value_lines = wrap.items([_safe(value)], value_w)
        table.add_row(key, _lines(value_lines), _lines(wrap.wrap(_safe(origin), origin_w)))
    _show(env, _safe(where), table)
