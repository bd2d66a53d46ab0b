"""LaTeX and Markdown leftovers in abstracts and summaries, read as plain Unicode text.

    ``iJKOnet``          → “iJKOnet”            \\emph{principle} → principle
    5\\%-10\\%             → 5%-10%               $\\times$, \\(\\tilde{O}(T)\\) → ×, Õ(T)
    *end-to-end*         → end-to-end           schemes---KL-Shampoo → schemes—KL-Shampoo
    \\Ours-7B             → Ours-7B (a macro nobody defined keeps its name)

Only the LaTeX pieces of a text (math, a macro with its arguments, an escaped character)
go through pylatexenc, one small piece at a time and cached; the prose around them is
handled by a few regular expressions. pylatexenc on a whole abstract costs ~25 ms; this
costs a fraction of a millisecond. Outside math, ``% & # ~ ^`` are text, as in plain
documents ("95%", "1.4~5.4×", "R&D"): a raw % never comments out the rest of an abstract.
Braces with no partner are text too; balanced ones are LaTeX grouping.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from functools import lru_cache

# $$…$$, $…$, \(…\), \[…\] — a dollar escaped as \$ is not math.
MATH_RE = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S
)
_ARG = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"  # a braced argument, nested 3 deep
_MACRO = rf"\\[A-Za-z]+\*?(?:\[[^\]{{}}]*\])?(?:{_ARG})*"
# The lookahead lets the engine skip to a possible first character: 8× faster on abstracts.
_PIECE_RE = re.compile(
    r"(?=[\\$`-])"
    rf"(?:(?P<math>{MATH_RE.pattern})"
    rf"|(?P<macro>{_MACRO})"
    r"|(?P<accent>\\['\"`^~=.](?:\{[A-Za-z]?\}|[A-Za-z]))"
    r"|(?P<escape>\\[%&#$_{}\\ ])"
    r"|(?P<quote>``(?P<quoted>.+?)(?:''|``|\"))"
    r"|(?P<dash>-{2,3}))",
    re.S,
)
_MD_EMPH_RE = re.compile(r"(?<![\w*])(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_BRACE_RE = re.compile(r"(?<!\\)[{}]")
_MACRO_END_RE = re.compile(r"\\[A-Za-z]+$")
_HINT_RE = re.compile(r"(?=[\\$`*_{-])(?:[\\$`*_{]|--)")
_WS_RE = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _converter():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(strict_latex_spaces=True)


@lru_cache(maxsize=1)
def _known_macros() -> frozenset[str]:
    from pylatexenc.latex2text import get_default_latex_context_db

    db = get_default_latex_context_db()
    return frozenset(m.macroname for cat in db.categories() for m in db.iter_macro_specs([cat]))


@lru_cache(maxsize=1)
def _encoded_chars() -> dict[str, str]:
    """Macro name → character, from pylatexenc's own Unicode-to-LaTeX table."""
    from pylatexenc.latexencode import get_builtin_uni2latex_dict

    out = {}
    for code, latex in get_builtin_uni2latex_dict().items():
        m = re.fullmatch(r"\\([A-Za-z]+)(?:\{\})?", latex.strip())
        if m:
            out.setdefault(m.group(1), chr(code))
    return out


@lru_cache(maxsize=4096)
def _latex_piece(piece: str) -> str:
    """One math span or one macro call, through pylatexenc (raw ^ and ~ kept as text)."""
    try:
        return _converter().latex_to_text(piece)
    except Exception:  # pylatexenc is lenient; never let a display helper fail
        return piece


# Text macros our own BibTeX export writes, read back exactly (pylatexenc lacks or alters them).
_OWN_MACROS = {
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciicircum": "^",
    "textasciitilde": "~",
    "textbackslash": "\\",
}


# Font switches ({\em words}, {\bf words}) change how the words look, and are no words:
# read as their names they came out as "em some words".
_SWITCHES = frozenset(
    "em bf it sc sl tt rm sf up md bfseries mdseries itshape scshape slshape upshape "
    "ttfamily rmfamily sffamily normalfont tiny scriptsize footnotesize small normalsize "
    "large Large LARGE huge Huge".split()
)


# Font commands that take their words as an argument, which pylatexenc does not know:
# read as an unknown macro, \texttt{FooBar} came out as "textttFooBar".
_FONT_COMMANDS = frozenset("texttt textsf textup textmd textnormal mbox hbox uline".split())


