"""A query checked and rewritten into the part of Whoosh's syntax its parser reads: our
extensions (year ranges, tag aliases, a year or venue typed as a word) written out, pasted
punctuation dropped, and the words that name a concept bridged to it (``bridge``).

In: the query as typed, and what the index knows (the glossary, the words near a typo, the
library's categories, the words it holds written solid). Out: the query in Whoosh syntax,
or a one-line ``UsageError`` saying what is wrong (``syntax``).
"""

from __future__ import annotations

import re

from ...errors import UsageError
from ...text import UNTITLED, UNTITLED_NOTE, strip_controls
from .syntax import (
    CHINESE_OR,
    FIELD_RE,
    FIELDS,
    OPERATORS,
    canonical_field,
    check_operators,
    is_label,
    paired,
    quoted,
    year_query,
)
from .typed_words import (
    FUZZY_RE,
    LATIN_WORD_RE,
    as_field,
    both_spellings,
    plain_word,
    read_latex,
    written_solid,
)

# A quoted phrase, a parenthesis, or a run of other non-space characters.
_TOKEN_RE = re.compile(r'"[^"]*"|[()]|[^\s()"]+(?:"[^"]*")?')
_JOINING_PLUS_RE = re.compile(r"(?<=[^\W_])\+(?=[^\W_])")
# Between two words, what separates them as a space does: the Chinese comma, enumeration
# comma, semicolon, colon, full stop, exclamation and question marks, and an ASCII semicolon
# (联邦学习，异构 and muon；adam found nothing, "muon, adam" both papers); a quoted phrase
# keeps them.
_SEPARATOR_RE = re.compile(r'"[^"]*"|[，、；：。！？;]')


