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
"""

from __future__ import annotations

import re

from ..errors import UsageError
from ..text import HYPHENATED_RE, STOP_WORDS, UNTITLED, UNTITLED_NOTE, strip_controls

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

# A quoted phrase, a parenthesis, or a run of other non-space characters.
_TOKEN_RE = re.compile(r'"[^"]*"|[()]|[^\s()"]+(?:"[^"]*")?')
_FIELD_RE = re.compile(r"^([A-Za-z_]+):(.*)$", re.S)
# Punctuation around a pasted word (Whoosh would read ? as a wildcard, 'x' as a term,
# [ { as ranges, ^ as a boost); * and ~ stay: they are ours (prefix, fuzzy). A percent sign
# too (44.3% is 44.3, as the index reads it; 稳定性% found 1 of the 4 papers of 稳定性).
_EDGE_PUNCT = "?!&,;.:'`^[]{}<>=|/\\-+%％‐‑‒–—―−…。，、；：！？“”‘’《》（）【】「」『』"
# Inside a word: what Whoosh would read as syntax, and Chinese brackets (数据（Generator）+:
# Whoosh's parser cut the word at the bracket, and "+" became a word of its own).
_INNER_SYNTAX_RE = re.compile(r"[\[\]{}^<>='（）【】「」『』]")
_JOINING_PLUS_RE = re.compile(r"(?<=[^\W_])\+(?=[^\W_])")
# Between two words, what separates them as a space does: the Chinese comma, enumeration
# comma, semicolon, colon, full stop, exclamation and question marks, and an ASCII semicolon
# (联邦学习，异构 and muon；adam found nothing, "muon, adam" both papers); a quoted phrase
# keeps them.
_SEPARATOR_RE = re.compile(r'"[^"]*"|[，、；：。！？;]')
# A possessive: the word itself (LLM's reasoning is LLM reasoning; the index reads "LLM's"
# as llm and s).
_POSSESSIVE_RE = re.compile(r"(?<=\w)['’][sS]$")
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
_CHINESE_OR = ("或", "或者")  # between two words: OR (联邦学习 或 大模型)
ASKING_WORDS = frozenset(
    "what which how why when where who whom whose does do did can could should would "
    "vs versus about paper papers article articles recent latest".split()
) | frozenset(CHINESE_FUNCTION_WORDS)
_BARE_YEAR_RE = re.compile(r"(?:19|20)\d\d")
_LATIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
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


def _year(value: str) -> str:
    """``year:`` as Whoosh's query parser reads it (``>2025`` as ``>=2026``)."""
    start, end = year_bounds(value)
    if start == end:
        return f"year:{start}"
    if end is None:
        return f"year:>={start}"
    if start is None:
        return f"year:<={end}"
    return f"year:[{start} TO {end}]"


def _is_label(tok: str) -> bool:
    """A field's name and its colon, with no value (``title:``)."""
    m = _FIELD_RE.match(tok)
    return bool(m) and not m.group(2) and _field(m.group(1)) in FIELDS


def _paired(tokens: list[str]) -> bool:
    """Whether the parentheses among *tokens* pair up."""
    depth = 0
    for tok in tokens:
        depth += (tok == "(") - (tok == ")")
        if depth < 0:
            return False
    return depth == 0


def _check_operators(tokens: list[str], text: str) -> None:
    previous = None
    for tok in [*tokens, None]:
        left_missing = previous is None or previous in OPERATORS or previous == "("
        if tok in OPERATORS and tok != "NOT" and left_missing:
            raise UsageError(f"{tok} needs a word on its left in {quoted(text)}")
        if (tok is None or tok == ")") and previous in OPERATORS:
            raise UsageError(f"{previous} needs a word on its right in {quoted(text)}")
        previous = tok


_FUZZY_RE = re.compile(r"([A-Za-z][A-Za-z-]*)~([12]?)")


