"""The glossary's bridge in a query: which of its words name a concept, and how a Chinese
word run together with others is cut.

In: the query's plain words as ``rewrite.rewrite`` leaves them (the common words it left
out noted as gaps), and the compiled glossary (``QueryGlossary``). Out: the words in Whoosh
syntax, each run that names a concept as ``((its words) OR concept:id)`` (``_named``: the
concept adds papers to the words', never takes one away), and *bridges* (concept id ->
the query's words that named it) for the snippets' arrows.

A name is read with the common words left out of the query (mixture of experts). Chinese
runs its words together: a word made of names and common words (大模型微调, 大模型训练,
联邦学习框架), or of words around the particles and question words run into them
(大模型的强化学习, 如何微调大模型), is the phrase as written or its pieces each, and a name
with a head noun written on is the name (收敛性 is 收敛, 车辆路径问题 is 车辆路径). A common
word, no name, is asked for in both languages (梯度 or gradient: ``common_words.WORDS``), and an
abbreviation typed in lower case is the abbreviation (fl: FL).
"""

from __future__ import annotations

import re

from ...text import CJK_CLASS, CJK_RE
from ..concepts import common_words as common
from ..concepts.renderings import renderings
from .syntax import CHINESE_FUNCTION_WORDS


def bridge(
    out: list[str],
    bridgeable: set[int],
    glossary,
    bridges: dict,
    gaps: dict[int, list[str]],
    negated: set[int] = frozenset(),
) -> list[tuple[str, int, int]]:
    """Each run of plain words that names a concept (``federated learning``, ``联邦学习``,
    ``LLMs``) becomes ``((federated AND learning) OR concept:federated-learning)``. A name
    is read with the common words left out of the query (*gaps*: position -> those words
    before it), so ``mixture of experts`` and ``edge of stability`` name theirs. A word
    excluded (*negated*: ``NOT 大模型``, typed ``-大模型``) excludes what it would find,
    on its own. Each token comes with the positions in *out* of the words it stands for
    (start, end)."""
    result, i = [], 0
    while i < len(out):
        if i in negated:  # (-大模型 excludes the papers that say LLM, as -LLM does)
            ((tok, _start, _end),) = _bridge_run([out[i].removeprefix("NOT ")], glossary, {}, [[]])
            result.append((f"NOT {tok}", i, i + 1))
            i += 1
            continue
        if i not in bridgeable:
            result.append((out[i], i, i + 1))
            i += 1
            continue
        j = i
        while j in bridgeable:
            j += 1
        run = _bridge_run(out[i:j], glossary, bridges, [gaps.get(k, []) for k in range(i, j)])
        result += [(tok, i + start, i + end) for tok, start, end in run]
        i = j
    return result


def _bridge_run(
    words: list[str], glossary, bridges: dict, gaps: list[list[str]]
) -> list[tuple[str, int, int]]:
    from ...text.variants import american_as_typed, normalize

    words = [normalize(w) for w in words]  # (聯邦學習, ＧＲＰＯ: as indexed)
    # The words, each after the common words left out before it (``in context learning``,
    # ``mixture of experts``), as matched (American spelling) and as typed; where each
    # piece starts in the text matched, and which of *words* it is, or comes before. Chinese
    # typed apart is matched as Chinese writes it, together (联邦 学习 is 联邦学习).
    matched, typed, where, owner = [], [], [], []
    text = ""
    for k, word in enumerate(words):
        spelt_word = glossary.abbreviation(word) or american_as_typed(word)  # (fl: FL)
        for piece, spelt in [*((gap, gap) for gap in gaps[k]), (word, spelt_word)]:
            if text and not (CJK_RE.match(text[-1]) and CJK_RE.match(spelt)):
                text += " "
            where.append(len(text))
            text += spelt
            matched.append(spelt)
            typed.append(piece)
            owner.append(k)
    first_at = dict(zip(where, owner, strict=True))  # a name may start at any piece
    last_at = {
        where[n] + len(matched[n]): owner[n]
        for n in range(len(matched))
        if n + 1 == len(matched) or owner[n + 1] != owner[n]
    }  # (and end at a word)
    covers: dict[tuple[int, int], list[str]] = {}  # (first word, last word + 1) -> concepts
    named: dict[tuple[int, int], str] = {}  # the same -> the words that name it, as typed
    for start, end, cid in glossary.spans(text):
        if start in first_at and end in last_at and first_at[start] <= last_at[end]:
            span = (first_at[start], last_at[end] + 1)
            covers.setdefault(span, []).append(cid)
            inside = [t for t, at in zip(typed, where, strict=True) if start <= at < end]
            named.setdefault(span, " ".join(inside))

    out, i = [], 0
    while i < len(words):
        spans = sorted((span for span in covers if span[0] == i), key=lambda s: -s[1])
        if not spans:
            out.append((_unnamed(words[i], glossary, bridges), i, i + 1))
            i += 1
            continue
        span = spans[0]
        for cid in covers[span]:
            bridges.setdefault(cid, named[span])
        out.append((_named(words[span[0] : span[1]], covers[span]), i, span[1]))
        i = span[1]
    return out