def rewrite(
    text: str,
    resolve_tag=None,
    glossary=None,
    bridges: dict | None = None,
    near=None,
    category=None,
    solid=None,
    concept_categories=None,
) -> str:
    """Check *text* and rewrite our extensions (year ranges, tag aliases) into Whoosh syntax;
    with a *glossary* (``QueryGlossary``), words that name a concept also find the papers
    that speak of it in other words or the other language (*bridges*, if given, gets each
    such concept's id -> the words that named it). With *near* (word, edits -> the known
    words that close), an English ``word~`` becomes those words: the index holds stems, and
    a typo is a typo of the word (federatd is one edit from federated, three from feder).
    A year or a known venue as a word is also that field's value (``muon ICLR 2026``), and
    so is a category of the library (*category*: word -> the categories it names, as
    ``category:`` does): ``优化/理论``, as a digest page heads its papers. A concept the
    words name also finds the categories that are it, in either language
    (*concept_categories*: concept ids -> those categories): ``reinforcement learning``
    the papers a digest page heads 强化学习. Two words typed apart also find the
    word written solid where the library writes it so (*solid*: the joined words -> those
    the index holds): ``non convex`` finds "nonconvex", ``sign SGD`` "SignSGD"."""
    source = read_latex(text)
    if UNTITLED in source:  # an untitled paper's label pasted as shown: the flag is ours
        source = source.replace(UNTITLED_NOTE, " ").replace(UNTITLED, " ")
    if source.count('"') % 2:
        raise UsageError(f"unbalanced quote in {quoted(text)}")
    # (a pasted escape sequence or control character reads as the index reads it: a space)
    source = strip_controls(source)
    # A plus between two words joins them as a space would (联邦学习+大模型, FL+LLM: both)
    source = _JOINING_PLUS_RE.sub(" ", source)
    source = _SEPARATOR_RE.sub(lambda m: m.group() if m.group()[0] == '"' else " ", source)
    tokens, glued = [], set()  # glued: tokens right after a parenthesis or a quote
    for m in _TOKEN_RE.finditer(source):
        if tokens and is_label(tokens[-1]) and m.group() not in (*OPERATORS, "(", ")"):
            # `title: muon`, `Abstract: We propose…`: after a field's colon and a space,
            # typed or pasted, the next word is the field's value.
            tokens[-1] += m.group()
            continue
        if m.start() and not source[m.start() - 1].isspace():
            glued.add(len(tokens))
        tokens.append(m.group())
    # Without an operator a parenthesis groups nothing: one left unpaired is a pasted
    # fragment's ("compositional) but are deficient"), and reads as punctuation.
    loose = not OPERATORS.intersection(tokens) and not paired(tokens)
    depth = 0
    out: list[str] = []
    common: list[str] = []  # stop words left out
    gaps: dict[int, list[str]] = {}  # position in *out* -> the stop words left out before it
    bridgeable: set[int] = set()  # positions in *out* of plain words (see _bridge)
    negated: set[int] = set()  # and of the plain words excluded (-大模型)
    categorized: dict[int, list[str]] = {}  # positions in *out* of words naming categories
    latin: set[int] = set()  # positions in *out* of plain Latin words (see written_solid)
    for n, tok in enumerate(tokens):
        if loose and tok in ("(", ")"):
            continue
        if tok in CHINESE_OR and out and out[-1] not in (*OPERATORS, "(") and n + 1 < len(tokens):
            tok = "OR"
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth < 0:
                raise UsageError(f"')' without '(' in {quoted(text)}")
        m = FIELD_RE.match(tok)
        if m and not m.group(2) and canonical_field(m.group(1)) not in FIELDS:
            m, tok = None, m.group(1)  # `RRNCO: Towards…`: a word and a colon, not a field
        if m and m.group(1).lower() in ("http", "https", "doi", "arxiv"):
            tok = f'"{tok}"'  # a pasted link, DOI or arXiv id is text, not a field
        elif m and not tok.startswith('"'):
            field, value = canonical_field(m.group(1)), m.group(2)
            if field not in FIELDS:
                names = " ".join(f"{f}:" for f in FIELDS)
                raise UsageError(
                    f"unknown field {m.group(1)!r} in {quoted(text)} (fields: {names})"
                )
            if not value.strip('"'):
                raise UsageError(f"{field}: needs a value in {quoted(text)}")
            if field == "year":
                tok = year_query(value)
            elif field == "tag" and resolve_tag is not None and not value.startswith('"'):
                tok = f"tag:{resolve_tag(value) or value.lower()}"
            elif field == "category" and (
                named := _named_categories(value, category, glossary, concept_categories)
            ):
                tok = f"({_any_category(named, None)})"  # (强化学习: Reinforcement Learning too)
            else:
                tok = f"{field}:{value}"
        elif tok not in OPERATORS and tok not in ("(", ")") and not tok.startswith('"'):
            # Among other words (a pasted title's "Tildes ~ and Hashes") it is punctuation.
            if tok.strip("*?~") == "":
                if len(tokens) > 1:
                    continue
                raise UsageError(f"{tok!r} alone matches nothing useful; add letters to it")
            known = len(common)
            tok = plain_word(tok, common, signed=n not in glued)  # ((L0,L1)-smooth: a hyphen)
            if not tok:
                gaps.setdefault(len(out), []).extend(common[known:])
                continue
            fuzzy = FUZZY_RE.fullmatch(tok) if near is not None else None
            if fuzzy:
                words = near(fuzzy[1].lower(), int(fuzzy[2] or 1))[:50]
                tok = f"({' OR '.join(words)})" if words else tok
            sign, word = ("NOT ", tok[4:]) if tok.startswith("NOT ") else ("", tok)
            plain = (
                not fuzzy and not word.startswith(('"', "(")) and not any(c in word for c in "*?~")
            )
            named = category(word) if plain and category is not None else None
            if named and sign:  # (its papers, not its words; under its concept's name too)
                named = _named_categories(word, category, glossary, concept_categories)
                tok = f"NOT ({word} OR {_any_category(named)})"
            elif named:
                categorized[len(out)] = named
            if plain and not sign and not named and LATIN_WORD_RE.fullmatch(word):
                latin.add(len(out))
            if plain and glossary is not None and not (sign and named):
                (negated if sign else bridgeable).add(len(out))
        out.append(tok)
    if depth:
        raise UsageError(f"'(' without ')' in {quoted(text)}")
    check_operators(out, text)
    if not any(t not in OPERATORS and t not in "()" and t != "NOT" for t in out):
        if common:
            words = ", ".join(dict.fromkeys(common))
            raise UsageError(
                f"the query {quoted(text)} has only words too common to search for ({words})"
            )
        raise UsageError(f"the query {quoted(text)} has no words to search for")
    joined = written_solid(out, latin, gaps, solid)
    pieces = [(tok, n, n + 1) for n, tok in enumerate(out)]  # (token, its words in *out*)
    if bridgeable or negated:
        from .bridge import bridge, in_both_languages

        bridges = {} if bridges is None else bridges
        pieces = bridge(out, bridgeable, glossary, bridges, gaps, negated)
        joined = {
            n: in_both_languages(word, bridges) if n in bridgeable else word
            for n, word in joined.items()
        }  # (data sets: datasets, or 数据集)
    if concept_categories is not None:
        pieces = [(_with_categories(tok, concept_categories), n, end) for tok, n, end in pieces]
    result: list[str] = []
    for k, (tok, n, end) in enumerate(pieces):
        if n in categorized and end - n == 1:
            named = [c for c in categorized[n] if f'category:"{c}"' not in tok]
            tok = f"({tok} OR {_any_category(named)})" if named else tok  # (its papers too)
        else:
            tok = as_field(both_spellings(tok))
        if n - 1 in joined and pieces[k - 1][1:] == (n - 1, n) and end - n == 1:
            result[-1] = f"(({result[-1]} {tok}) OR {joined[n - 1]})"  # (non convex)
            joined.pop(n, None)  # (a word joins one neighbour: non convex set)
        else:
            result.append(tok)
    # Words ANDed: one of each will do (a pasted passage repeats its words, and Whoosh's
    # parser is slow on thousands of clauses).
    if not any(t in OPERATORS or t in "()" for t in out):
        result = list(dict.fromkeys(result))
    return " ".join(result)


