"""Finding a paper's short name: the method name it introduces (MuonBP, EF21-Muon, ∇-Reasoner).

Three sources, each with its own conservative rule. When no rule fires the short name
stays ``None``: a wrong name would be worse than none, because records are merged on it.

- a digest title: the single-token prefix before a colon (``Celo2: Towards …``) or a
  trailing parenthesised name (``… Verifiable Rewards (VIP)``);
- a Chinese summary: the name right after 提出 ("proposes");
- an English abstract: the name right after "we introduce / propose / present …",
  "called / named …", as ``Long Form (ACR)``, a quoted name, or a dash appositive.

Titles and abstracts are read as LaTeX (the name comes out plain). A word the LaTeX sets
apart in type (``\\textsc{Lumina}``, ``{\\sc Lumina}``, ``\\textbf``, ``\\texttt``,
``\\emph``) counts as a coined name where one is looked for: the authors mark it as a name,
though it reads as a plain word.
"""

from __future__ import annotations

import re

from ..text import CJK_CLASS, SENTENCE_END_RE
from ..text.latex import latex_to_text

_W = rf"(?:(?![{CJK_CLASS}])\w)"  # a word character that is not Chinese/Japanese/Korean
_C = rf"(?:∇|{_W})"
_TOKEN = rf"{_C}(?:[.'’-]?{_C})*\+*"  # EF21-Muon, Qwen2.5-Math-7B, ∇-Reasoner, Πnet
_TOKEN_RE = re.compile(_TOKEN)
_NOT_NAMES = {"AI", "GPU", "GPUs", "LLM", "LLMs", "ML", "NLP", "RL", "SOTA", "TPU", "VS"}


def looks_like_name(token: str) -> bool:
    """A coined name: inner capitals (MuonBP, iJKOnet), digits (Celo2) or a symbol (∇, Π)."""
    if not token or len(token) > 40 or token in _NOT_NAMES:
        return False
    if not any(c.isalpha() for c in token):
        return False
    inner_upper = any(c.isupper() for c in token[1:])
    has_digit = any(c.isdigit() for c in token) and token[0].isalpha()
    has_symbol = any(not c.isascii() for c in token)
    return inner_upper or has_digit or has_symbol


# One capitalised word set apart in type; its reading is kept (_marked).
_MARKED_RE = re.compile(
    r"\\(?:textsc|textbf|texttt|textit|emph)\s*\{([^{}]{1,40})\}"
    r"|\{\\(?:sc|bf|tt|it|em|scshape|bfseries|ttfamily|itshape)\s+([^{}]{1,40})\}"
)


def _marked(raw: str) -> frozenset[str]:
    """The capitalised single words that the LaTeX *raw* sets apart in type, as they read."""
    if "\\" not in raw:
        return frozenset()
    words = (latex_to_text(m.group(1) or m.group(2)).strip() for m in _MARKED_RE.finditer(raw))
    return frozenset(
        w for w in words if _TOKEN_RE.fullmatch(w) and w[0].isupper() and w not in _NOT_NAMES
    )


def _named(token: str, marked: frozenset[str]) -> bool:
    return token in marked or looks_like_name(token)


def _acronym(text: str, marked: frozenset[str] = frozenset()) -> str | None:
    """The content of ``(ACR)`` if it is a name of at most three words (*marked*: the
    words set apart in type)."""
    text = text.strip()
    words = text.split()
    # "(e.g. Qwen2.5)", "(vs. Adam)": an abbreviation's full stop, so no name
    if not 1 <= len(words) <= 3 or len(text) > 30 or re.search(r"[,;:=]|\.\s", text):
        return None
    coined = any(c.isupper() for c in text) and any(_named(w, marked) for w in words)
    acronym = len(words) == 1 and text.isupper() and len(text) >= 2
    if not (coined or acronym):  # "NI Sampling" has a coined word; "(e.g. details)" has none
        return None
    if words[0] in _NOT_NAMES and len(words) == 1:
        return None
    return text


