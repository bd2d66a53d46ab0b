"""Which of a paper's concepts it names only in passing: read when the paper is indexed.

In: the paper's texts (plain readings, in one spelling) and the concepts the glossary found
in them. Out: the ids of the concepts every mention of which (of the concept, or of a
narrower one) stands in a passing role, never in the title or the short name:

- ``list``: one item of a list in parentheses (``8 类问题（TSP、MIS、CVRP 等）``, ``(A, B, C)``);
- ``baseline``: the object of a comparison (``over X``, ``than X``, ``比 X``, ``优于 X``) or a
  baseline (``X 基线``, ``X baselines``);
- ``experiment``: in a sentence that speaks of experiments (``实验``, ``experiments``);
- ``result``: in a clause that reports a number (``13.01%``, ``1.4~5.4×``, ``45 倍``);
- ``workload``: what is trained (``LLM 微调``, ``语言模型预训练``, ``language model training``).

A role alone can be wrong: a paper's own kind is its baseline too (DeCoST, on routing, is
faster than metaheuristics), and a result names the paper's task (VIP's 数学推理任务). So a
passing mention only ranks a paper below the others, marked; it never hides it, and a
concept the paper is tagged with is never passing (``Glossary.read``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from ...text import SENTENCE_END as SENTENCES

NAMES = ("title", "short_name")  # (a concept named there is the paper's own)

# (text's sentence ends: never a decimal point or an abbreviation's full stop, e.g. Fig. 3)
SENTENCE_END = re.compile(rf"[；;\n]|{SENTENCES}")
CLAUSE_END = re.compile(rf"[；;\n，,：:]|{SENTENCES}")
NUMBER = re.compile(
    r"\d(?:[\d.]*)\s*(?:%|％|×|倍|个点|x\b|-fold)|从\s*[\d.]+%?\s*(?:到|至)"
    r"|\bfrom\s+[\d.]+%?\s+to\b"
)
COMPARED = re.compile(
    r"(?:\b(?:than|over|versus|vs\.?|outperforms?|outperforming|against)|compared (?:to|with))"
    r"\s+(?:\S+\s+){0,2}$|(?:(?<!可)比|相比于?|相较于?|优于|超越了?)[^，。,;；]{0,12}$",
    re.I,
)
BASELINE = re.compile(r"\s*(?:基线|baselines?\b)", re.I)
TRAINING = re.compile(
    r"\s*(?:模型)?\s*(?:的)?(?:微调|预训练|训练|fine-?tuning|pre-?training|training)", re.I
)


def _around(text: str, start: int, end: int, ends: re.Pattern) -> str:
    """The sentence (or clause) of *text* that holds text[start:end]."""
    stops, nexts = _boundaries(text, ends)
    i = bisect_right(stops, start) - 1  # (the last boundary ending at or before the mention)
    begin = stops[i] if i >= 0 else 0
    j = bisect_left(nexts, end)  # (the first boundary starting at or after its end)
    return text[begin : nexts[j] if j < len(nexts) else len(text)]


@lru_cache(maxsize=16)
def _boundaries(text: str, ends: re.Pattern) -> tuple[list[int], list[int]]:
    """Where each boundary of *text* ends and where each starts, once a text: each mention
    scanning the text up to it was a third of indexing's reading of passing mentions."""
    found = list(ends.finditer(text))
    return [m.end() for m in found], [m.start() for m in found]


def in_list(text: str, start: int, end: int) -> bool:
    opened = max(text.rfind("（", 0, start), text.rfind("(", 0, start))
    if opened < 0 or max(text.rfind("）", 0, start), text.rfind(")", 0, start)) > opened:
        return False
    closes = [i for i in (text.find("）", end), text.find(")", end)) if i >= 0]
    if not closes:
        return False
    inner = text[opened + 1 : min(closes)]
    return "、" in inner or inner.count(",") >= 2 or "+" in inner or "等" in inner


def baseline(text: str, start: int, end: int) -> bool:
    return bool(COMPARED.search(text[max(0, start - 20) : start])) or bool(
        BASELINE.match(text, end)
    )


def experiment(text: str, start: int, end: int) -> bool:
    return bool(re.search(r"实验|experiment", _around(text, start, end, SENTENCE_END), re.I))


def result(text: str, start: int, end: int) -> bool:
    return bool(NUMBER.search(_around(text, start, end, CLAUSE_END)))


def workload(text: str, start: int, end: int) -> bool:
    return bool(TRAINING.match(text, end))


ROLES = {
    "list": in_list,
    "baseline": baseline,
    "experiment": experiment,
    "result": result,
    "workload": workload,
}


ALL_ROLES = tuple(ROLES.values())
CHEAP_FIRST = (in_list, baseline, workload, result, experiment)


def passing(places: list[tuple[str, str, int, int]], roles=ALL_ROLES) -> bool:
    """Whether every one of *places* (field, text, start, end) plays one of *roles*."""
    return bool(places) and all(
        name not in NAMES and any(role(text, s, e) for role in roles) for name, text, s, e in places
    )


def aside(glossary, texts: dict[str, str], found: dict[str, str]) -> list[str]:
    """The concepts of *found* (id -> words, ``Glossary.find``) that *texts* (field ->
    plain text) name only in passing, with the narrower concepts found for each."""
    from ...tags.taxonomy import word_set

    tags, broader = glossary.tags, glossary.broader_map
    order = sorted(texts, key=lambda name: name not in NAMES)  # (a name first: never passing)
    prepared = [(name, texts[name], texts[name].lower()) for name in order if texts[name]]
    words: dict[str, set[str]] = {}
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def places(cid: str, name: str, text: str, lowered: str) -> list[tuple[int, int]]:
        if (cid, name) not in spans:  # (a concept's, read once for itself and its broader ones)
            if name not in words:
                words[name] = word_set(lowered)
            spans[cid, name] = list(tags[cid].spans(text, lowered, words[name]))
        return spans[cid, name]

    def in_passing(family: list[str]) -> bool:
        named = False
        for name, text, lowered in prepared:  # (stops at the first mention that is no role's)
            for cid in family:
                for start, end in places(cid, name, text, lowered):
                    if name in NAMES or not any(role(text, start, end) for role in CHEAP_FIRST):
                        return False
                    named = True
        return named

    narrower: dict[str, list[str]] = {cid: [cid] for cid in found if cid in tags}
    for cid in found:
        for up in broader.get(cid, ()):
            if up in narrower and cid in tags:
                narrower[up].append(cid)
    return [cid for cid, family in narrower.items() if in_passing(family)]
