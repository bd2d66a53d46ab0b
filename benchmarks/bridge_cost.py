"""What the glossary's bridge and the script converter add to a cold search, measured
inside fresh processes (a whole command's time varies by more than they cost).

    python benchmarks/bridge_cost.py [--runs 15] [LIBRARY]     (default: data/library)

Each run is a new Python process that imports what ``papers search`` imports, opens the
index, then times turning the query into a Whoosh query with ``--exact`` (no glossary,
no conversion beyond the analyzer's) and without it, and running both; the first query of a
process pays every load (the compiled glossary, the spelling tables). The time is the
process's CPU time: on a shared machine the wall time of the same run moved by more than
the bridge costs (+4.8 and +13.8 ms for the same code, two rounds of 21). Prints one
Markdown table of medians.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUERIES = [
    "muon",
    "federated learning",
    "联邦学习",
    "聯邦學習",
    "ＧＲＰＯ",
    "muon optimiser",
    "accelerate training",
    "训练加速",
    "大语言模型",
    "large language model",
]

CHILD = """
import gc, json, sys, time
gc.disable()  # (as papers' entry point does, cli.main: what importing the commands made
from papercli.cli.app import app  # is kept out of the collector's scans)
gc.freeze()
gc.enable()
from papercli.engine import lean
lean.load()  # (as a command does when it starts)
from papercli.store.library import Library
from papercli.search.questions import search as search_module
from papercli.search.index.paper_index import PaperIndex
index = PaperIndex(Library(sys.argv[1])).open()
query, exact = sys.argv[2], sys.argv[3] == "exact"
parse, spent = search_module.parse_query, []

def timed(*args, **kwargs):  # (the query made: glossary, converter, bridge, Whoosh query)
    start = time.process_time()
    try:
        return parse(*args, **kwargs)
    finally:
        spent.append(time.process_time() - start)

search_module.parse_query = timed
start = time.process_time()
hits = search_module.search(index, query, exact=exact)
print(json.dumps([time.process_time() - start, sum(spent), len(hits)]))
"""


def measure(library: Path, runs: int) -> list[tuple]:
    times: dict[tuple[str, str], list[float]] = {}
    made: dict[tuple[str, str], list[float]] = {}
    counts: dict[tuple[str, str], int] = {}
    for _ in range(runs):
        for query in QUERIES:
            for mode in ("exact", "bridged"):
                out = subprocess.run(
                    [sys.executable, "-c", CHILD, str(library), query, mode],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                seconds, parsing, n = json.loads(out.stdout)
                times.setdefault((query, mode), []).append(seconds)
                made.setdefault((query, mode), []).append(parsing)
                counts[(query, mode)] = n
    rows = []
    for query in QUERIES:
        exact = statistics.median(times[(query, "exact")])
        bridged = statistics.median(times[(query, "bridged")])
        made_more = statistics.median(made[(query, "bridged")]) - statistics.median(
            made[(query, "exact")]
        )
        rows.append(
            (query, exact, bridged, made_more, counts[(query, "exact")], counts[(query, "bridged")])
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", type=Path, default=REPO / "data" / "library")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "library"
        shutil.copytree(args.library, library, ignore=shutil.ignore_patterns(".lock"))
        # (the first process builds the index, untimed)
        rows = measure(library, args.runs)
    print(f"\nThe bridge and the converter in a cold process ({args.runs} runs, medians)\n")
    print(
        "| query | --exact | bridged | added | of which making the query | "
        "hits --exact | hits bridged |\n|---|---|---|---|---|---|---|"
    )
    for query, exact, bridged, made_more, n_exact, n_bridged in rows:
        added = (bridged - exact) * 1000
        print(
            f"| `{query}` | {exact * 1000:.1f} ms | {bridged * 1000:.1f} ms | {added:+.1f} ms "
            f"| {made_more * 1000:+.1f} ms | {n_exact} | {n_bridged} |"
        )
    print(
        "\n(making the query: reading the glossary, converting scripts and spellings, the "
        "bridge and the\nWhoosh query; the rest of what is added is finding, ranking and "
        "showing the papers the\nbridge finds.)"
    )


if __name__ == "__main__":
    main()