_CHINESE_WORD_RE = re.compile(f"[{CJK_CLASS}]+")


def _named(words: list[str], cids: list[str]) -> str:
    """*words*, which name the concepts *cids*, as a query: the words as typed (what
    ``--exact`` asks for: each of them), OR the concepts. A concept adds papers, it never
    takes one away: a paper with the words is found whatever the glossary says of it
    (推理 in 推理速度 is inference, and the paper still writes 推理). Chinese typed apart
    (联邦 学习) also asks for the name as Chinese writes it (联邦学习). No phrase of an
    English name: the concept already marks the papers that write it so, and the phrase
    tripled the cost of ``large language model`` at 10,000 papers for no change on any
    judged set (``make eval``). Excluded
    (``-大模型``), it excludes whatever writes it or speaks of its concept."""
    concepts = [f"concept:{cid}" for cid in dict.fromkeys(cids)]
    if len(words) == 1:
        return f"({' OR '.join([words[0], *concepts])})"
    each = f"({' AND '.join(words)})"
    together = ["".join(words)] if all(_CHINESE_WORD_RE.fullmatch(w) for w in words) else []
    return f"({' OR '.join([each, *together, *concepts])})"


def _unnamed(word: str, glossary, bridges: dict) -> str:
    """A word that is no name as a whole. Chinese is written without spaces: names and
    common words written together (大模型微调, 大模型训练) are asked for each, and so are the
    words around the function words that join or frame them (大模型的强化学习, 如何微调大模型,
    什么是Muon): the word as written, or its pieces each."""
    cut = _around_function_words(word, glossary) or [word]
    parts = []
    for piece in cut:
        inner = _inner(piece, glossary)
        parts.append(
            f"({piece} OR ({_each(inner, bridges)}))"
            if inner
            else in_both_languages(piece, bridges)
        )
    if len(cut) == 1:
        return parts[0]
    return f"({word} OR ({' AND '.join(parts)}))"


def words_of_run(word: str, glossary) -> list[str]:
    """The words a query's *word* is read as: a Chinese run cut at its function words and
    into its names and common words (基于扩散模型的语言生成: 扩散模型, 语言生成), for the
    message that names the word to leave out; ``[word]`` for any other."""
    out = []
    for piece in _around_function_words(word, glossary) or [word]:
        inner = _inner(piece, glossary)
        out += [p for p, _cids in inner] if inner else [piece]
    return out


def _inner(piece: str, glossary) -> list[tuple[str, list[str]]] | None:
    """*piece* as the concepts it names as a whole, or as its names and common words
    (``_compound``), each with the concepts it names; None for a common word or a piece
    that is neither."""
    named = _names(piece, glossary)
    if named:
        return [(piece, named)]
    if piece in common.WORDS:
        return None
    stem = _headless(piece)  # (组合优化大模型问题: names and a head that says nothing more)
    return (stem and _compound(stem, glossary)) or _compound(piece, glossary)


