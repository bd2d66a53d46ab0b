"""Whether the sentence around a mention tells a passing mention from the paper's topic
(issue 14): the hits found only through the glossary, on the four judged sets, as each
reading rule would decide them.

    python benchmarks/passing.py [-v]

The wrong hits left on the judged set are mostly papers that name the concept in passing:
as one item of a list, as a baseline, as the workload of an experiment. For each hit found
only through the bridge (bridged, not ``--exact``), every place where the paper names the
query's concept, or a narrower one, is read with its sentence. A rule calls the hit
passing when it calls every such place passing (a name in the title or the short name never
is). Rules:

- ``list``: one item of a list in parentheses (``（TSP、MIS、CVRP 等）``, ``(A, B, C)``);
- ``baseline``: the object of a comparison (``over X``, ``than X``, ``比 X``, ``优于 X``) or a
  baseline (``X 基线``, ``X baselines``);
- ``experiment``: in a sentence that speaks of experiments (``实验``, ``experiments``);
- ``result``: in a clause that reports a number (``13.01%``, ``1.4~5.4×``, ``45 倍``).

Prints, per rule, the wrong and right hits it would drop on judged.yaml (which the glossary
was built on) and on the three sets judged blind, and judged.yaml's recall and precision if
the hits it calls passing were left out. ``-v`` lists the hits each rule drops.

Then one reading of the whole paper rather than of a sentence: how well the concept fits the
paper's other concepts (their mean pointwise mutual information, counted over the other
papers of the library), for the hits of queries that name a concept. It prints the area
under the ROC curve (how often a right hit fits better than a wrong one) and the 20
worst-fitting hits in order (W wrong, . right).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from papercli.search.glossary import _ancestors
from papercli.search.index import PaperIndex
from papercli.search.query import Filters, list_papers, named_concepts, search
from papercli.store.library import Library
from papercli.text.latex import latex_to_text
from papercli.text.variants import normalize

REPO = Path(__file__).resolve().parent.parent
SETS = ("judged", "judged_heldout", "judged_third", "judged_fourth")
NAMES = ("title", "short_name")
TEXTS = (*NAMES, "abstract", "summary_zh")

SENTENCE_END = re.compile(r"[。；！？;!?\n]|\.(?=\s|$)")
CLAUSE_END = re.compile(r"[。；！？;!?\n，,：:]|\.(?=\s|$)")
NUMBER = re.compile(r"\d(?:[\d.]*)\s*(?:%|％|×|倍|个点|x\b|-fold)|从\s*[\d.]+%?\s*(?:到|至)"
                    r"|\bfrom\s+[\d.]+%?\s+to\b")  # fmt: skip
COMPARED = re.compile(
    r"(?:\b(?:than|over|versus|vs\.?|outperforms?|outperforming|against)|compared (?:to|with))"
    r"\s+(?:\S+\s+){0,2}$|(?:(?<!可)比|相比于?|相较于?|优于|超越了?)[^，。,;；]{0,12}$",
    re.I,
)
BASELINE = re.compile(r"\s*(?:基线|baselines?\b)", re.I)


def _around(text: str, start: int, end: int, ends: re.Pattern) -> str:
    """The sentence (or clause) of *text* that holds text[start:end]."""
    begin = max((m.end() for m in ends.finditer(text, 0, start)), default=0)
    after = ends.search(text, end)
    return text[begin : after.start() if after else len(text)]


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


RULES = {
    "list": (in_list,),
    "baseline": (baseline,),
    "experiment": (experiment,),
    "result": (result,),
    "list or baseline": (in_list, baseline),
    "any of the four": (in_list, baseline, experiment, result),
}


def query_family(index: PaperIndex, query: str) -> tuple[set[str], set[str]]:
    """The concepts *query* names, and those with every narrower concept of theirs."""
    concepts = index.glossary().concepts
    named = set(named_concepts(index, query))
    family = {cid for cid in concepts if cid in named
              or named & set(_ancestors(concepts, cid))}  # fmt: skip
    return named, family


def mentions(index: PaperIndex, family: set[str], data: dict) -> list[tuple[str, str, int, int]]:
    """(field, text, start, end) of each place the paper names a concept of *family*."""
    tags = [index.glossary().concepts[cid].tag for cid in family]
    places = set()
    for name in TEXTS:
        if data.get(name):
            text = normalize(latex_to_text(data[name]))
            places |= {(name, text, s, e) for tag in tags for s, e in tag.spans(text)}
    return sorted(places, key=lambda p: (p[0], p[2]))


def passing(places, tests) -> bool:
    return bool(places) and all(
        name not in NAMES and any(test(text, s, e) for test in tests) for name, text, s, e in places
    )


def coherence(concepts: dict[str, set[str]], pid: str, named: set[str], family: set[str]):
    """The mean pointwise mutual information of the query's concepts with each other concept
    of paper *pid*, counted over the library's other papers (add-half smoothed)."""
    others = [cs for other, cs in concepts.items() if other != pid]
    with_query = [cs for cs in others if cs & named]
    scores = []
    for cid in concepts[pid] - family:
        both = sum(cid in cs for cs in with_query)
        alone = sum(cid in cs for cs in others)
        scores.append(math.log((both + 0.5) * len(others)
                               / ((len(with_query) + 0.5) * (alone + 0.5))))  # fmt: skip
    return sum(scores) / len(scores) if scores else 0.0


