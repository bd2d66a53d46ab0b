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
- ``result``: in a clause that reports a number (``13.01%``, ``1.4~5.4×``, ``45 倍``);
- ``workload``: what is trained (``LLM 微调``, ``language model training``).

(The rules are the search's own: ``papercli.search.concepts.passing``.) Prints, per rule, the wrong
and right hits it would drop on judged.yaml (which the glossary was built on) and on the
three sets judged blind, and judged.yaml's recall and precision if the hits it calls passing
were left out; then the same for what the search holds back (any hit, literal or bridged,
whose every mention plays a role and whose concept does not fit the paper: ``--passing``
shows them). ``-v`` lists the hits each rule drops.

Then one reading of the whole paper rather than of a sentence: how well the concept fits the
paper's other concepts (their mean pointwise mutual information, counted over the other
papers of the library), for the hits of queries that name a concept. It prints the area
under the ROC curve (how often a right hit fits better than a wrong one) and the 20
worst-fitting hits in order (W wrong, . right).
"""

from __future__ import annotations

import argparse
import math
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import yaml
from papercli.search.fit import FIT

from papercli.search.concepts.glossary import _ancestors
from papercli.search.concepts.passing import (
    ALL_ROLES,
    NAMES,
    baseline,
    experiment,
    in_list,
    passing,
    result,
    workload,
)
from papercli.search.index.paper_index import PaperIndex
from papercli.search.questions.filters import Filters
from papercli.search.questions.listing import list_papers
from papercli.search.questions.search import search
from papercli.search.questions.suggest import named_concepts
from papercli.store.library import Library
from papercli.text.latex import latex_to_text
from papercli.text.variants import normalize

REPO = Path(__file__).resolve().parent.parent
SETS = ("judged", "judged_heldout", "judged_third", "judged_fourth")
TEXTS = (*NAMES, "abstract", "summary_zh")

RULES = {
    "list": (in_list,),
    "baseline": (baseline,),
    "experiment": (experiment,),
    "result": (result,),
    "workload": (workload,),
    "list or baseline": (in_list, baseline),
    "any of the five": ALL_ROLES,
}


def query_family(index: PaperIndex, query: str) -> tuple[set[str], set[str]]:
    """The concepts *query* names, and those with every narrower concept of theirs."""
    concepts = index.glossary().concepts
    named = set(named_concepts(index, query))
    family = {cid for cid in concepts if cid in named or named & set(_ancestors(concepts, cid))}
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


def coherence(concepts: dict[str, set[str]], pid: str, named: set[str], family: set[str]):
    """The mean pointwise mutual information of the query's concepts with each other concept
    of paper *pid*, counted over the library's other papers (add-half smoothed)."""
    others = [cs for other, cs in concepts.items() if other != pid]
    with_query = [cs for cs in others if cs & named]
    scores = []
    for cid in concepts[pid] - family:
        both = sum(cid in cs for cs in with_query)
        alone = sum(cid in cs for cs in others)
        scores.append(
            math.log((both + 0.5) * len(others) / ((len(with_query) + 0.5) * (alone + 0.5)))
        )
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
        shutil.copytree(
            REPO / "data" / "library", root, ignore=shutil.ignore_patterns(".index", ".lock")
        )
        index = PaperIndex(Library(root)).open()
        dropped = {rule: Counter() for rule in RULES}
        listed = {rule: [] for rule in [*RULES, "held"]}
        held = Counter()  # what the search holds back (aside.held_back): every hit, any way found
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
                    hits = search(index, query, passing=True)  # (none held back)
                    shown = {hit.id for hit in search(index, query)}
                    for hid in {hit.id for hit in hits} - shown:
                        held[main_set, hid in relevant, language] += 1
                        row = (name, concept["name"], language, hid)
                        listed["held"].append((*row, "right" if hid in relevant else "wrong"))
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
                                listed[rule].append(
                                    (
                                        name,
                                        concept["name"],
                                        language,
                                        hit.id,
                                        "right" if right else "wrong",
                                    )
                                )
    print(
        "| rule | judged: wrong / right dropped | recall en / zh | precision en / zh "
        "| blind sets: wrong / right dropped |"
    )
    print("|---|---|---|---|---|")
    for rule, d in [
        *dropped.items(),
        (f"held back by the search (a role, and a fit below {FIT})", held),
    ]:
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
            for row in listed.get(rule, listed["held"]):
                print("    " + " · ".join(row))
    print()
    for main_set, name in ((True, "judged.yaml"), (False, "blind sets")):
        scored = sorted(fits[main_set])
        worst = " ".join("." if right else "W" for _fit, right in scored[:20])
        wrong = sum(not right for _fit, right in scored)
        print(
            f"coherence, {name}: {len(scored)} hits ({wrong} wrong), "
            f"AUC {area_under_curve(scored):.2f}; worst-fitting first: {worst}"
        )


if __name__ == "__main__":
    main()
