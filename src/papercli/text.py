"""Small text helpers shared by parsers, ids, rendering and exports.

Everything here is pure string work: no I/O, no third-party imports at module
level (pylatexenc is imported only by the functions that need it).
"""

from __future__ import annotations

import re
import unicodedata

# Han ideographs (with extensions and compatibility block), kana and Hangul:
# the scripts that are written without spaces between words.
CJK_CLASS = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0002ffff"  # CJK Extensions B..
)
CJK_RE = re.compile(f"[{CJK_CLASS}]")

_WS_RE = re.compile(r"\s+")
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_RE = re.compile(f"[{_DASHES}]")
# C0/C1 control characters except tab and newline, plus DEL.
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANSI_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")


def has_cjk(text: str) -> bool:
    return bool(CJK_RE.search(text))


def collapse_ws(text: str) -> str:
    """Turn every run of whitespace (tabs, newlines, NBSP) into one space and strip."""
    return _WS_RE.sub(" ", text).strip()


def strip_decoration(text: str) -> str:
    """Remove emoji, pictographs, variation selectors and the pilcrow from a header line."""
    out = []
    for ch in text:
        if ch in "\u00b6\u200d\ufe0e\ufe0f":
            continue
        cat = unicodedata.category(ch)
        if cat in ("So", "Cs", "Co", "Cn") or (cat == "Sk" and ord(ch) > 0x2000):
            continue
        out.append(ch)
    return collapse_ws("".join(out))


def fold_key(text: str) -> str:
    """A comparison key: NFKC, case-folded, dashes unified, punctuation and spacing removed.

    Two titles that differ only in case, spacing or dash style get the same key.
    """
    text = unicodedata.normalize("NFKC", text)
    text = _DASH_RE.sub("-", text).casefold()
    return "".join(ch for ch in text if ch.isalnum() or ch in "∇")


def terminal_safe(text: str) -> str:
    """Make untrusted text inert on a terminal: drop ANSI sequences, show other controls visibly."""
    text = _ANSI_RE.sub("", text)
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


# --- ASCII transliteration for ids and citation keys -----------------------------------

_SYMBOL_NAMES = {"∇": "nabla", "∂": "partial", "∞": "inf", "×": "x", "&": "and", "+": "plus"}


def ascii_words(text: str) -> list[str]:
    """Lower-case ASCII words of *text*; Greek letters and math symbols spelled out (∇ → nabla).

    Characters with no ASCII spelling (Chinese, say) are dropped, never guessed.
    """
    pieces: list[str] = []
    for ch in unicodedata.normalize("NFKC", text):
        if ch.isascii():
            pieces.append(ch)
            continue
        if ch in _SYMBOL_NAMES:
            pieces.append(_SYMBOL_NAMES[ch])
            continue
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        if base:
            pieces.append(base)
            continue
        name = unicodedata.name(ch, "")
        if name.startswith("GREEK") and " LETTER " in name:
            pieces.append(name.rsplit(" ", 1)[-1].lower())
        else:
            pieces.append(" ")
    return re.findall(r"[a-z0-9]+", "".join(pieces).lower())


# --- LaTeX and Markdown leftovers in abstracts -------------------------------------------

_MD_EMPH_RE = re.compile(r"(?<![\w*])(\*{1,2}|_{1,2})(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_QUOTE_RE = re.compile(r"``(.+?)(?:''|``|\")")
_MACRO_RE = re.compile(r"\\([A-Za-z]+)")
# $$…$$, $…$, \(…\), \[…\] — a dollar escaped as \$ is not math.
MATH_RE = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S
)
_RAW_SPECIAL_RE = re.compile(MATH_RE.pattern + r"|(?<!\\)[%&#~^]", re.S)
# Outside math, these are literal text in our documents ("95%", "1.4~5.4×", "R&D"), not
# LaTeX syntax: a raw % must never comment out the rest of an abstract. Each travels
# through pylatexenc as a private-use character and is restored afterwards.
_RAW_SPECIALS = {ch: chr(0xE000 + i) for i, ch in enumerate("%&#~^{}")}
_RAW_RESTORE = str.maketrans({v: k for k, v in _RAW_SPECIALS.items()})
_LATEX_HINT_RE = re.compile(r"[\\$`*_~{]|--")


def _latex_converter():
    from pylatexenc.latex2text import LatexNodes2Text

    global _CONVERTER
    if _CONVERTER is None:
        _CONVERTER = LatexNodes2Text(strict_latex_spaces=True)
    return _CONVERTER


_CONVERTER = None
_KNOWN_MACROS: set[str] | None = None


def _protect_lone_braces(text: str) -> str:
    """Braces without a partner are text, not grouping: keep them through pylatexenc."""
    stack: list[int] = []
    lone: list[int] = []
    for i, ch in enumerate(text):
        if ch not in "{}" or (i and text[i - 1] == "\\"):
            continue
        if ch == "{":
            stack.append(i)
        elif stack:
            stack.pop()
        else:
            lone.append(i)
    lone += stack
    if not lone:
        return text
    chars = list(text)
    for i in lone:
        chars[i] = _RAW_SPECIALS[chars[i]]
    return "".join(chars)


def _known_macro(name: str) -> bool:
    global _KNOWN_MACROS
    if _KNOWN_MACROS is None:
        from pylatexenc.latex2text import get_default_latex_context_db

        db = get_default_latex_context_db()
        _KNOWN_MACROS = {m.macroname for cat in db.categories() for m in db.iter_macro_specs([cat])}
    return name in _KNOWN_MACROS


def latex_to_text(text: str) -> str:
    """Plain Unicode reading of text that mixes prose with LaTeX and Markdown emphasis.

    ``x''/``x`` become quotes, \\emph{x} becomes x, $\\times$ becomes ×, \\% becomes %.
    A macro pylatexenc does not know (a paper's private ``\\Ours``) keeps its name as text
    instead of vanishing.
    """
    if not _LATEX_HINT_RE.search(text):
        return text
    text = _RAW_SPECIAL_RE.sub(lambda m: _RAW_SPECIALS.get(m.group(), m.group()), text)
    text = _protect_lone_braces(text)
    text = _QUOTE_RE.sub(lambda m: f"\u201c{m.group(1)}\u201d", text)
    text = _MACRO_RE.sub(lambda m: m.group(0) if _known_macro(m.group(1)) else m.group(1), text)
    text = _MD_EMPH_RE.sub(lambda m: m.group(2), text)
    try:
        plain = _latex_converter().latex_to_text(text)
    except Exception:  # pylatexenc is lenient, but never let a display helper fail
        plain = text
    plain = plain.translate(_RAW_RESTORE)
    return collapse_ws(plain)


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


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of *text* (plain), cut at a word boundary within *limit* characters."""
    m = re.search(r"(?<=[.!?])\s+(?=[A-Z(\"“])", text)
    sentence = text[: m.start()] if m else text
    return shorten(sentence, limit)


def shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"