def area_under_curve(scored: list[tuple[float, bool]]) -> float:
    right = [score for score, is_right in scored if is_right]
    wrong = [score for score, is_right in scored if not is_right]
    pairs = [(r > w) + 0.5 * (r == w) for r in right for w in wrong]
    return sum(pairs) / max(len(pairs), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "library"
        shutil.copytree(REPO / "data" / "library", root,
                        ignore=shutil.ignore_patterns(".index", ".lock"))  # fmt: skip
        index = PaperIndex(Library(root)).open()
        dropped = {rule: Counter() for rule in RULES}
        listed = {rule: [] for rule in RULES}
        totals = Counter()  # (language, "found" | "relevant" | "retrieved") on judged.yaml
        fits = {True: [], False: []}  # judged.yaml or not -> (coherence, right)
        concepts = {hit.id: set(hit.concepts) for hit in list_papers(index, Filters())}
        for name in SETS:
            judged = yaml.safe_load((REPO / "tests" / "data" / f"{name}.yaml").read_text("utf-8"))
            main_set = name == "judged"
            for concept in judged["concepts"]:
                relevant = set(concept["relevant"])
                for language in ("en", "zh"):
                    query = concept[language]
                    hits = search(index, query)
                    exact = {hit.id for hit in search(index, query, exact=True)}
                    if main_set:
                        totals[language, "found"] += len({h.id for h in hits} & relevant)
                        totals[language, "relevant"] += len(relevant)
                        totals[language, "retrieved"] += len(hits)
                    named, family = query_family(index, query)
                    for hit in hits:
                        if hit.id in exact:
                            continue
                        places = mentions(index, family, hit.data)
                        right = hit.id in relevant
                        if named:  # (not a query bridged only by its common words)
                            fit = coherence(concepts, hit.id, named, family)
                            fits[main_set].append((fit, right))
                        for rule, tests in RULES.items():
                            if passing(places, tests):
                                dropped[rule][main_set, right, language] += 1
                                listed[rule].append((name, concept["name"], language, hit.id,
                                                     "right" if right else "wrong"))  # fmt: skip
    print(
        "| rule | judged: wrong / right dropped | recall en / zh | precision en / zh "
        "| blind sets: wrong / right dropped |"
    )
    print("|---|---|---|---|---|")
    for rule in RULES:
        d = dropped[rule]
        scores = []
        for language in ("en", "zh"):
            found = totals[language, "found"] - d[True, True, language]
            retrieved = (
                totals[language, "retrieved"] - d[True, True, language] - d[True, False, language]
            )
            scores.append((found / totals[language, "relevant"], found / retrieved))
        wrong = d[True, False, "en"] + d[True, False, "zh"]
        right = d[True, True, "en"] + d[True, True, "zh"]
        blind_wrong = d[False, False, "en"] + d[False, False, "zh"]
        blind_right = d[False, True, "en"] + d[False, True, "zh"]
        (recall_en, precision_en), (recall_zh, precision_zh) = scores
        print(
            f"| {rule} | {wrong} / {right} | {recall_en:.3f} / {recall_zh:.3f} "
            f"| {precision_en:.3f} / {precision_zh:.3f} | {blind_wrong} / {blind_right} |"
        )
        if args.verbose:
            for row in listed[rule]:
                print("    " + " · ".join(row))
    print()
    for main_set, name in ((True, "judged.yaml"), (False, "blind sets")):
        scored = sorted(fits[main_set])
        worst = " ".join("." if right else "W" for _fit, right in scored[:20])
        wrong = sum(not right for _fit, right in scored)
        print(f"coherence, {name}: {len(scored)} hits ({wrong} wrong), "
              f"AUC {area_under_curve(scored):.2f}; worst-fitting first: {worst}")  # fmt: skip


if __name__ == "__main__":
    main()
