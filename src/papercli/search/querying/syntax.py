"""The search query language: checked first, then handed to Whoosh's parser.

    muon                        all text fields: title, short name, authors, keywords, tags,
                                abstract, summary
    muon adam                   both words (AND is the default)
    muon OR adam, muon NOT adam boolean operators (upper case), with ( ) for grouping
    "vehicle routing"           a phrase; Chinese phrases too ("联邦学习框架")
    optim*                      a prefix
    federatd~                   a fuzzy word (one edit away; ~2 for two)
    title:muon  name:QZO  author:smith  keyword:…  tag:联邦学习  venue:ICLR  abstract:…
    category:优化/理论
    year:2026  year:2025..2026  year:>=2025

    muon -adam  muon +adam      -word excludes, +word requires (as in web search)

Pasted text is text: a title pasted as it is finds its paper. Common words (of, with, the,
…) are not indexed and are left out, and so are the words a question or a comparison asks
with (what, how, vs); a possessive is its word (``LLM's``). ``?``, ``!``, ``&``, commas,
signs (``√``, a lone ``+``), Chinese brackets, a hyphen right after a parenthesis
(``(L0,L1)-smooth``) and a colon after a word that is not a field name (``RRNCO:
Towards…``) are punctuation, not syntax; so is a lone dash. The separators typed in
Chinese (``，、；：。！？``) and a semicolon part two words as a space does (联邦学习，异构).
After a field's name and a space (``title: muon``, a pasted ``Abstract: We propose…``) the next
word is the field's value. A pasted link, DOI or arXiv id (``arXiv:2401.12345``) is text,
LaTeX is read as a record's is (``$\\mu$P`` is ``μP``), ``*emphasis*`` is its word, and
the ``(untitled)`` flag of a derived label is ours and left out. A plus between two words
is a space (联邦学习+大模型), a hyphenated word asks for both spellings (``multi-modal``,
``multimodal``), and a year or a known venue typed as a word is that field too (``muon
ICLR 2026``).

Whoosh accepts almost any string and quietly drops what it cannot parse. A search tool
should instead say what is wrong, so obvious mistakes (unbalanced quotes, unpaired
parentheses around operators, an unknown field such as ``titel:muon``, a dangling operator,
a bad year) get a one-line ``UsageError``. Without an operator, a parenthesis groups nothing,
and one left unpaired (a pasted fragment's) is punctuation.

With the glossary, a run of words that names a concept also finds the papers that speak of
it in other words or the other language (``bridge.py``).

This module holds the language's names (fields, operators, the words a query asks with)
and the checks of its syntax; ``rewrite`` reads a query with them.
"""

from __future__ import annotations

import re

from ...errors import UsageError

TEXT_FIELDS = ("title", "name", "author", "keyword", "tag", "abstract", "summary")
# Where a word is looked for: the text fields, and the parts of names (Qwen in Qwen2.5)
SEARCHED_FIELDS = (*TEXT_FIELDS, "parts")
FIELDS = (*TEXT_FIELDS, "venue", "year", "category")
FIELD_ALIASES = {
    "tags": "tag",
    "short_name": "name",
    "zh": "summary",
    "summary_zh": "summary",
    "authors": "author",
    "keywords": "keyword",
}
OPERATORS = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"}
FIELD_RE = re.compile(r"^([A-Za-z_]+):(.*)$", re.S)
# Words a query asks with, indexed but never what it looks for: a question (what is muon,
# a pasted title "… When Does It Outperform SGD?"), a comparison (Adam vs SGD found
# nothing: no paper writes "vs"), or what the library holds (recent papers about muon,
# muon papers: "paper" is in most abstracts, "In this paper"). Left out like the common
# words.
# Chinese words that join or frame the words a query is about (的, 和, 基于, 如何, 什么是)
# and the words for what a library holds (论文, 文章: "papers"), longest first: left out
# where they stand apart, and a run of Chinese is cut at them (``search.bridge``).
CHINESE_FUNCTION_WORDS = (
    "什么是",
    "为什么",
    "中的",
    "之中",
    "以及",
    "或者",
    "基于",
    "用于",
    "对于",
    "关于",
    "通过",
    "利用",
    "使用",
    "什么",
    "如何",
    "怎么",
    "怎样",
    "哪些",
    "是否",
    "论文",
    "文章",
    "的",
    "和",
    "与",
    "及",
    "或",
    "用",
)
CHINESE_OR = ("或", "或者")  # between two words: OR (联邦学习 或 大模型)
ASKING_WORDS = frozenset(
    "what which how why when where who whom whose does do did can could should would "
    "vs versus about paper papers article articles recent latest".split()
) | frozenset(CHINESE_FUNCTION_WORDS)
_YEAR_RE = re.compile(r"^(?:(\d{4})|(\d{4})?\.\.(\d{4})?|([<>]=?)(\d{4}))$")
SHOWN = 60  # characters of a query quoted back in a message


def quoted(text: str) -> str:
    """*text* quoted for a message, cut to ``SHOWN`` characters: a pasted abstract is not
    printed back whole."""
    return repr(text if len(text) <= SHOWN else text[: SHOWN - 1] + "…")


def year_bounds(value: str, name: str = "year:") -> tuple[int | None, int | None]:
    """The first and last year *value* asks for (None: no bound), written as ``year:``
    takes it (2026, 2025..2026, 2025.., ..2026, >=2025, <2026); *name* is how the user
    wrote it, for the message when it is none of these."""
    m = _YEAR_RE.match(value)
    if not m or value == "..":
        raise UsageError(
            f"{name}{value} is not a year; write {name}2026, {name}2025..2026 or {name}>=2025"
        )
    single, start, end, op, bound = m.groups()
    if single:
        return int(single), int(single)
    if op:
        b = int(bound)
        return {">=": (b, None), ">": (b + 1, None), "<=": (None, b), "<": (None, b - 1)}[op]
    if start and end and int(start) > int(end):
        raise UsageError(
            f"{name}{value} runs backwards and matches nothing; did you mean {name}{end}..{start}?"
        )
    return (int(start) if start else None), (int(end) if end else None)


def year_query(value: str) -> str:
    """``year:`` as Whoosh's query parser reads it (``>2025`` as ``>=2026``)."""
    start, end = year_bounds(value)
    if start == end:
        return f"year:{start}"
    if end is None:
        return f"year:>={start}"
    if start is None:
        return f"year:<={end}"
    return f"year:[{start} TO {end}]"


def is_label(tok: str) -> bool:
    """A field's name and its colon, with no value (``title:``)."""
    m = FIELD_RE.match(tok)
    return bool(m) and not m.group(2) and canonical_field(m.group(1)) in FIELDS


def paired(tokens: list[str]) -> bool:
    """Whether the parentheses among *tokens* pair up."""
    depth = 0
    for tok in tokens:
        depth += (tok == "(") - (tok == ")")
        if depth < 0:
            return False
    return depth == 0


def check_operators(tokens: list[str], text: str) -> None:
    previous = None
    for tok in [*tokens, None]:
        left_missing = previous is None or previous in OPERATORS or previous == "("
        if tok in OPERATORS and tok != "NOT" and left_missing:
            raise UsageError(f"{tok} needs a word on its left in {quoted(text)}")
        if (tok is None or tok == ")") and previous in OPERATORS:
            raise UsageError(f"{previous} needs a word on its right in {quoted(text)}")
        previous = tok


def canonical_field(name: str) -> str:
    return FIELD_ALIASES.get(name.lower(), name.lower())
