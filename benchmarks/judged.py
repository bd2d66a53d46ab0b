"""Recall and precision of search over the judged set (tests/data/judged.yaml), per query
language, with the glossary's bridge (the default) and with ``--exact``.

    python benchmarks/judged.py [-v] [--set FILE] [--agreement FILE]

The set's 48 concepts were judged by reading the 63 bundled records, not by running the
search or the glossary. A paper found counts once per concept. A second table tells where
the relevant papers rank (R-precision, MAP). ``-v`` lists each concept's misses and extra
hits. ``--set`` scores against another judgement: of the same concepts (a second reader's:
tests/data/judged_second.yaml), or of new ones, judged blind, which the glossary was not
built on (tests/data/judged_heldout.yaml, 25 concepts; tests/data/judged_third.yaml, 20):
how far the search holds on concepts nobody tuned it for. ``--agreement`` prints how far
a second judgement of the same concepts agrees with judged.yaml, and the search's recall
and precision by either judge, by both and by one.
The numbers of an older commit come from the same script run with ``PYTHONPATH`` pointing at
that commit's ``src`` (``exact`` is then the only mode there is).
"""

from __future__ import annotations

import argparse
import inspect
import shutil
import tempfile
from pathlib import Path

import yaml

from papercli.search.index import PaperIndex
from papercli.search.query import search
from papercli.store.library import Library

