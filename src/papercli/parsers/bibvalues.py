"""BibTeX field values read the way BibTeX reads them: ``{…}`` and ``"…"`` pieces, numbers
and macros, joined by ``#``.

bibtexparser 2 keeps ``"Proc. " # iclr`` as that literal text and resolves a macro only
when it is a field's whole value (its issue #396), so papers reads the raw values itself.
A macro is an ``@string`` of the file or one of the month names every BibTeX style
defines; an undefined one reads as empty, as BibTeX reads it, and is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MONTHS = {
    m[:3].lower(): m
    for m in (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    )
}

_NUMBER_RE = re.compile(r"\d+")
_MACRO_RE = re.compile(r"[^\s#{}\"=,()%']+")


class Unreadable(ValueError):
    """A value BibTeX could not read (an unclosed brace or quote, a stray character)."""


@dataclass
class Reading:
    """A value's text and the undefined macros it named."""

    text: str
    undefined: list[str] = field(default_factory=list)


def _braced(raw: str, start: int) -> int:
    """The index just past the ``}`` that closes the ``{`` at *start*."""
    depth = 0
    for i in range(start, len(raw)):
        if raw[i] == "{":
            depth += 1
        elif raw[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise Unreadable("an unclosed brace")


def _quoted(raw: str, start: int) -> int:
    """The index just past the ``"`` that closes the one at *start* (not inside braces)."""
    depth = 0
    for i in range(start + 1, len(raw)):
        if raw[i] == "{":
            depth += 1
        elif raw[i] == "}":
            depth -= 1
        elif raw[i] == '"' and depth == 0:
            return i + 1
    raise Unreadable("an unclosed quote")


def read(raw: str, macros: dict[str, str]) -> Reading:
    """The text of the raw value *raw*; *macros* are the file's ``@string``s, by lower-case
    name, already read."""
    out, undefined, i = [], [], 0
    while True:
        while i < len(raw) and raw[i].isspace():
            i += 1
        if i == len(raw):
            break
        if raw[i] == "{":
            end = _braced(raw, i)
            out.append(raw[i + 1 : end - 1])
        elif raw[i] == '"':
            end = _quoted(raw, i)
            out.append(raw[i + 1 : end - 1])
        elif m := _NUMBER_RE.match(raw, i):
            end = m.end()
            out.append(m.group())
        elif m := _MACRO_RE.match(raw, i):
            end, name = m.end(), m.group().lower()
            if name in macros:
                out.append(macros[name])
            elif name in MONTHS:
                out.append(MONTHS[name])
            else:
                undefined.append(m.group())
        else:
            raise Unreadable(f"an unexpected {raw[i]!r}")
        i = end
        while i < len(raw) and raw[i].isspace():
            i += 1
        if i < len(raw):
            if raw[i] != "#":
                raise Unreadable(f"an unexpected {raw[i]!r} (pieces are joined by #)")
            i += 1
    return Reading("".join(out), undefined)
