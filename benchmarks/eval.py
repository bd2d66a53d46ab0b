"""Search quality, measured apart from the tests (issue 41): ``make eval``.

    python benchmarks/eval.py [-v] [--no-scan] [--agreement FILE]

For each judged set of tests/data (judged by reading the 63 bundled records, not by running
the search) and each query language: recall, P@10 and nDCG@10 (``metrics.py``) of the
ranking ``search(index, text)`` returns, whole, by default and with ``--exact``.
judged.yaml and judged_second.yaml are two readers' judgements of the same 48 concepts; the
heldout, third and fourth sets are concepts judged blind, scored before any change made for
them. The sealed set (judged_sealed.yaml), when present, is reported apart: no rule of the
search is ever read from it, so its numbers say how far the search holds on concepts nobody
tuned anything for.

Then the "no paper" check (``literal.py``): each query of a list run as a real ``papers
search --ids`` process, and the "no paper" answers that a literal scan of the records
contradicts counted (0 is the target: "no paper" is said only when it is true).

``-v`` lists each concept's misses and wrong hits. ``--agreement FILE`` prints how far a
second judgement of judged.yaml's concepts agrees with it (Cohen's kappa) and the search's
recall and precision by either judge, by both and by one.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a script: benchmarks/ is a package of the repository

from benchmarks.literal import literal_matches, record_text, scan_queries  # noqa: E402
from benchmarks.metrics import Summary, precision_at, relevant_ids  # noqa: E402
from papercli.search.index.paper_index import PaperIndex  # noqa: E402
from papercli.search.questions.search import search  # noqa: E402
from papercli.store.library import Library  # noqa: E402

DATA = REPO / "tests" / "data"
SETS = ["judged.yaml", "judged_second.yaml", "judged_third.yaml", "judged_fourth.yaml"]
SETS += ["judged_heldout.yaml"]
SEALED = "judged_sealed.yaml"
MODES = {"default": False, "--exact": True}
LANGUAGES = ("en", "zh")
PAPERS = Path(sys.executable).with_name("papers")  # the command installed beside this Python
PARALLEL = 2  # processes at once: the machines have two cores
SHOWN = 10  # contradicting queries listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--no-scan", action="store_true", help="skip the 'no paper' check")
    parser.add_argument("--agreement", type=Path, help="a second judgement of judged.yaml")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        isolate(Path(tmp))
        root = Path(tmp) / "library"
        shutil.copytree(
            REPO / "data" / "library", root, ignore=shutil.ignore_patterns(".index", ".lock")
        )
        library = Library(root)
        index = PaperIndex(library).open()
        if args.agreement:
            print(agreement(index, load(DATA / "judged.yaml"), load(args.agreement)))
            return
        concepts = []
        for name in SETS:
            judged = load(DATA / name)
            concepts += judged
            print(f"## {name}: {len(judged)} concepts, judged by reading the records\n")
            print(table(index, judged, args.verbose) + "\n")
        print(f"## The sealed set ({SEALED}): no rule of the search is ever read from it\n")
        if (DATA / SEALED).exists():
            sealed = load(DATA / SEALED)
            concepts += sealed
            print(f"{len(sealed)} concepts.\n\n" + table(index, sealed, args.verbose) + "\n")
        else:
            print(f"(no tests/data/{SEALED} in this tree)\n")
        if not args.no_scan:
            records = [library.load_path(Path(entry.path)) for entry in library.record_files()]
            records.sort(key=lambda record: record.id)  # (a folder lists files in any order)
            print(no_paper_check(root, concepts, records) + "\n")
    print(f"({time.monotonic() - started:.0f} s)")


def isolate(home: Path) -> None:
    """No user's settings, glossary or library in the numbers: the bundled glossary and
    taxonomy only, as the tests have them (here and in the processes run)."""
    for key in [k for k in os.environ if k.startswith("PAPERS_")]:
        del os.environ[key]
    for name in ("CONFIG", "DATA", "CACHE"):
        os.environ[f"XDG_{name}_HOME"] = str(home / name.lower())
    os.environ["NO_COLOR"] = "1"


def load(path: Path) -> list[dict]:
    return yaml.safe_load(path.read_text("utf-8"))["concepts"]


def ranking(index, text: str, exact: bool) -> list[str]:
    """The ids ``search`` returns for *text*, best first, with no limit."""
    return [hit.id for hit in search(index, text, exact=exact)]


def table(index, judged: list[dict], verbose: bool = False) -> str:
    """One row per mode: per language, recall and the share of hits that are right (pooled
    over the concepts, with the counts), and the mean P@10 and nDCG@10."""
    head = ["mode"]
    for language in LANGUAGES:
        head += [f"{language} recall", f"{language} precision", f"{language} P@10"]
        head.append(f"{language} nDCG@10")
    rows = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    notes = []
    for mode, exact in MODES.items():
        cells = [mode]
        for language in LANGUAGES:
            summary = Summary()
            for concept in judged:
                relevant = relevant_ids(concept)
                got = ranking(index, concept[language], exact)
                summary.add(got, relevant)
                if verbose and set(got) != relevant:
                    missed, wrong = sorted(relevant - set(got)), sorted(set(got) - relevant)
                    notes.append(
                        f"  {mode} {concept['name']} ({language}): missed {missed}, wrong {wrong}"
                    )
            cells += [
                f"{summary.recall:.2f} ({summary.found}/{summary.relevant})",
                f"{summary.precision:.2f} ({summary.found}/{summary.retrieved})",
                f"{summary.mean_p_at_k:.2f}",
                f"{summary.mean_ndcg:.2f}",
            ]
        rows.append("| " + " | ".join(cells) + " |")
    # P@10 counts the empty rows of a short listing: a concept of 3 papers tops at 0.3
    ideal = [precision_at(sorted(relevant_ids(c)), relevant_ids(c)) for c in judged]
    rows.append(f"\nP@10 of a perfect ranking: {sum(ideal) / len(ideal):.2f}.")
    return "\n".join(rows + notes)


def no_paper_check(root: Path, concepts: list[dict], records: list) -> str:
    """Each query run as ``papers --library ROOT search QUERY --ids``; the answers that list
    no paper while a literal scan finds a record holding every word of the query."""
    texts = {record.id: record_text(record).casefold() for record in records}
    groups = scan_queries(concepts, records)
    queries = [(group, q) for group, qs in groups.items() for q in qs]

    def run(q: str) -> tuple[str, str]:
        args = [str(PAPERS), "--library", str(root), "search", q, "--ids"]
        try:
            done = subprocess.run(args, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            return "", "(no answer in 120 s)"
        said = done.stderr.strip().splitlines()
        return done.stdout, said[-1] if said else f"(exit {done.returncode}, nothing said)"

    with ThreadPoolExecutor(PARALLEL) as pool:
        answers = list(pool.map(run, [q for _group, q in queries]))
    empty = {group: 0 for group in groups}
    contradicted: dict[str, list[tuple[str, list[str], str]]] = {group: [] for group in groups}
    for (group, q), (stdout, said) in zip(queries, answers, strict=True):
        if stdout.split():
            continue
        empty[group] += 1
        if matches := literal_matches(q, texts):
            contradicted[group].append((q, matches, said))
    total = sum(len(found) for found in contradicted.values())
    lines = [
        '## "No paper" answers that a literal scan contradicts (0 is the target)',
        "",
        f"{total} of {len(queries)} queries; {sum(empty.values())} listed no paper.",
        "",
        "| queries | run | no paper | contradicted |",
        "|---|---|---|---|",
    ]
    for group, qs in groups.items():
        lines.append(f"| {group} | {len(qs)} | {empty[group]} | {len(contradicted[group])} |")
    listed = [item for found in contradicted.values() for item in found][:SHOWN]
    if listed:
        lines += ["", f"The first {len(listed)}:"]
    for q, matches, said in listed:
        more = f" and {len(matches) - 1} more" if len(matches) > 1 else ""
        lines.append(f"  {q!r}: in {matches[0]}{more}; papers said: {said}")
    return "\n".join(lines)


def agreement(index, first: list[dict], second: list[dict]) -> str:
    """How far two judgements of the same concepts agree (every concept × every paper of
    the library a decision; Cohen's kappa), and the search's recall and precision by each,
    by both (relevant to both judges) and by either."""
    papers = index.doc_count()
    other = {c["name"]: relevant_ids(c) for c in second}
    both = only_first = only_second = 0
    sets: dict[str, list[tuple[dict, set[str]]]] = {
        "first": [],
        "second": [],
        "both": [],
        "either": [],
    }
    for concept in first:
        a, b = relevant_ids(concept), other[concept["name"]]
        both += len(a & b)
        only_first += len(a - b)
        only_second += len(b - a)
        for name, relevant in (("first", a), ("second", b), ("both", a & b), ("either", a | b)):
            sets[name].append((concept, relevant))
    total = papers * len(first)
    observed = (total - only_first - only_second) / total
    p_first, p_second = (both + only_first) / total, (both + only_second) / total
    chance = p_first * p_second + (1 - p_first) * (1 - p_second)
    rows = [
        f"{total} decisions: relevant to both {both}, to the first only {only_first}, "
        f"to the second only {only_second}; agreement {observed:.3f}, Cohen's kappa "
        f"{(observed - chance) / (1 - chance):.2f}, relevant-set overlap (Dice) "
        f"{2 * both / (2 * both + only_first + only_second):.2f}",
        "",
        "| relevant by | en recall | en precision | zh recall | zh precision |",
        "|---|---|---|---|---|",
    ]
    got = {
        (c["name"], language): ranking(index, c[language], exact=False)
        for c in first
        for language in LANGUAGES
    }
    for name, concepts in sets.items():
        cells = []
        for language in LANGUAGES:
            summary = Summary()
            for concept, relevant in concepts:
                summary.add(got[concept["name"], language], relevant)
            cells += [
                f"{summary.recall:.2f} ({summary.found}/{summary.relevant})",
                f"{summary.precision:.2f} ({summary.found}/{summary.retrieved})",
            ]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    for concept in first:
        a, b = relevant_ids(concept), other[concept["name"]]
        if a != b:
            rows.append(
                f"  {concept['name']}: first only {sorted(a - b)}, second only {sorted(b - a)}"
            )
    return "\n".join(rows)


if __name__ == "__main__":
    main()