REPO = Path(__file__).resolve().parent.parent
JUDGED = REPO / "tests" / "data" / "judged.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--set", type=Path, default=JUDGED, help="the judgement to score")
    parser.add_argument("--agreement", type=Path, help="a second judgement to compare")
    args = parser.parse_args()
    judged = yaml.safe_load(args.set.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "library"
        shutil.copytree(
            REPO / "data" / "library", root, ignore=shutil.ignore_patterns(".index", ".lock")
        )
        index = PaperIndex(Library(root)).open()
        if args.agreement:
            second = yaml.safe_load(args.agreement.read_text("utf-8"))
            print(agreement(index, judged, second))
            return
        modes = [True, False] if "exact" in inspect.signature(search).parameters else [None]
        print("| mode | English recall | English precision | Chinese recall | Chinese precision |")
        print("|---|---|---|---|---|")
        for exact in modes:
            kwargs = {} if exact is None else {"exact": exact}
            totals = {"en": [0, 0, 0], "zh": [0, 0, 0]}  # found, relevant, retrieved
            for concept in judged["concepts"]:
                relevant = set(concept["relevant"])
                for language, total in totals.items():
                    got = {hit.id for hit in search(index, concept[language], **kwargs)}
                    total[0] += len(got & relevant)
                    total[1] += len(relevant)
                    total[2] += len(got)
                    if args.verbose and got != relevant:
                        missed, extra = sorted(relevant - got), sorted(got - relevant)
                        print(f"  {concept['name']} ({language}): missed {missed}, extra {extra}")
            cells = []
            for found, relevant, retrieved in totals.values():
                cells += [
                    f"{found / relevant:.2f} ({found}/{relevant})",
                    f"{found / max(retrieved, 1):.2f} ({found}/{retrieved})",
                ]
            name = {True: "--exact", False: "bridged", None: "(no bridge)"}[exact]
            print(f"| {name} | " + " | ".join(cells) + " |")
        if modes == [True, False]:
            print(bridge_only(index, judged))
        print()
        print(ranked(index, judged, modes))


def ranked(index, judged, modes) -> str:
    """Where the relevant papers rank, averaged over the concepts: R-precision (the share
    of the first R hits that are relevant, R being how many are) and average precision
    (MAP). Recall and precision count a set; these tell whether the wrong hits come last."""
    rows = [
        "| mode | English R-precision | English MAP | Chinese R-precision | Chinese MAP |",
        "|---|---|---|---|---|",
    ]
    for exact in modes:
        kwargs = {} if exact is None else {"exact": exact}
        cells = []
        for language in ("en", "zh"):
            r_precision, average = [], []
            for concept in judged["concepts"]:
                relevant = set(concept["relevant"])
                got = [hit.id for hit in search(index, concept[language], **kwargs)]
                r_precision.append(len(set(got[: len(relevant)]) & relevant) / len(relevant))
                found, total = 0, 0.0
                for rank, rid in enumerate(got, 1):
                    if rid in relevant:
                        found += 1
                        total += found / rank
                average.append(total / len(relevant))
            n = len(judged["concepts"])
            cells += [f"{sum(r_precision) / n:.2f}", f"{sum(average) / n:.2f}"]
        name = {True: "--exact", False: "bridged", None: "(no bridge)"}[exact]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def agreement(index, first, second) -> str:
    """How far two judgements of the same concepts agree (every concept × every paper of
    the library a decision; Cohen's kappa), and the search's recall and precision by each,
    by both (relevant to both judges) and by either."""
    papers = index.doc_count()
    other = {c["name"]: set(c["relevant"]) for c in second["concepts"]}
    both = only_first = only_second = 0
    sets: dict[str, list[tuple[dict, set[str]]]] = {
        "first": [],
        "second": [],
        "both": [],
        "either": [],
    }
    for concept in first["concepts"]:
        a, b = set(concept["relevant"]), other[concept["name"]]
        both += len(a & b)
        only_first += len(a - b)
        only_second += len(b - a)
        for name, relevant in (("first", a), ("second", b), ("both", a & b), ("either", a | b)):
            sets[name].append((concept, relevant))
    total = papers * len(first["concepts"])
    observed = (total - only_first - only_second) / total
    p_first, p_second = (both + only_first) / total, (both + only_second) / total
    chance = p_first * p_second + (1 - p_first) * (1 - p_second)
    rows = [
        f"{total} decisions: relevant to both {both}, to the first only {only_first}, "
        f"to the second only {only_second}; agreement {observed:.3f}, Cohen's kappa "
        f"{(observed - chance) / (1 - chance):.2f}, relevant-set overlap (Dice) "
        f"{2 * both / (2 * both + only_first + only_second):.2f}",
        "",
        "| relevant by | English recall | English precision | Chinese recall | Chinese precision |",
        "|---|---|---|---|---|",
    ]
    got = {
        (c["name"], language): {hit.id for hit in search(index, c[language])}
        for c in first["concepts"]
        for language in ("en", "zh")
    }
    for name, concepts in sets.items():
        cells = []
        for language in ("en", "zh"):
            found = sum(len(got[c["name"], language] & rel) for c, rel in concepts)
            relevant = sum(len(rel) for _c, rel in concepts)
            retrieved = sum(len(got[c["name"], language]) for c, _rel in concepts)
            cells += [
                f"{found / relevant:.2f} ({found}/{relevant})",
                f"{found / max(retrieved, 1):.2f} ({found}/{retrieved})",
            ]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    for concept in first["concepts"]:
        a, b = set(concept["relevant"]), other[concept["name"]]
        if a != b:
            rows.append(
                f"  {concept['name']}: first only {sorted(a - b)}, second only {sorted(b - a)}"
            )
    return "\n".join(rows)


def bridge_only(index, judged) -> str:
    """The precision of the hits found only through the bridge (bridged, not ``--exact``):
    whether the glossary bridges to papers about the concept, apart from what the query's
    own words find."""
    cells = []
    for language in ("en", "zh"):
        right = total = 0
        for concept in judged["concepts"]:
            only = {h.id for h in search(index, concept[language])} - {
                h.id for h in search(index, concept[language], exact=True)
            }
            right += len(only & set(concept["relevant"]))
            total += len(only)
        cells.append(f"{right / max(total, 1):.2f} ({right}/{total})")
    return f"| bridge only | | {cells[0]} | | {cells[1]} |"


if __name__ == "__main__":
    main()
