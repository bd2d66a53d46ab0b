"""How a query's plain words read: a word as Whoosh syntax (a sign, punctuation around
it, a common word left out, its American spelling), a hyphenated word in both spellings,
a year or a known venue as that field too, two words written solid, LaTeX as text.

In: a word of the query as ``rewrite`` cuts it. Out: the word in Whoosh syntax.
"""

from __future__ import annotations

import re

from ...text import HYPHENATED_RE, STOP_WORDS
from .syntax import ASKING_WORDS, FIELD_RE

# Punctuation around a pasted word (Whoosh would read ? as a wildcard, 'x' as a term,
# [ { as ranges, ^ as a boost); * and ~ stay: they are ours (prefix, fuzzy). A percent sign
# too (44.3% is 44.3, as the index reads it; 稳定性% found 1 of the 4 papers of 稳定性).
_EDGE_PUNCT = "?!&,;.:'`^[]{}<>=|/\\-+%％‐‑‒–—―−…。，、；：！？“”‘’《》（）【】「」『』"
# Inside a word: what Whoosh would read as syntax, and Chinese brackets (数据（Generator）+:
# Whoosh's parser cut the word at the bracket, and "+" became a word of its own).
_INNER_SYNTAX_RE = re.compile(r"[\[\]{}^<>='（）【】「」『』]")
# A possessive: the word itself (LLM's reasoning is LLM reasoning; the index reads "LLM's"
# as llm and s).
_POSSESSIVE_RE = re.compile(r"(?<=\w)['’][sS]$")
_BARE_YEAR_RE = re.compile(r"(?:19|20)\d\d")
LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
FUZZY_RE = re.compile(r"([A-Za-z][A-Za-z-]*)~([12]?)")


def written_solid(out: list[str], latin: set[int], gaps: dict, solid) -> dict[int, str]:
    """Position -> the word it and the next make written solid, where the index holds that
    word: two plain Latin words next to each other (no common word left out between)."""
    if solid is None:
        return {}
    pairs = {
        n: (out[n] + out[n + 1]).lower()
        for n in sorted(latin)
        if n + 1 in latin and not gaps.get(n + 1)
    }
    known = solid(sorted(set(pairs.values()))) if pairs else set()
    return {n: word for n, word in pairs.items() if word in known}


def as_field(tok: str) -> str:
    """A year or a known venue typed as a word is also that field's value: the word or the
    field (no paper's text says "2026" or "ICLR", so ``muon ICLR 2026`` found nothing);
    ``ICLR2026`` is both. A venue asked for by field is read through its aliases."""
    from ...venues import VENUE_YEAR_RE, known_venue

    sign, word = ("NOT ", tok[4:]) if tok.startswith("NOT ") else ("", tok)
    if word[:6].lower() == "venue:" and (venue := known_venue(word[6:])):
        return f"{sign}venue:{venue}"  # (venue:NIPS is NeurIPS, as the parser reads it)
    if _BARE_YEAR_RE.fullmatch(tok):
        return f"({tok} OR year:{tok})"
    if not tok.isascii() or not tok[:1].isalpha():
        return tok
    if venue := known_venue(tok):
        return f"({tok} OR venue:{venue})"
    m = VENUE_YEAR_RE.fullmatch(tok)
    if m and (venue := known_venue(m[1])):
        return f"({tok} OR (venue:{venue} AND year:{m[2]}))"
    return tok


def both_spellings(tok: str) -> str:
    """A hyphenated word asks for its parts and for the word written as one (``multi-modal``
    finds "multimodal", and the index holds "multi-modal" as both: ``analysis``), in its
    field if it has one (``title:multi-modal``)."""
    sign, word = ("NOT ", tok[4:]) if tok.startswith("NOT ") else ("", tok)
    field, _, value = word.rpartition(":") if FIELD_RE.match(word) else ("", "", word)
    if field in ("tag", "venue", "year", "category"):  # (names, not text: as they are)
        return tok
    if "-" not in value or not HYPHENATED_RE.fullmatch(value):
        return tok
    return f"{sign}{field + ':' if field else ''}({value} OR {value.replace('-', '')})"


def read_latex(text: str) -> str:
    """*text* with its LaTeX read as the index reads a record's: a title pasted from a .bib
    file or an arXiv listing (``Tuning … with $\\mu$P``, ``Schr\\"{o}dinger``) is indexed
    as ``μP``, ``Schrödinger``; an abstract's LaTeX quotes (````winner"``) as “winner”.
    Only a query with a backslash, a dollar sign or two backticks is read so: elsewhere
    ``*``, ``_`` and ``--`` are the query's own (a prefix, a word, two dashes)."""
    if "\\" not in text and "$" not in text and "``" not in text:
        return text
    from ...text.latex import latex_to_text

    return latex_to_text(text)


def _normalize(text: str) -> str:
    from ...text.variants import normalize

    return normalize(text)


def plain_word(tok: str, common: list[str], signed: bool = True) -> str:
    """A plain word of the query as Whoosh syntax: ``-word`` → ``NOT word``, ``+word`` →
    ``word`` (when *signed*: the word starts after a space), punctuation around it
    dropped, a common word (noted in *common*) or one of signs only (``√``, ``+``)
    dropped."""
    sign = ""
    if signed and len(tok) > 1 and tok[0] in "-+" and tok[1] not in "-+":
        sign, tok = ("NOT " if tok[0] == "-" else ""), tok[1:]
    tok = _INNER_SYNTAX_RE.sub(" ", _POSSESSIVE_RE.sub("", tok.strip(_EDGE_PUNCT))).strip()
    # *task-specific*: Markdown emphasis, read as the index reads it (no word begins with
    # a wildcard).
    if tok.startswith("*"):
        tok = tok.strip("*")
    # 1.4~5.4× (a range, pasted) is punctuation: Whoosh read it as 5 edits of "1.4".
    if "~" in tok and not FUZZY_RE.fullmatch(tok):
        tok = " ".join(tok.replace("~", " ").split())
    if not tok.strip("*?~") or not any(c.isalnum() or c == "∇" for c in tok):
        return ""  # (only signs: √, +, →; the index holds no such word)
    folded = tok.lower() if tok.isascii() else _normalize(tok).lower()  # (關於 is 关于)
    if folded in STOP_WORDS or folded in ASKING_WORDS:
        common.append(tok.lower())
        return ""
    if tok.isascii() and tok.isalpha():  # (the text is indexed so; the tag field is not)
        from ...text.variants import american_as_typed

        tok = american_as_typed(tok)
    if " " in tok:  # (O'Neil, x^2: the pieces as a phrase, the way the text is indexed)
        tok = f'"{tok}"'
    return sign + tok
