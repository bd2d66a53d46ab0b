"""The Whoosh query a rewritten query stands for, built without Whoosh's parser.

In: the query as ``rewrite.rewrite`` writes it, in the part of Whoosh's syntax it
writes for plain words: words (``muon``, ``联邦学习``), a word's weight (``加速^0.05``),
concepts (``concept:muon``), categories (``category:"强化学习"``), a name's words together
(``"federated learning"~1``), parentheses, and ``AND`` or ``OR`` between the items of a
group. Out: the query the parser makes of it (``test_querylang`` checks both give the same
query for every word of the bundled texts, in both languages, and pairs of them), or None
for anything else (fields, wildcards, ``NOT``, ranges: the parser reads those).

Importing, building and running the parser is a noticeable part of a cold search, and a
bridged query is several times as long as the words typed (``训练加速`` is ``(训练加速 OR
((训练 OR training^0.05) AND (加速 OR acceleration^0.05 OR …)))``).
"""

from __future__ import annotations

import re

from .syntax import SEARCHED_FIELDS, TEXT_FIELDS

# A category: ``category:"强化学习"``, weighted ``(category:"强化学习")^0.2``
_CATEGORY = r'category:"[^"]*"|\(category:"[^"]*"\)\^\d+(?:\.\d+)?'
_TOKEN_RE = re.compile(rf'{_CATEGORY}|\(|\)|"[^"]*"~\d+|[^\s()"]+|\S')
_CATEGORY_RE = re.compile(r'\(?category:"([^"]*)"(?:\)\^(\d+(?:\.\d+)?))?')
_WORD_RE = re.compile(r"(\w+)(?:\^(\d+(?:\.\d+)?))?")  # (letters, digits, Chinese)
_OPERATORS = {"AND": "And", "OR": "Or"}
_RESERVED = {"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "TO"}


def build(rewritten: str, schema):
    """The query Whoosh's parser would make of *rewritten*, or None when it holds anything
    this does not build."""
    tokens = _TOKEN_RE.findall(rewritten)
    try:
        items, end = _sequence(tokens, 0, schema, {})
    except _Unbuilt:
        return None
    if end != len(tokens) or not items:
        return None
    from whoosh import query

    return (items[0] if len(items) == 1 else query.And(items)).normalize()


class _Unbuilt(Exception):
    """Something the parser must read."""


def _sequence(tokens: list[str], i: int, schema, analysed: dict) -> tuple[list, int]:
    """The items from *i* up to a closing parenthesis or the end, each joined to the next
    by the one operator the sequence uses (none: all of them, as the parser's AND group)."""
    from whoosh import query

    items, operator = [], None
    while i < len(tokens) and tokens[i] != ")":
        if items and tokens[i] in _OPERATORS:
            if operator not in (None, tokens[i]):
                raise _Unbuilt  # (operators mixed in one group: the parser's precedence)
            operator, i = tokens[i], i + 1
        elif items and operator is not None:
            raise _Unbuilt  # (an item after another with no operator, in a group with one)
        item, i = _item(tokens, i, schema, analysed)
        items.append(item)
    if operator is None or len(items) == 1:
        return items, i
    compound = getattr(query, _OPERATORS[operator])
    # (a group of the same kind, unweighted, joins this one as its items: what normalize()
    # makes of it, without deep-copying each item as it does: 49 copies for 训练加速)
    spliced = [
        sub
        for item in items
        for sub in (item.subqueries if type(item) is compound and item.boost == 1 else [item])
    ]
    return [compound(spliced)], i


def _item(tokens: list[str], i: int, schema, analysed: dict):
    from whoosh import query

    if i >= len(tokens):
        raise _Unbuilt
    token = tokens[i]
    if token == "(":
        items, end = _sequence(tokens, i + 1, schema, analysed)
        if end >= len(tokens) or tokens[end] != ")" or not items:
            raise _Unbuilt
        return (items[0] if len(items) == 1 else query.And(items)), end + 1
    if token.startswith("concept:") and re.fullmatch(r"concept:[a-z0-9-]+", token):
        return query.Term("concept", token.removeprefix("concept:")), i + 1
    if m := _CATEGORY_RE.fullmatch(token):  # (a category the words name: rewrite.py)
        tokens = list(schema["category"].process_text(m[1], mode="query"))
        if len(tokens) != 1:
            raise _Unbuilt
        return query.Term("category", tokens[0], boost=float(m[2] or 1)), i + 1
    if token.startswith('"'):
        if not (m := re.fullmatch(r'"([^"]*)"~(\d+)', token)):
            raise _Unbuilt
        return _near(m[1].split(), int(m[2]), schema, analysed), i + 1
    m = _WORD_RE.fullmatch(token)
    if not m or token in _RESERVED or "_" in m[1]:
        raise _Unbuilt
    return _word(m[1], float(m[2]) if m[2] else 1.0, schema, analysed), i + 1


def _word(word: str, boost: float, schema, analysed: dict):
    """The word in every text field, as the parser asks for it: a term, or where the
    analyzer makes several tokens (a Chinese word's bigrams), their phrase."""
    from whoosh import query

    terms = []
    for name in SEARCHED_FIELDS:
        tokens = _tokens(schema[name], word, analysed)
        if len(tokens) == 1:
            terms.append(query.Term(name, tokens[0], boost=boost))
        elif tokens and schema[name].format.supports("positions"):
            terms.append(query.Phrase(name, tokens, slop=1, boost=boost))
        else:
            raise _Unbuilt
    return query.Or(terms)


def _tokens(field, text: str, analysed: dict[tuple[int, str], list[str]]) -> list[str]:
    """*text* as *field* reads a query, analysed once a query for the fields that share
    its analyzer (``schema.make_schema``: every text field but the tags and the parts), as
    Whoosh's ``process_text`` is the field's analyzer alone. Seven fields a word, and a
    bridged word's renderings are words too: 训练加速's seven words were analysed 49 times."""
    key = (id(field.analyzer), text)
    if key not in analysed:
        analysed[key] = list(field.process_text(text, mode="query"))
    return analysed[key]


def _near(words: list[str], slop: int, schema, analysed: dict):
    """Words side by side (a phrase typed ``"a b"~N``); in a field without positions,
    the words as one keyword, as the parser reads a phrase there."""
    from whoosh import query

    if not words or not all(re.fullmatch(r"\w+", w) for w in words):
        raise _Unbuilt
    fields = []
    for name in TEXT_FIELDS:  # (not the parts: side by side is a phrase of whole words)
        if not schema[name].format.supports("positions"):
            tokens = list(schema[name].process_text(" ".join(words), mode="query"))
            if len(tokens) != 1:
                raise _Unbuilt
            fields.append(query.Term(name, tokens[0]))
            continue
        tokens = [_tokens(schema[name], w, analysed) for w in words]
        if any(len(t) != 1 for t in tokens):
            raise _Unbuilt
        fields.append(query.Phrase(name, [t[0] for t in tokens], slop=slop))
    return query.Or(fields)