def _names(word: str, glossary) -> list[str]:
    """The concepts *word* names as a whole, also as the noun of a property a name gives
    (收敛性 is convergence, 稀疏性 sparsity: Chinese adds 性 as English adds -ity), or with a
    head noun that names no other concept (车辆路径问题, the vehicle routing problem, is
    vehicle routing; 二阶优化器 is second-order optimization; 拟牛顿法 quasi-Newton), or
    with any one character written on, which is no word of its own (超参数 is 超参, the
    hyperparameter; 支持向量机 支持向量; 可微优化层 可微优化), unless the name stands there in
    another sense (推理时, at inference time: the glossary's exclusions)."""
    for whole in (word, _headless(word)):
        if whole:
            named = [
                cid for start, end, cid in glossary.spans(whole) if (start, end) == (0, len(whole))
            ]
            if named:
                return named
    if len(word) >= 3 and _CHINESE_WORD_RE.fullmatch(word[-1]):
        return [
            cid for start, end, cid in glossary.spans(word) if (start, end) == (0, len(word) - 1)
        ]
    return []


# The nouns Chinese puts after a concept's name to say the concept itself: "the problem of"
# it, "the property of" it, "the device that does" it, "the method of" it (车辆路径问题 is
# the vehicle routing problem, 收敛性 convergence, 优化器 what optimizes, 梯度下降法 gradient
# descent: the name most textbooks give it, which found nothing, as the papers write
# 梯度下降). A head that says more (联邦学习框架, a framework) is a word of the query
# (``common_words.WORDS``).
_HEADS = ("问题", "性", "器", "法")


def _headless(word: str) -> str | None:
    """*word* without the head noun it ends with, if two characters or more are left and
    the head is no end of a common word (the 法 of 方法, a method: ``common_words.WORDS``)."""
    for head in _HEADS:
        if (
            word.endswith(head)
            and len(word) - len(head) >= 2
            and not any(word.endswith(w) for w in common.WORDS if w != head and w.endswith(head))
        ):
            return word[: -len(head)]
    return None


# A paper found by a word's translation only ranks below those that write the word, as one
# found only through the glossary does (schema.CONCEPT_BOOST). At full weight 梯度 listed
# 74 pairs of its 26 hits out of that order (a title saying "Gradient" counts 4), and
# "training" 112; at 0.2, 梯度 3; at 0.05 none of the 19 queries of WORDS measured.
TRANSLATION_BOOST = 0.05
TRANSLATED = "word:"  # (a key of *bridges* for a rendering, beside the concepts' ids)


def in_both_languages(word: str, bridges: dict) -> str:
    """*word*, or it and its rendering in the other language (a common word:
    ``common_words.WORDS``), noted in *bridges* as ``TRANSLATED`` + the rendering -> *word*
    (for the snippet's arrow: 梯度 → gradient). A property's noun (稳定性, stability: a
    word and 性) is also the word it is made from (稳定), as English stems "smoothness" to
    "smooth": 光滑性 found no paper that writes 高阶光滑 (highly smooth), 训练稳定性 none
    that writes 稳定训练."""
    if word.endswith("性") and len(word) >= 3 and _CHINESE_WORD_RE.fullmatch(word):
        return f"({word} OR {in_both_languages(word[:-1], bridges)})"
    rendered = renderings(word)
    if not rendered:
        return word
    for rendering in rendered:
        bridges.setdefault(TRANSLATED + rendering, word)
    return f"({word} OR {' OR '.join(f'{r}^{TRANSLATION_BOOST}' for r in rendered)})"


def _each(pieces: list[tuple[str, list[str]]], bridges: dict) -> str:
    """Each piece, as the concept it names (``_named``; a common word: in both languages):
    all of them."""
    out = []
    for piece, cids in pieces:
        for cid in cids:
            bridges.setdefault(cid, piece)
        out.append(_named([piece], cids) if cids else in_both_languages(piece, bridges))
    return " AND ".join(out)