# --- digest titles ---------------------------------------------------------------------

_TRAILING_PAREN_RE = re.compile(r"\(([^()]{1,30})\)\s*$")


def from_title(title: str) -> str | None:
    marked = _marked(title)
    title = latex_to_text(title)
    head, sep, _rest = title.partition(":")
    if sep and head.strip() and " " not in head.strip() and len(head.strip()) <= 30:
        return head.strip()
    m = _TRAILING_PAREN_RE.search(title)
    if m:
        return _acronym(m.group(1), marked)
    return None


# --- Chinese summaries -----------------------------------------------------------------

_CJK = f"[{CJK_CLASS}]"
_LONG_FORM_ACR_RE = re.compile(
    r"提出\s*([A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){1,7})\s*[(（]\s*([^()（）]{1,30}?)\s*[)）]"
)
_DIRECT_RE = re.compile(rf"提出\s*({_TOKEN})")
_AFTER_NOUN_RE = re.compile(rf"提出{_CJK}{{2,14}}?(?:框架|方法|算法|架构|模型|优化器)\s*({_TOKEN})")
_CJK_ACR_RE = re.compile(rf"提出{_CJK}{{2,14}}[(（]\s*([^()（）]{{1,30}}?)\s*[)）]")


def from_summary(summary: str) -> str | None:
    for m in _LONG_FORM_ACR_RE.finditer(summary):
        name = _acronym(m.group(2))
        if name:
            return name
    for m in _DIRECT_RE.finditer(summary):
        if looks_like_name(m.group(1)):
            return m.group(1)
    for regex in (_AFTER_NOUN_RE, _CJK_ACR_RE):
        for m in regex.finditer(summary):
            name = m.group(1) if regex is _AFTER_NOUN_RE else _acronym(m.group(1))
            if name and looks_like_name(name.split()[0]):
                return name
    return None


# --- English abstracts -----------------------------------------------------------------

_TRIGGER_RE = re.compile(
    r"\b(?:(?:we|this (?:paper|work|study)|our (?:work|paper))\s+"
    r"(?:also\s+|further\s+|then\s+|here\s+)?"
    r"(?:introduce|propose|present|develop|put forth|puts forth|design|dub|term)s?d?"
    r"|called|named|dubbed|termed|coined)\b",
    re.IGNORECASE,
)
_SKIP_WORDS = {"a", "an", "the", "our", "novel", "new", "simple", "first"}  # before a name
_QUOTED_RE = re.compile(r"^\s*(?:(?:a|an|the)\s+)?[“\"'‘]([^”\"'’]{1,40})[”\"'’]")
_PAREN_RE = re.compile(r"\(([^()]{1,30})\)")
_DASH_NAME_RE = re.compile(rf"(?:[—–]|-{{2,3}})\s*({_TOKEN})")


def _clause_after(text: str, start: int) -> str:
    """From *start* to the end of the sentence, at most 25 words."""
    m = SENTENCE_END_RE.search(text, start)
    clause = text[start : m.start()] if m else text[start:]
    return " ".join(clause.split()[:25])


def from_abstract(abstract: str) -> str | None:
    text, marked = latex_to_text(abstract), _marked(abstract)
    for trigger in _TRIGGER_RE.finditer(text):
        clause = _clause_after(text, trigger.end())
        m = _QUOTED_RE.match(clause)
        if m and _named(m.group(1).strip(), marked):
            return m.group(1).strip()
        for paren in _PAREN_RE.finditer(clause):
            name = _acronym(paren.group(1), marked)
            if name:
                return name
        words = clause.split()
        while words and words[0].lower() in _SKIP_WORDS:
            words.pop(0)
        if words:
            m = _TOKEN_RE.match(words[0])
            if m and _named(m.group(0), marked):
                return m.group(0)
        m = _DASH_NAME_RE.search(clause)
        if m and _named(m.group(1), marked):
            return m.group(1)
    return None
