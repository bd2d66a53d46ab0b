"""A library's categories (the headings a digest page puts its papers under) read as the
glossary's concepts: 强化学习 is reinforcement learning, ``Reinforcement Learning`` is
强化学习, and a query naming the concept in either language finds the category's papers.

A category is a concept when its name is one of the concept's names, in either language
(``key``: case, hyphens and spaces and a plural's s aside); a category written in parts
(``LLM/NLP``) is the concepts of its parts, each one of a concept's names. Names, not a
name found inside a longer heading: 深度强化学习 is deep reinforcement learning, not
reinforcement learning.

In: the categories as the index holds them (lower case), a category as a record writes it,
and the compiled glossary (``QueryGlossary``). Out: the categories a concept or a word names,
and a category's rendering in the other language (``category: 强化学习 (reinforcement
learning)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...text import has_cjk
from ...text.variants import normalize

_SPACES_RE = re.compile(r"[\s\-‐–_]+")


def key(text: str) -> str:
    """*text* as names are compared: one spelling, lower case, hyphens as spaces."""
    return _SPACES_RE.sub(" ", normalize(text).lower()).strip()


def _keys(text: str) -> set[str]:
    """*text*'s key, and without a plural's s (Large Language Models)."""
    k = key(text)
    return {k, k[:-1]} if k.isascii() and k.endswith("s") and len(k) > 3 else {k}


def parts(category: str) -> list[str]:
    return [p for p in (p.strip() for p in category.split("/")) if p]


def names(glossary, cid: str) -> set[str]:
    """The keys of the concept's names in both languages (none for an unknown id)."""
    spec = glossary.spec(cid)
    return {key(n) for n in (*spec[0], *spec[1])} if spec else set()


def of_concepts(glossary, cids: Iterable[str], categories: Iterable[str]) -> list[str]:
    """The *categories* that are one of the concepts *cids* (a category of one part whose
    name is the concept's), in their order."""
    wanted = set().union(*(names(glossary, cid) for cid in cids))
    if not wanted:
        return []
    return [c for c in categories if "/" not in c and _keys(c) & wanted]


def concepts_of(glossary, text: str) -> list[str]:
    """The concepts *text* is a name of, as a whole (an abbreviation in any case: llm is
    LLM, as a query reads it); sorted."""
    written = " ".join(glossary.abbreviation(w) or w for w in normalize(text).split())
    if not written:
        return []
    whole = {
        cid for start, end, cid in glossary.spans(written) if (start, end) == (0, len(written))
    }
    return sorted(cid for cid in whole if _keys(written) & names(glossary, cid))


def named_by(glossary, word: str, categories: Iterable[str]) -> list[str]:
    """The *categories* *word* names in the other language, part by part (大语言模型/自然语言
    处理 is LLM/NLP): each part of the word is the category's, or a name of a concept that
    part of the word is."""
    pieces = parts(word)
    if not pieces:
        return []
    accepted = []  # for each piece, the keys a category's part may have
    for piece in pieces:
        keys = _keys(piece)
        for cid in concepts_of(glossary, piece):
            keys |= names(glossary, cid)
        accepted.append(keys)
    out = []
    for category in categories:
        mine = parts(category)
        if len(mine) == len(pieces) and all(
            _keys(p) & keys for p, keys in zip(mine, accepted, strict=True)
        ):
            out.append(category)
    return out


def rendering(glossary, category: str) -> str | None:
    """*category* (as written) in the other language: each part as the first name, in the
    other language, of the concepts it is (a word of two senses, 推理: each sense); None
    unless every part is a concept's name and has one there."""
    out = []
    for part in parts(category):
        other = 0 if has_cjk(part) else 1  # (spec: [English names, Chinese names, …])
        rendered = []
        for cid in concepts_of(glossary, part):
            spec = glossary.spec(cid)
            if spec and spec[other] and spec[other][0] not in rendered:
                rendered.append(spec[other][0])
        if not rendered:
            return None
        out.append(", ".join(rendered))
    return "/".join(out) or None


def passage(glossary, category: str) -> str:
    """Why a paper matched only through its category: ``category: 强化学习 (reinforcement
    learning)``, the category as written marked, its rendering after it."""
    from ..results.marking import MARK_END, MARK_START

    other = rendering(glossary, category) if glossary is not None else None
    shown = f" ({other})" if other and key(other) != key(category) else ""
    return f"category: {MARK_START}{category}{MARK_END}{shown}"
