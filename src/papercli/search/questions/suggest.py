"""What to say when a search finds nothing: a corrected query ("Did you mean …?"), the
word to leave out, the concepts no paper of the library speaks of.

In: the query as typed, the open index, the filters. Out: the corrected query and whether
it is clearly the one; the word to leave out, the words left and how many papers they
match; the concepts the query names, and those no paper speaks of.
"""

from __future__ import annotations

from ...engine.unions import unions
from ...errors import UsageError
from ..index.paper_index import PaperIndex
from ..querying.bridge import TRANSLATED
from ..querying.parse import parse_query
from .filters import Filters, filter_query
from .search import search_stream


def named_concepts(index: PaperIndex, text: str) -> dict[str, str]:
    """The concepts of the glossary *text* names: id -> the words of *text* that name it
    (not a common word's rendering in the other language: 训练 names no concept, and left
    out of "光滑 训练" it was kept as if it did, the message naming 29 papers of 训练
    instead of the one of 光滑)."""
    bridges: dict[str, str] = {}
    parse_query(index, text, bridges=bridges)
    return {cid: words for cid, words in bridges.items() if not cid.startswith(TRANSLATED)}


def absent_concepts(index: PaperIndex, text: str) -> list[str]:
    """The concepts *text* names that no paper of the library speaks of, each as its
    English and Chinese names (``mixture of experts (混合专家)``): why it found nothing."""
    glossary = index.query_glossary()
    out = []
    with index.searcher() as searcher:
        reader = searcher.reader()
        for cid in named_concepts(index, text):
            concept = glossary.concept(cid) if glossary else None
            if concept is not None and not reader.doc_frequency("concept", cid):
                en, zh = concept.label("en"), concept.label("zh")
                out.append(f"{en} ({zh})" if concept.zh and zh != en else en)
    return out


def suggest(index: PaperIndex, text: str, filters: Filters | None = None) -> str | None:
    """``suggestion``'s corrected query alone."""
    found = suggestion(index, text, filters)
    return found and found[0]


def suggestion(
    index: PaperIndex, text: str, filters: Filters | None = None
) -> tuple[str, bool] | None:
    """*text* with each word that neither the index nor the glossary knows replaced by the
    closest word the library or the glossary knows, if that finds a paper (within
    *filters*); and whether each correction is clearly the one (``Vocabulary.correction``).

    ``federatd`` → ``federated``. Only plain words are corrected (not fields, phrases or
    Chinese). A word of the glossary's names is no typo where no paper has it: ``MoE`` is
    not ``more``, ``experts`` not ``exerts``. None when there is nothing to correct, or
    when the corrected query finds nothing either (``federatd zzzqqq``).
    """
    import re

    from ..analysis import tokens
    from ..index.vocabulary import Vocabulary

    words = re.findall(r'"[^"]*"|\S+', text)
    glossary = index.query_glossary()
    names = glossary.words() if glossary is not None else set()
    changed, clear = False, True
    vocabulary = None
    with index.searcher() as searcher:
        reader = searcher.reader()
        for i, typed in enumerate(words):
            word = typed.strip("?!,.;:")  # (federatd? is federatd)
            if not re.fullmatch(r"[A-Za-z][A-Za-z-]{2,}", word) or word in ("AND", "OR", "NOT"):
                continue
            if word.lower() in names:
                continue
            terms = tokens(word, mode="query")
            known = any(
                reader.doc_frequency(field, term)
                for term in terms
                for field in ("title", "name", "abstract", "summary")
            )
            if known or not terms:  # (a common word is not searched: "the" is no typo)
                continue
            if vocabulary is None:  # (the glossary's words too: "reinforcment" is a typo
                # of "reinforcement", which a library may hold only in a tag; after the
                # library's own words, which come first)
                vocabulary = Vocabulary(
                    {**dict.fromkeys(names, 0), **Vocabulary.load(index.dir).counts}
                )
            option, sure = vocabulary.correction(word.lower())
            clear = clear and sure
            if option:
                words[i] = typed.replace(word, option, 1)
                changed = True
    if not changed:
        return None
    better = " ".join(words)
    try:
        found = next(iter(search_stream(index, better, 1, filters)), None)
        return (better, clear) if found else None
    except UsageError:
        return None


