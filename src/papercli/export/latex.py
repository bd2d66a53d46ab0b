"""Text → LaTeX that compiles: prose escaped, math kept, capitals protected.

Record text mixes prose with LaTeX leftovers (``\\emph{}``, ``\\%``, ``$K$``, ``\\( … \\)``,
a paper's private ``\\Ours``). The prose is first read as plain Unicode (so ``\\emph{x}``
is ``x`` and ``\\%`` is ``%``), then escaped for LaTeX; math is kept as math with only
the characters that would break a build (``%``, ``#``, ``&``) escaped.
"""

from __future__ import annotations

import re

from ..text import CJK_CLASS
from ..text.latex import latex_to_text, segments_of_math

_SPECIALS = {
    "\\": r"\textbackslash{}",
    # not \{ \}: BibTeX counts those braces too, and a lone one breaks the file
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
_SPECIAL_RE = re.compile(r"[\\{}&%$#_~^]")
_MATH_ESCAPE_RE = re.compile(r"(?<!\\)([%#&])")


class Unencodable(ValueError):
    """A character with no LaTeX spelling in ASCII mode (Chinese text, say)."""


def _encoder():
    from pylatexenc.latexencode import (
        RULE_REGEX,
        UnicodeToLatexConversionRule,
        UnicodeToLatexEncoder,
    )

    global _ENCODER
    if _ENCODER is None:
        _ENCODER = UnicodeToLatexEncoder(
            conversion_rules=[
                UnicodeToLatexConversionRule(RULE_REGEX, [(re.compile("\u00a0"), "~")]),
                "defaults",
            ],
            non_ascii_only=True,
            unknown_char_policy="fail",
            unknown_char_warning=False,  # (papers reports such characters itself, once)
            replacement_latex_protection="braces-all",
        )
    return _ENCODER


_ENCODER = None
# What pdflatex's utf8 inputenc typesets by itself: Latin letters with accents and the
# usual typographic punctuation. CJK is kept too: no ASCII spelling exists for it.
_PDFLATEX_SAFE_RE = re.compile(
    f"[\u00a1-\u00ff\u0100-\u024f\u2013\u2014\u2018\u2019\u201c\u201d\u2026"
    f"{CJK_CLASS}\u3000-\u303f\uff00-\uffef]"
)


def _encode_unicode(text: str, ascii_only: bool) -> str:
    """Spell non-ASCII characters in LaTeX: all of them (ASCII mode), or just those that
    pdflatex cannot typeset from UTF-8 (∇, Π, ×) in UTF-8 mode."""
    if text.isascii():
        return text
    encoder = _encoder()
    out = []
    for ch in text:
        if ch.isascii() or (not ascii_only and _PDFLATEX_SAFE_RE.match(ch)):
            out.append(ch)
            continue
        try:
            out.append(encoder.unicode_to_latex(ch))
        except ValueError as exc:
            if ascii_only:
                raise Unencodable(str(exc)) from None
            out.append(ch)
    return "".join(out)


def escape_text(text: str, ascii_only: bool) -> str:
    """Plain Unicode prose → LaTeX source (specials escaped; non-ASCII spelled in ASCII mode)."""
    escaped = _SPECIAL_RE.sub(lambda m: _SPECIALS[m.group()], text)
    return _encode_unicode(escaped, ascii_only)


def _math(body: str, ascii_only: bool) -> str:
    body = " ".join(body.split())
    return "$" + _encode_unicode(_MATH_ESCAPE_RE.sub(r"\\\1", body), ascii_only) + "$"


def to_latex(text: str, ascii_only: bool, protect_caps: bool = False) -> str:
    """Record text → LaTeX for a BibTeX field value (braces balanced, nothing unescaped)."""
    pieces = []
    for is_math, body in segments_of_math(text):
        if is_math:
            math = _math(body, ascii_only)
            pieces.append("{" + math + "}" if protect_caps else math)
            continue
        plain = latex_to_text(body) if body.strip() else body
        if body[:1].isspace():
            plain = " " + plain.lstrip()
        if body[-1:].isspace():
            plain = plain.rstrip() + " "
        if protect_caps:
            pieces.append(_protect_words(plain, ascii_only))
        else:
            pieces.append(escape_text(plain, ascii_only))
    return " ".join("".join(pieces).split())


def _protect_words(plain: str, ascii_only: bool) -> str:
    """Brace every word that has a capital, so styles cannot lower-case Muon or GSM8K."""
    out = []
    for word in re.split(r"(\s+)", plain):
        if not word or word.isspace():
            out.append(word)
        elif any(c.isupper() for c in word):
            out.append("{" + escape_text(word, ascii_only) + "}")
        else:
            out.append(escape_text(word, ascii_only))
    return "".join(out)