# A run of Chinese is cut at the function words written together with its words (的, 和,
# 基于, 如何, 论文: ``syntax.CHINESE_FUNCTION_WORDS``), only outside the glossary's names
# and only where each piece keeps two characters: 总和 (a sum) and 涉及 (involve) stay whole.
_FUNCTION_RE = re.compile("|".join(map(re.escape, CHINESE_FUNCTION_WORDS)))


def _around_function_words(word: str, glossary) -> list[str] | None:
    """The pieces of a Chinese *word* around its function words (大模型的强化学习: 大模型,
    强化学习); None when there is no such cut."""
    from ...text import has_cjk

    if not has_cjk(word):
        return None
    names = [(start, end) for start, end, _cid in glossary.spans(word)]
    pieces, pos = [], 0
    for m in _FUNCTION_RE.finditer(word):
        if not any(start < m.end() and m.start() < end for start, end in names):
            pieces.append(word[pos : m.start()])
            pos = m.end()
    pieces = [p for p in (*pieces, word[pos:]) if p]
    if pos == 0 or not pieces or any(len(p) < 2 for p in pieces):
        return None
    return pieces


# The longest piece of neither kind a cut leaves between two known words (a word, as
# 量子 or Muon, not a phrase: a passage of 3,200 characters was cut in 2 s without a bound)
_LONGEST_OTHER = 12


def _compound(word: str, glossary) -> list[tuple[str, list[str]]] | None:
    """A Chinese word that is the glossary's names and common words (``common_words.WORDS``) written
    together, as Chinese is, without a space, as its pieces with the concepts each names:
    大模型微调 is 大模型 and 微调, 大模型训练 大模型 and 训练 (training), 量子联邦学习 量子
    and 联邦学习. Between two such words, or before or after one, a piece of two letters or
    more is a word of its own (量子), up to twelve; one is no word (协 of 协方差), nor is
    punctuation. The cut leaves the fewest characters outside the known words, then takes
    the fewest and longest of them. None for a word that is not two pieces or more."""
    from bisect import bisect_left, bisect_right

    from ...text import has_cjk

    if len(word) < 3 or not has_cjk(word):
        return None
    known: dict[int, dict[int, list[str]]] = {}  # start -> end -> concepts (a common word: [])
    for start, end, cid in glossary.spans(word):
        known.setdefault(start, {}).setdefault(end, []).append(cid)
    for start, end in common.spans(word):
        known.setdefault(start, {}).setdefault(end, [])

    # best[after_other][pos]: the cheapest cut of word[pos:] (characters left outside the
    # known words, pieces) and its first piece (end, concepts or None for a piece of
    # neither kind), after such a piece or not; filled from the end and followed from the
    # start, without recursion: a pasted passage may hold thousands of characters
    n = len(word)
    starts = [*sorted(known), n]  # (where a piece of neither kind may end)
    best: dict[bool, list] = {False: [None] * (n + 1), True: [None] * (n + 1)}
    best[False][n] = best[True][n] = ((0, 0), None)
    for pos in range(n - 1, -1, -1):
        for after_other in (True, False):
            options = []
            for end, cids in sorted(known.get(pos, {}).items(), reverse=True):  # longest first
                if rest := best[False][end]:
                    options.append(((rest[0][0], rest[0][1] + 1), (end, cids)))
            first, last = bisect_left(starts, pos + 2), bisect_right(starts, pos + _LONGEST_OTHER)
            for end in () if after_other else starts[first:last]:
                rest = best[True][end]
                if rest and word[pos:end].isalnum():
                    options.append(((rest[0][0] + end - pos, rest[0][1] + 1), (end, None)))
            best[after_other][pos] = min(options, key=lambda o: o[0], default=None)
    if not known or best[False][0] is None or best[False][0][0][1] < 2:
        return None
    pieces, pos, after_other = [], 0, False
    while pos < n:
        end, cids = best[after_other][pos][1]
        pieces.append((word[pos:end], cids or []))
        pos, after_other = end, cids is None
    return pieces