def without_one(
    index: PaperIndex, text: str, filters: Filters | None = None
) -> tuple[str, str, int] | None:
    """When no paper has every word of *text*: the word to leave out, the words left and
    how many papers they match (within *filters*). The word left out is one no paper has
    ("how to reduce communication in distributed training": no paper says "reduce"), else
    a word that names no concept of the glossary ("why does Adam work": "work"), the one
    whose absence matches the fewest papers but some. Only for words searched as words (no
    phrases, fields or operators), two to eight of them (Chinese written as one run counts
    as the words it is read as: 基于扩散模型的语言生成 is 扩散模型 and 语言生成, which the
    user cannot see); None when no one word is to blame."""
    from ...text import STOP_WORDS, has_cjk
    from ..querying.bridge import words_of_run
    from ..querying.syntax import ASKING_WORDS, OPERATORS

    if any(c in text for c in '"():') or OPERATORS.intersection(text.split()):
        return None
    signed = [w for w in text.split() if w[:1] in "+-"]  # (-adam: kept, never left out)
    typed = [
        w
        for w in text.split()
        if w not in signed and w.strip("?!.,;").lower() not in STOP_WORDS | ASKING_WORDS
    ]
    glossary = index.query_glossary() if any(has_cjk(w) for w in typed) else None
    words = [p for w in typed for p in (words_of_run(w, glossary) if glossary else [w])]
    words = _names_whole(index, " ".join(w for w in text.split() if w not in signed), words)
    if not 2 <= len(words) <= 8:  # (a pasted passage would take a search a word)
        return None
    extra = filter_query(filters or Filters())

    def found(words_left: list[str]):  # (the papers they match, lazily; None if unparsable)
        try:
            q = parse_query(index, " ".join(words_left))
        except UsageError:
            return None
        return searcher.docs_for_query(unions(q if extra is None else _and(q, extra)))

    best = None
    with index.searcher() as searcher:
        # A word that finds nothing alone is the only one worth leaving out (two such: no
        # one word is to blame); the first match tells, and spares intersecting the rest.
        nowhere = [w for w in words if next(iter(found([w]) or ()), None) is None]
        if len(nowhere) > 1:
            return None
        # Else the topic stays: a word that names a concept is left out only where no
        # other word will do ("GRPO variants" left out GRPO: 3 papers say "variants", 4 GRPO).
        named = set() if nowhere else {w for w in words if named_concepts(index, w)}
        for word in nowhere or words:
            rest = [w for w in words if w != word] + signed
            docs = iter(found(rest) or ())
            if next(docs, None) is None:
                continue
            n = 1 + sum(1 for _ in docs)
            rank = (word in named, n)
            if best is None or rank < best[0]:
                best = (rank, (word, " ".join(rest), n))
    return best and best[1]


def _names_whole(index: PaperIndex, text: str, words: list[str]) -> list[str]:
    """*words* (those of *text* to search for) with each English name of several words as
    one, and its common words ("least squares method": "least squares", "method"; "mixture
    of experts"). Left out, a word of a name leaves the name's other words, a name of
    nothing: "least squares method" had no word to leave out, as "squares" alone finds no
    paper and "least method" none either."""
    from ...text import STOP_WORDS

    names = [name for name in named_concepts(index, text).values() if " " in name]
    out, i = [], 0
    while i < len(words):
        for name in sorted(names, key=len, reverse=True):
            inside = [w for w in name.lower().split() if w not in STOP_WORDS]
            if [w.lower() for w in words[i : i + len(inside)]] == inside:
                out.append(name)
                i += len(inside)
                break
        else:
            out.append(words[i])
            i += 1
    return out


def _and(q, extra):
    from whoosh import query

    return query.And([q, extra])
