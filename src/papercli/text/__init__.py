"""Small text helpers shared by parsers, ids, rendering and exports (``latex``: LaTeX and
Markdown leftovers read as plain text).

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
# English function words: not searched for (analysis), not put in ids (ids), not counted
# when a title is compared with an abstract (merge). One list, so that all three agree.
STOP_WORDS = frozenset(
    "a an and are as at be by for from in into is it of on or our that the this to towards "
    "via was we were with".split()
)

# A word written in hyphenated parts (multi-modal, state-of-the-art, GPT-4): two to four
# runs of ASCII letters and digits, not part of a longer identifier (Qwen2.5-Math-7B).
# Indexed as its parts and as one word (search.analysis); a query asks for both.
HYPHENATED_RE = re.compile(
    r"(?<![A-Za-z0-9_.-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+){1,3}"
    r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9])"
)

UNTITLED = "(untitled)"  # flags a derived label wherever one is shown (a query drops it)
UNTITLED_NOTE = f"{UNTITLED}: label derived from the abstract"  # (papers show's form)
_WS_RE = re.compile(r"\s+")
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASH_RE = re.compile(f"[{_DASHES}]")
_NOT_KEY_RE = re.compile(r"[^\w∇]|_")  # \w is str.isalnum() plus "_"
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
    text = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_KEY_RE.sub("", text)


_ASCII_CONTROLS = bytes([*range(0x09), *range(0x0B, 0x20), 0x7F])  # (_CONTROL_RE's, ASCII)


def strip_controls(text: str) -> str:
    """Text with terminal escape sequences and control characters removed (for indexing)."""
    # A long ASCII text (an abstract) is checked by deleting its control bytes, a C loop
    # faster than isprintable from about 300 characters on.
    if len(text) > 300 and text.isascii():
        raw = text.encode("ascii")
        if len(raw.translate(None, _ASCII_CONTROLS)) == len(raw):
            return text
    elif text.isprintable():  # (no control character: 10x faster than the search below)
        return text
    if "\x1b" not in text and not _CONTROL_RE.search(text):
        return text
    return collapse_ws(_CONTROL_RE.sub(" ", _ANSI_RE.sub(" ", text)))


# Bidirectional formatting controls: invisible, yet they reorder what a reader sees around
# them (U+202E turns "txt.exe" into "exe.txt"); shown as <U+202E> wherever text is shown.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_BIDI_RE = re.compile(f"[{BIDI_CONTROLS}]")
_UNSAFE_RE = re.compile(f"\x1b|[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")


def _bidi_shown(match: re.Match) -> str:
    return f"<U+{ord(match.group()):04X}>"


def terminal_safe(text: str) -> str:
    """Make untrusted text inert on a terminal: drop ANSI sequences, show other controls
    visibly (``\\x07``, ``<U+202E>``)."""
    if not _UNSAFE_RE.search(text):
        return text
    text = _BIDI_RE.sub(_bidi_shown, _ANSI_RE.sub("", text))
    return _CONTROL_RE.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def inert(text: str) -> str:
    """Untrusted text for an export: terminal escape sequences and control characters
    (but tab and newline) removed, bidirectional controls shown as ``<U+202E>``. What a
    document said stays in the record; no export carries it to a terminal or a reader."""
    if not _UNSAFE_RE.search(text):
        return text
    text = _CONTROL_RE.sub("", _ANSI_RE.sub("", text))
    return _BIDI_RE.sub(_bidi_shown, text)


def escaped_json(text: str) -> str:
    """JSON text with DEL, C1 controls and bidirectional controls written as \\uXXXX escapes
    (``json.dumps(…, ensure_ascii=False)`` escapes only C0 controls): the same data, inert
    as bytes."""
    return _ESCAPE_IN_JSON_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_ESCAPE_IN_JSON_RE = re.compile(f"[\x7f-\x9f{BIDI_CONTROLS}]")


# --- ASCII transliteration for ids and citation keys -----------------------------------

_SYMBOL_NAMES = {"∇": "nabla", "∂": "partial", "∞": "inf", "×": "x", "&": "and", "+": "plus"}


def ascii_words(text: str) -> list[str]:
    """Lower-case ASCII words of *text*; Greek letters and math symbols spelled out (∇ → nabla).

    Characters with no ASCII spelling (Chinese, say) are dropped, never guessed, and so are
    terminal escape sequences (``\x1b[31m`` does not make an id ``31mred``).
    """
    text = unicodedata.normalize("NFKC", strip_controls(text))
    if text.isascii():  # (the usual case: no character to spell, 20x faster)
        return _ASCII_WORD_RE.findall(text.lower())
    pieces: list[str] = []
    for ch in text:
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
    return _ASCII_WORD_RE.findall("".join(pieces).lower())


_ASCII_WORD_RE = re.compile(r"[a-z0-9]+")


# Where a sentence ends, one rule for every cut (labels, derived titles, short names, the
# sentences of passing mentions): at 。！？, or at . ! ? before a space and a word that is
# not lower case (or the text's end). A decimal point or a version (2.7%, Qwen2.5, v2.0)
# has no space after it, and an abbreviation's full stop (e.g., et al., Fig. 3) is none:
# "提升 2" for "提升 2.7%", or a label ending at "e.g.", misstates the paper.
ABBREVIATIONS = (
    *("e.g", "i.e", "et al", "vs", "cf", "approx", "resp", "w.r.t", "a.k.a", "viz", "incl"),
    *("Fig", "Figs", "Eq", "Eqs", "Sec", "Secs", "Tab", "Alg", "Thm", "Ref", "Refs", "Appx"),
)
_NOT_AN_ABBREVIATION = "".join(  # (after the mark: the look-behinds run only at a mark)
    rf"(?<!\b{re.escape(a)}\.)"
    for w in ABBREVIATIONS
    for a in sorted({w, w.lower(), w.capitalize()})
)
SENTENCE_END = rf"[。！？]|[.!?]{_NOT_AN_ABBREVIATION}(?=\s*$|\s+[^\sa-z])"
SENTENCE_END_RE = re.compile(SENTENCE_END)


def first_sentence(text: str, limit: int = 160) -> str:
    """The first sentence of *text* (plain, its end kept), cut at a word boundary within
    *limit* characters."""
    m = SENTENCE_END_RE.search(text)
    sentence = text[: m.end()] if m else text
    return shorten(sentence.strip(), limit)


def fit_cells(text: str, cells: int) -> str:
    """*text* cut to *cells* terminal columns (a Chinese character takes two), with "…"."""
    import unicodedata

    used = 0
    for i, ch in enumerate(text):
        used += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        if used > cells - 1:
            return text[:i].rstrip() + "…"
    return text


def shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"