def _named_categories(value: str, category, glossary, of_concept) -> list[str]:
    """The categories ``category:value`` asks for: those *value* names (*category*), and
    with the glossary (*of_concept*), those that are its concept in either language."""
    name = value.strip('"')
    named = list(category(name)) if category is not None else []
    if of_concept is not None:
        from ..concepts.categories import concepts_of

        for cid in concepts_of(glossary, name):
            named += [c for c in of_concept(cid) if c not in named]
    return named


# A paper found only through its category ranks below one that writes the words, as one
# found only through the glossary does (schema.CONCEPT_BOOST): a category's term scores 1
# whatever its size, and "RL" listed three papers a digest page heads 强化学习 above the one
# whose title says "Reinforcement Learning".
CATEGORY_BOOST = 0.2


def _any_category(names: list[str], weight: float | None = CATEGORY_BOOST) -> str:
    """The categories *names* (as indexed), as alternatives; those the words name weigh
    *weight*, those a ``category:`` asks for (None) as any field's value."""
    if weight is None:
        return " OR ".join(f'category:"{name}"' for name in names)
    # (grouped: Whoosh's parser drops the weight of a quoted value, a keyword's phrase)
    return " OR ".join(f'(category:"{name}")^{weight}' for name in names)


_CONCEPT_RE = re.compile(r"concept:([a-z0-9-]+)")


def _with_categories(tok: str, of_concept) -> str:
    """*tok* (a bridged word, as ``bridge`` writes it: each concept an alternative of its
    words) with each concept's categories beside it: ``(强化学习 OR concept:reinforcement-learning
    OR category:"强化学习")``. Beside the concept, not around the word: 大模型微调 asks for
    the LLM category's papers that speak of fine-tuning, not for all of them."""

    def beside(m: re.Match) -> str:
        named = of_concept(m[1])
        return m[0] + (f" OR {_any_category(named)}" if named else "")

    return _CONCEPT_RE.sub(beside, tok)
