"""Where a cold ``papers search`` spends its time, as a Markdown table.

    python benchmarks/profile_search.py LIBRARY TERM [--runs 7]

Two views, each the median of several cold processes (bytecode compiled first):

- imports: ``python -X importtime``, self time summed per top-level package (the
  instrumentation inflates every figure a little; the shares are what matters), and
  summed again in parts: what ``import typer`` alone imports, what a lean import of
  Whoosh adds, papers' own modules, and what else papers imports (see ``parts``);
- the command itself: ``cProfile`` around one search, cumulative time of the steps the
  command takes after its imports (settings, opening the index, parsing the query,
  searching, snippets, printing).
"""

from __future__ import annotations

import argparse
import io
import os
import pstats
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (label, file suffix, function name) of the steps inside the command
STEPS = [
    ("settings and library location", "papercli/cli/app.py", "library"),
    ("open the index (its imports included)", "papercli/search/index/paper_index.py", "open"),
    ("parse the query", "papercli/search/querying/parse.py", "parse_query"),
    ("run the query, check the hits' files", "papercli/search/index/paper_index.py", "run"),
    ("snippets", "papercli/search/results/snippets.py", "snippet"),
    ("print the hits", "papercli/render/__init__.py", "print_hits"),
]


def import_times(library: str, term: str, runs: int) -> tuple[dict, dict, dict]:
    """Median self time (ms) per top-level package, per part (``parts``), and per module
    of papers."""
    per_package: list[Counter] = []
    per_part: list[Counter] = []
    per_own: list[Counter] = []
    argv = [sys.executable, "-X", "importtime", "-m", "papercli", "--library", library]
    typer_alone = _imported(["-c", "import typer.main"])
    whoosh_alone = _imported(["-c", _LEAN_WHOOSH])
    for _ in range(runs):
        err = subprocess.run([*argv, "search", term], capture_output=True, text=True).stderr
        times = _self_times(err)
        per_package.append(Counter())
        for name, ms in times.items():
            per_package[-1][name.split(".")[0]] += ms
        per_part.append(parts(times, typer_alone, whoosh_alone))
        per_own.append(Counter({n: ms for n, ms in times.items() if n.startswith("papercli")}))
    return _medians(per_package), _medians(per_part), _medians(per_own)


# The modules of Whoosh a search of plain words uses, imported as the command line imports
# them (no query parser: querying.build).
_LEAN_WHOOSH = (
    "from papercli.engine import lean; lean.load(); "
    "import whoosh.index, whoosh.query, whoosh.analysis, whoosh.fields, "
    "whoosh.codec.whoosh3, whoosh.searching, whoosh.scoring"
)
TYPER, WHOOSH, OWN, MORE = (
    "Typer, with what it imports (the interpreter's start-up included)",
    "Whoosh, with what it imports beyond that",
    "papers' own modules",
    "what papers imports beyond Typer and Whoosh",
)


def parts(times: dict[str, float], typer_alone: set, whoosh_alone: set) -> Counter:
    """The search's import time in four parts: every module ``import typer`` alone
    imports is Typer's (``inspect``, ``pathlib``, ``enum``: papers would import some of them
    anyway); of the rest, every module a lean import of Whoosh imports is Whoosh's; then
    papers' own modules; then the rest (``platformdirs``, ``breame``, ``json``, …)."""
    out: Counter = Counter()
    for name, ms in times.items():
        if name in typer_alone:
            out[TYPER] += ms
        elif name in whoosh_alone:
            out[WHOOSH] += ms
        elif name.split(".")[0] == "papercli":
            out[OWN] += ms
        else:
            out[MORE] += ms
    return out


def _imported(args: list[str]) -> set[str]:
    env = {**os.environ, "TYPER_USE_RICH": "0"}  # (as a piped search runs)
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *args], capture_output=True, text=True, env=env
    )
    return set(_self_times(run.stderr))


def _self_times(importtime: str) -> dict[str, float]:
    """Module -> self time in ms, from ``-X importtime``'s report."""
    out = {}
    for line in importtime.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            self_us, _cumulative, name = line[len("import time:") :].split("|")
            out[name.strip()] = int(self_us) / 1000
    return out


def _medians(runs: list[Counter]) -> dict[str, float]:
    names = set().union(*runs)
    return {n: statistics.median(r.get(n, 0.0) for r in runs) for n in names}


_PROFILE_CHILD = """
import cProfile, sys
sys.argv = ["papers", "--library", sys.argv[1], "search", sys.argv[2]]
profiler = cProfile.Profile()
profiler.enable()
try:
    from papercli.cli.app import app
    app(prog_name="papers")
except SystemExit:
    pass
profiler.disable()
profiler.dump_stats(sys.argv[3] if len(sys.argv) > 3 else "search.prof")
"""


def step_times(library: str, term: str, runs: int, workdir: Path) -> dict[str, float]:
    per_run = []
    for i in range(runs):
        out = workdir / f"search-{i}.prof"
        code = _PROFILE_CHILD.replace(
            'sys.argv[3] if len(sys.argv) > 3 else "search.prof"', repr(str(out))
        )
        subprocess.run(
            [sys.executable, "-c", code, library, term],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        stats = pstats.Stats(str(out), stream=io.StringIO()).stats
        found = {}
        for label, suffix, func in STEPS:
            found[label] = (
                sum(
                    v[3]
                    for (path, _line, name), v in stats.items()
                    if path.endswith(suffix) and name == func
                )
                * 1000
            )
        found["whole process (under the profiler)"] = (
            max(v[3] for v in stats.values()) * 1000 if stats else 0.0
        )
        per_run.append(found)
    return {k: statistics.median(r[k] for r in per_run) for k in per_run[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library")
    parser.add_argument("term")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "src")], check=True)
    env_note = "PYTHONDONTWRITEBYTECODE is set" if os.environ.get("PYTHONDONTWRITEBYTECODE") else ""
    subprocess.run(  # one warm-up: freshness check, page cache
        [sys.executable, "-m", "papercli", "--library", args.library, "search", args.term],
        capture_output=True,
        check=False,
    )
    imports, owned, own = import_times(args.library, args.term, args.runs)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        steps = step_times(args.library, args.term, args.runs, Path(tmp))
    top = sorted(imports.items(), key=lambda kv: -kv[1])
    shown = top[:12]
    rest = sum(v for _k, v in top[12:])
    print(
        f"Cold `papers search {args.term}` on {args.library}, median of {args.runs} runs"
        + (f" ({env_note}; bytecode compiled first)" if env_note else "")
        + "\n"
    )
    print("| imports (self time, -X importtime) | ms |\n|---|---:|")
    for name, ms in shown:
        print(f"| {name} | {ms:.1f} |")
    print(f"| everything else ({len(top) - len(shown)} packages) | {rest:.1f} |")
    print(f"| **all imports** | **{sum(imports.values()):.1f}** |\n")
    print("| imports in parts (self times) | ms |\n|---|---:|")
    for name, ms in sorted(owned.items(), key=lambda kv: -kv[1]):
        print(f"| {name} | {ms:.1f} |")
    print()
    print("| papers' own modules, the slowest (self time) | ms |\n|---|---:|")
    for name, ms in sorted(own.items(), key=lambda kv: -kv[1])[:10]:
        print(f"| {name} | {ms:.1f} |")
    print()
    print("| the command's steps (cumulative, cProfile) | ms |\n|---|---:|")
    for label, ms in steps.items():
        print(f"| {label} | {ms:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