def rewrite(
    text: str,
    resolve_tag=None,
    glossary=None,
    bridges: dict | None = None,
    near=None,
    category=None,
    solid=None,
) -> str:
    """Check *text* and rewrite our extensions (year ranges, tag aliases) into Whoosh syntax;
    with a *glossary* (``QueryGlossary``), words that name a concept also find the papers
    that speak of it in other words or the other language (*bridges*, if given, gets each
    such concept's id -> the words that named it). With *near* (word, edits -> the known
    words that close), an English ``word~`` becomes those words: the index holds stems, and
    a typo is a typo of the word (federatd is one edit from federated, three from feder).
    A year or a known venue as a word is also that field's value (``muon ICLR 2026``), and
    so is a category of the library (*category*: word -> the category it names, or None):
    ``优化/理论``, as a digest page heads its papers. Two words typed apart also find the
    word written solid where the library writes it so (*solid*: the joined words -> those
    the index holds): ``non convex`` finds "nonconvex", ``sign SGD`` "SignSGD"."""
    source = _read_latex(text)
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
        if tokens and _is_label(tokens[-1]) and m.group() not in (*OPERATORS, "(", ")"):
            # `title: muon`, `Abstract: We propose…`: after a field's colon and a space,
            # typed or pasted, the next word is the field's value.
            tokens[-1] += m.group()
            continue
        if m.start() and not source[m.start() - 1].isspace():
            glued.add(len(tokens))
        tokens.append(m.group())
    # Without an operator a parenthesis groups nothing: one left unpaired is a pasted
    # fragment's ("compositional) but are deficient"), and reads as punctuation.
    loose = not OPERATORS.intersection(tokens) and not _paired(tokens)
    depth = 0
    out: list[str] = []
    common: list[str] = []  # stop words left out
    gaps: dict[int, list[str]] = {}  # position in *out* -> the stop words left out before it
    bridgeable: set[int] = set()  # positions in *out* of plain words (see _bridge)
    negated: set[int] = set()  # and of the plain words excluded (-大模型)
    categorized: dict[int, str] = {}  # positions in *out* of words that name a category
    latin: set[int] = set()  # positions in *out* of plain Latin words (see _solid)
    for n, tok in enumerate(tokens):
        if loose and tok in ("(", ")"):
            continue
        if tok in _CHINESE_OR and out and out[-1] not in (*OPERATORS, "(") and n + 1 < len(tokens):
            tok = "OR"
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth -= 1
            if depth < 0:
                raise UsageError(f"')' without '(' in {quoted(text)}")
        m = _FIELD_RE.match(tok)
        if m and not m.group(2) and _field(m.group(1)) not in FIELDS:
            m, tok = None, m.group(1)  # `RRNCO: Towards…`: a word and a colon, not a field
        if m and m.group(1).lower() in ("http", "https", "doi", "arxiv"):
            tok = f'"{tok}"'  # a pasted link, DOI or arXiv id is text, not a field
        elif m and not tok.startswith('"'):
            field, value = _field(m.group(1)), m.group(2)
            if field not in FIELDS:
                names = " ".join(f"{f}:" for f in FIELDS)
                raise UsageError(
                    f"unknown field {m.group(1)!r} in {quoted(text)} (fields: {names})"
                )
            if not value.strip('"'):
                raise UsageError(f"{field}: needs a value in {quoted(text)}")
            if field == "year":
                tok = _year(value)
            elif field == "tag" and resolve_tag is not None and not value.startswith('"'):
                tok = f"tag:{resolve_tag(value) or value.lower()}"
            else:
                tok = f"{field}:{value}"
        elif tok not in OPERATORS and tok not in ("(", ")") and not tok.startswith('"'):
            # Among other words (a pasted title's "Tildes ~ and Hashes") it is punctuation.
            if tok.strip("*?~") == "":
                if len(tokens) > 1:
                    continue
                raise UsageError(f"{tok!r} alone matches nothing useful; add letters to it")
            known = len(common)
            tok = _word(tok, common, signed=n not in glued)  # ((L0,L1)-smooth: a hyphen)
            if not tok:
                gaps.setdefault(len(out), []).extend(common[known:])
                continue
            fuzzy = _FUZZY_RE.fullmatch(tok) if near is not None else None
            if fuzzy:
                words = near(fuzzy[1].lower(), int(fuzzy[2] or 1))[:50]
                tok = f"({' OR '.join(words)})" if words else tok
            sign, word = ("NOT ", tok[4:]) if tok.startswith("NOT ") else ("", tok)
            plain = (
                not fuzzy and not word.startswith(('"', "(")) and not any(c in word for c in "*?~")
            )
            named = category(word) if plain and category is not None else None
            if named and sign:
                tok = f'NOT ({word} OR category:"{named}")'  # (its papers, not its words)
            elif named:
                categorized[len(out)] = named
            if plain and not sign and not named and _LATIN_WORD_RE.fullmatch(word):
                latin.add(len(out))
            if plain and glossary is not None and not (sign and named):
                (negated if sign else bridgeable).add(len(out))
        out.append(tok)
    if depth:
        raise UsageError(f"'(' without ')' in {quoted(text)}")
    _check_operators(out, text)
    if not any(t not in OPERATORS and t not in "()" and t != "NOT" for t in out):
        if common:
            words = ", ".join(dict.fromkeys(common))
            raise UsageError(
                f"the query {quoted(text)} has only words too common to search for ({words})"
            )
        raise UsageError(f"the query {quoted(text)} has no words to search for")
    joined = _solid(out, latin, gaps, solid)
    pieces = [(tok, n, n + 1) for n, tok in enumerate(out)]  # (token, its words in *out*)
    if bridgeable or negated:
        from .bridge import bridge, in_both_languages

        bridges = {} if bridges is None else bridges
        pieces = bridge(out, bridgeable, glossary, bridges, gaps, negated)
        joined = {
            n: in_both_languages(word, bridges) if n in bridgeable else word
            for n, word in joined.items()
        }  # (data sets: datasets, or 数据集)
    result: list[str] = []
    for k, (tok, n, end) in enumerate(pieces):
        if n in categorized and end - n == 1:
            tok = f'({tok} OR category:"{categorized[n]}")'  # (its papers too)
        else:
            tok = _as_field(_both_spellings(tok))
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


