"""Two versions of papers, side by side: cold processes, round-robin, one table.

    python benchmarks/side_by_side.py OLD_SRC LIBRARY [--word zephyrine] [--runs 21]
    python benchmarks/side_by_side.py /tmp/old/src /tmp/ph10/10000/library

OLD_SRC is the ``src`` folder of another checkout (``git worktree add /tmp/old REV``);
the new version is this checkout's. Each version searches its own copy of LIBRARY (the
old one in a temporary copy, so that neither rebuilds the other's index when their
schemas differ) and prints ``--help``. Both run with this checkout's interpreter and
packages, ``PYTHONPATH`` choosing the source; each tree is byte-compiled first (a module
without bytecode, where PYTHONDONTWRITEBYTECODE is set, is compiled on every start: it
made one comparison 26 ms unfair). The machine is shared and noisy: only ratios taken in
the same run mean anything.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NEW_SRC = Path(__file__).resolve().parent.parent / "src"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old_src", type=Path)
    parser.add_argument("library", type=Path)
    parser.add_argument("--word", default="zephyrine")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_library = Path(tmp) / "library"
        shutil.copytree(args.library, old_library, ignore=shutil.ignore_patterns(".index", ".lock"))
        commands = {}
        for name, src, library in (
            ("new", NEW_SRC, args.library),
            ("old", args.old_src, old_library),
        ):
            compileall.compile_dir(src, quiet=1)
            env = dict(os.environ, PYTHONPATH=str(src))
            run = [sys.executable, "-m", "papercli"]
            commands[f"{name}: papers search {args.word}"] = (
                [*run, "--library", str(library), "search", args.word],
                env,
            )
            commands[f"{name}: papers --help"] = ([*run, "--help"], env)
            subprocess.run(
                commands[f"{name}: papers search {args.word}"][0],
                env=env,
                capture_output=True,
                check=False,
            )  # (builds its index, warms up)
        times: dict[str, list[float]] = {k: [] for k in commands}
        names = list(commands)
        for r in range(args.runs):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                argv, env = commands[name]
                start = time.perf_counter()
                subprocess.run(
                    argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
                )
                times[name].append((time.perf_counter() - start) * 1000)
    print(f"| command (medians of {args.runs}, round-robin) | p50 | p90 |")
    print("|---|---:|---:|")
    for name, values in times.items():
        values.sort()
        p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
        print(f"| {name} | {statistics.median(values):.0f} ms | {p90:.0f} ms |")


if __name__ == "__main__":
    main()
