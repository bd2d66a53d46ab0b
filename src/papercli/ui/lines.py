"""A result's row in the list and a paper's details, as ``rich.text.Text`` lines laid out
for a width in terminal cells.

Record text is never markup: every piece is a ``Text`` made from the value, control
characters shown visibly (``terminal_safe``), so ``[mask]``, ``[bold]`` or an escape
sequence in a record reads as written. Lines are broken by display width where Unicode
line breaking allows (``render.wrap``: Chinese between characters, never before 。),
so no character is ever cut. Matched words carry ``MATCH``: bold and underlined as well
as coloured, so they stand out without colour (NO_COLOR) too.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ..render import wrap
from ..render.tables import authors_line
from ..search.questions.search import IN_PASSING
from ..search.results.hits import Hit
from ..search.results.marking import mark, plain, segments
from ..text import UNTITLED, strip_controls, terminal_safe

MATCH = "bold underline yellow"
MARKER = "*"  # a marked paper's sign in the list: ASCII, one cell in every terminal
MARKED = "bold reverse"  # (seen without colour too: NO_COLOR greys every colour)
PASSING = "in passing"  # a paper naming the query's concepts only in passing (as search)
GAP = 2  # cells between the list's columns
VENUE_MAX = 16
AUTHORS_SHOWN = 12


def _safe(value: object, style: str = "") -> Text:
    return Text(terminal_safe(str(value)), style=style)


def marked_text(text: str, terms: frozenset[str], words: list[str], style: str = "") -> Text:
    """*text* with the query's *terms* marked (as search marks a snippet, over the whole
    text), and the *words* a snippet marked wherever they stand (a paper found through
    the glossary: its own words for the query's concept)."""
    clean = strip_controls(text)
    marked = mark(clean, terms) if terms else None
    out = Text(style=style)
    for piece, is_match in segments(terminal_safe(marked or clean)):
        out.append(piece, MATCH if is_match else "")
    words = [w for w in words if w.strip()]
    if words:
        out.highlight_words(words, MATCH)
    return out


def _title(hit: Hit, style: str = "") -> Text:
    if hit.data.get("title"):
        title = hit.title_marked or hit.label
        return (
            marked_text(title, frozenset(), [], style) if hit.title_marked else _safe(title, style)
        )
    out = _safe(hit.label, f"{style} italic")
    out.append(f" {UNTITLED}", style="dim")
    return out


def _venue(hit: Hit) -> str:
    data = hit.data
    return terminal_safe(f"{data.get('venue') or ''} {data.get('year') or ''}".strip())


def _tags(hit: Hit) -> str:
    return terminal_safe(", ".join(hit.data.get("tags") or ()))


# --- the list ------------------------------------------------------------------------------


def columns(hits: list[Hit], width: int) -> tuple[int, int]:
    """The venue and tag columns' widths for a list *width* cells wide: as wide as their
    longest value, within bounds; the title column gets the rest (at least half)."""
    venue_w = min(VENUE_MAX, max([0, *(cell_len(_venue(h)) for h in hits)]))
    tags_w = min(max(0, width // 4), max([0, *(cell_len(_tags(h)) for h in hits)]))
    if width - venue_w - tags_w - 2 * GAP - 2 < width // 2:
        tags_w = 0  # (a narrow list: the tags are in the detail pane)
    return venue_w, tags_w


def row(hit: Hit, width: int, marked: bool, widths: tuple[int, int]) -> Text:
    """One line of the list: the marker, the title (matched words marked; "in passing"
    for a passing mention), venue and year, tags: *width* cells (its columns padded, or
    cut), never cut inside a character."""
    venue_w, tags_w = widths
    title_w = max(
        4, width - 2 - (venue_w + GAP if venue_w else 0) - (tags_w + GAP if tags_w else 0)
    )
    line = Text()
    line.append(MARKER, style=MARKED) if marked else line.append(" ")
    line.append(" ")
    title = _title(hit)
    if hit.passing:
        title.append(f" · {PASSING}", style="dim italic")
    title.truncate(title_w, overflow="ellipsis", pad=True)
    line.append_text(title)
    if venue_w:
        venue = Text(" " * GAP + _venue(hit), style="dim")
        venue.truncate(GAP + venue_w, overflow="ellipsis", pad=True)
        line.append_text(venue)
    if tags_w:
        tags = Text(" " * GAP + _tags(hit), style="green")
        tags.truncate(GAP + tags_w, overflow="ellipsis", pad=True)
        line.append_text(tags)
    line.truncate(width, overflow="ellipsis")
    return line


# --- the detail pane -----------------------------------------------------------------------


def _through(snippet: str | None) -> str | None:
    """How the glossary bridged the query, as the snippet of a paper found only through it
    says (``大语言模型 → large language models``); None for any other snippet."""
    if not snippet:
        return None
    head, sep, _passage = plain(snippet).removeprefix(IN_PASSING).partition(": ")
    return head if sep and " → " in head else None


def _heading(name: str) -> Text:
    return Text(name, style="bold dim")


def detail(hit: Hit, width: int, marked: bool = False) -> list[Text]:
    """A paper for the detail pane, *width* cells wide: title, authors, venue and year;
    how it matched; the Chinese summary and the English abstract with the matched words
    marked; tags, links and the id."""
    width = max(10, width)
    data = hit.data
    words = [piece for piece, is_match in segments(hit.snippet or "") if is_match]
    lines = wrap.wrap(_title(hit, "bold"), width)
    if data.get("authors"):
        lines += wrap.wrap(_safe(authors_line(data["authors"], AUTHORS_SHOWN)), width)
    where = _venue(hit)
    if data.get("kind"):
        where += f" · {terminal_safe(data['kind'])}"
    if marked:
        where += f" · {MARKER} marked"
    if where:
        lines += wrap.wrap(Text(where.removeprefix(" · "), style="dim"), width)
    if hit.passing:
        lines += wrap.wrap(Text("names the query's concepts only in passing", "dim italic"), width)
    through = _through(hit.snippet)
    if through:
        lines += wrap.wrap(Text("found through ", "dim") + _safe(through), width)
    for name, heading in (("summary_zh", "中文摘要 summary"), ("abstract", "abstract")):
        text = hit.text(name)
        if text:
            lines += [Text(""), _heading(heading)]
            lines += wrap.wrap(marked_text(text, hit.terms, words), width)
    lines.append(Text(""))
    if data.get("tags"):
        lines += wrap.items(
            [_safe("tags", "bold dim")] + [_safe(t, "green") for t in data["tags"]], width, "  "
        )
    for url in data.get("urls") or ():
        lines += wrap.items([_safe("link", "bold dim"), _safe(url, "blue underline")], width, "  ")
    lines += wrap.items([_safe("id", "bold dim"), _safe(hit.id, "cyan")], width, "  ")
    if data.get("citekey") and data["citekey"] != hit.id:
        lines += wrap.items([_safe("key", "bold dim"), _safe(data["citekey"], "cyan")], width, "  ")
    return lines