def _macro(piece: str) -> str:
    name = re.match(r"\\([A-Za-z]+)", piece).group(1)
    if name in _SWITCHES and piece[len(name) + 1 :] in ("", "{}"):
        return ""
    if name in _FONT_COMMANDS and piece[len(name) + 1 :]:  # (\uline{a}{b}: b is grouped text)
        return "".join(_prose(_ungroup(a[1:-1])) for a in re.findall(_ARG, piece[len(name) + 1 :]))
    if name in _OWN_MACROS and piece[len(name) + 1 :] in ("", "{}"):
        return _OWN_MACROS[name]
    if name not in _known_macros() and piece[len(name) + 1 :] in ("", "{}"):
        char = _encoded_chars().get(
            name
        )  # \textrightarrow, which pylatexenc writes but cannot read
        if char:
            return char
    if name in _known_macros():
        args = piece[len(name) + 1 :]
        # convert the arguments' own prose first, so "\emph{5% of it}" keeps its %
        inner = re.sub(_ARG, lambda m: "{" + _prose(m.group()[1:-1]) + "}", args)
        return _latex_piece("\\" + name + _escape_for_latex(inner))
    rest = piece[len(name) + 1 :]
    return name + _prose(re.sub(r"^\*|[{}]", "", rest)) if rest else name


def _escape_for_latex(text: str) -> str:
    # inside a known macro's argument, keep literal specials literal through pylatexenc
    return re.sub(r"(?<!\\)([%&#])", r"\\\1", text)


def _emphasis(prose: str) -> str:
    """Markdown emphasis read as text: *end-to-end* → end-to-end."""
    return _MD_EMPH_RE.sub(r"\2", prose) if ("*" in prose or "_" in prose) else prose


def _prose(text: str) -> str:
    out = []
    pos = 0
    for m in _PIECE_RE.finditer(text):
        out.append(_emphasis(text[pos : m.start()]))
        piece = m.group()
        if m.group("math") is not None:
            out.append(_latex_piece(piece))
        elif m.group("macro") is not None:
            out.append(_macro(piece))
        elif m.group("accent") is not None:
            out.append(_latex_piece(piece))
        elif m.group("escape") is not None:
            out.append(piece[1] if piece[1] != "\\" else "\\")
        elif m.group("quote") is not None:
            out.append(f"\u201c{_prose(m.group('quoted'))}\u201d")
        else:
            out.append("\u2014" if len(piece) == 3 else "\u2013")
        pos = m.end()
    out.append(_emphasis(text[pos:]))
    return "".join(out)


def _ungroup(text: str) -> str:
    """Drop balanced grouping braces in the prose between LaTeX pieces (``{\\ensuremath{\\Pi}}net``
    → ``\\ensuremath{\\Pi}net``); braces with no partner stay: they are text.

    Only the braces are visited (a per-character loop cost a millisecond an abstract)."""
    if "{" not in text:
        return text
    spans = [(m.start(), m.end()) for m in _PIECE_RE.finditer(text)]
    starts = [start for start, _end in spans]
    stack: list[int] = []
    drop: list[int] = []
    for m in _BRACE_RE.finditer(text):
        i = m.start()
        k = bisect_right(starts, i) - 1
        if k >= 0 and i < spans[k][1]:
            continue  # part of a macro's arguments, math or an escape
        if text[i] == "{":
            stack.append(i)
        elif stack:
            drop += (stack.pop(), i)
    if not drop:
        return text
    out: list[str] = []
    pos = 0
    for i in sorted(drop):
        out.append(text[pos:i])
        if text[i] == "}" and _MACRO_END_RE.search(text, max(0, i - 40), i):
            out.append("{}")  # "{\\textrightarrow}LLM": keep the macro's name from running on
        pos = i + 1
    out.append(text[pos:])
    return "".join(out)


def latex_to_text(text: str) -> str:
    """Plain Unicode reading of prose that carries LaTeX and Markdown leftovers. Text with
    none of their marks is returned as it is, without importing pylatexenc."""
    if not _HINT_RE.search(text):
        return text
    return _reading(text)


@functools.lru_cache(maxsize=256)
def _reading(text: str) -> str:
    """(Memoised: indexing a record reads each of its texts three times, for its fields,
    its plain readings and its concepts. A cache of 4,096 whole texts held ~10 MB in each
    process of a 100,000-paper ingest, and past that many texts kept nothing from merging
    to indexing anyway.)"""
    return _WS_RE.sub(" ", _prose(_ungroup(text))).strip()


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{}" and i and text[i - 1] == "\\":
            continue
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0


def segments_of_math(text: str) -> list[tuple[bool, str]]:
    """Split *text* into (is_math, content) pieces; math with unbalanced braces stays prose."""
    out: list[tuple[bool, str]] = []
    pos = 0
    for m in MATH_RE.finditer(text):
        body = next(g for g in m.groups() if g is not None)
        if not _balanced(body) or not body.strip():
            continue
        if m.start() > pos:
            out.append((False, text[pos : m.start()]))
        out.append((True, body.strip()))
        pos = m.end()
    if pos < len(text):
        out.append((False, text[pos:]))
    return out