def _solid(out: list[str], latin: set[int], gaps: dict, solid) -> dict[int, str]:
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


def _as_field(tok: str) -> str:
    """A year or a known venue typed as a word is also that field's value: the word or the
    field (no paper's text says "2026" or "ICLR", so ``muon ICLR 2026`` found nothing);
    ``ICLR2026`` is both."""
    from ..venues import VENUE_YEAR_RE, known_venue

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


def _both_spellings(tok: str) -> str:
    """A hyphenated word asks for its parts and for the word written as one (``multi-modal``
    finds "multimodal", and the index holds "multi-modal" as both: ``analysis``), in its
    field if it has one (``title:multi-modal``)."""
    sign, word = ("NOT ", tok[4:]) if tok.startswith("NOT ") else ("", tok)
    field, _, value = word.rpartition(":") if _FIELD_RE.match(word) else ("", "", word)
    if field in ("tag", "venue", "year", "category"):  # (names, not text: as they are)
        return tok
    if "-" not in value or not HYPHENATED_RE.fullmatch(value):
        return tok
    return f"{sign}{field + ':' if field else ''}({value} OR {value.replace('-', '')})"


def _read_latex(text: str) -> str:
    """*text* with its LaTeX read as the index reads a record's: a title pasted from a .bib
    file or an arXiv listing (``Tuning … with $\\mu$P``, ``Schr\\"{o}dinger``) is indexed
    as ``μP``, ``Schrödinger``; an abstract's LaTeX quotes (````winner"``) as “winner”.
    Only a query with a backslash, a dollar sign or two backticks is read so: elsewhere
    ``*``, ``_`` and ``--`` are the query's own (a prefix, a word, two dashes)."""
    if "\\" not in text and "$" not in text and "``" not in text:
        return text
    from ..text.latex import latex_to_text

    return latex_to_text(text)


def _normalize(text: str) -> str:
    from ..text.variants import normalize

    return normalize(text)


def _field(name: str) -> str:
    return FIELD_ALIASES.get(name.lower(), name.lower())


def _word(tok: str, common: list[str], signed: bool = True) -> str:
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
    if "~" in tok and not _FUZZY_RE.fullmatch(tok):
        tok = " ".join(tok.replace("~", " ").split())
    if not tok.strip("*?~") or not any(c.isalnum() or c == "∇" for c in tok):
        return ""  # (only signs: √, +, →; the index holds no such word)
    folded = tok.lower() if tok.isascii() else _normalize(tok).lower()  # (關於 is 关于)
    if folded in STOP_WORDS or folded in ASKING_WORDS:
        common.append(tok.lower())
        return ""
    if tok.isascii() and tok.isalpha():  # (the text is indexed so; the tag field is not)
        from ..text.variants import american_as_typed

        tok = american_as_typed(tok)
    if " " in tok:  # (O'Neil, x^2: the pieces as a phrase, the way the text is indexed)
        tok = f'"{tok}"'
    return sign + tok


def parse(text: str, schema, **options):
    """A Whoosh query for *text*, or a one-line ``UsageError`` saying what is wrong
    (*options*: those of ``rewrite``)."""
    rewritten = rewrite(text, **options)
    from .direct import build

    direct = build(rewritten, schema)  # (most queries: without Whoosh's parser)
    if direct is not None:
        return direct
    from whoosh import qparser, query

    parser = qparser.MultifieldParser(list(SEARCHED_FIELDS), schema, group=qparser.AndGroup)
    parser.add_plugin(qparser.FuzzyTermPlugin())
    parser.add_plugin(qparser.GtLtPlugin())
    try:
        q = parser.parse(rewritten)
    except Exception as exc:  # Whoosh raises assorted types for odd input
        raise UsageError(f"cannot understand the query {quoted(text)}: {exc}") from None
    if q is query.NullQuery:
        raise UsageError(f"the query {quoted(text)} has no words to search for")
    return q.accept(lambda node: _keywords_of_phrase(node, schema)).normalize()


def _keywords_of_phrase(node, schema):
    """A phrase in a field that keeps no positions (the tags: ``"(L0, L1)–smooth"`` is two
    keywords there, split at its comma) as all of its words: Whoosh would refuse it while
    searching ("field has no positions"). Not among names' parts: a phrase is of words."""
    from whoosh import query

    if isinstance(node, query.Phrase) and node.fieldname == "parts":
        return query.NullQuery
    if isinstance(node, query.Phrase) and not schema[node.fieldname].format.supports("positions"):
        return query.And([query.Term(node.fieldname, word) for word in node.words])
    return node
