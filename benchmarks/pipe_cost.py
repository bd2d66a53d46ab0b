"""What a piped listing's output costs: the same search written into /dev/null and into a
pipe, side by side with a search that finds nothing (cold processes, round-robin).

    python benchmarks/pipe_cost.py LIBRARY [--word learning] [--runs 11]

Runs in this shell's environment: with ``PYTHONUNBUFFERED`` set (this machine's shell sets
it; so do many Docker images), Python's stdout writes through, and whatever papers hands it
is a write call. Prints one Markdown table: each case's median, and a hit's cost
((time − time with no hit) / hits).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

NO_HIT = "zzqxvjk"


def timed(argv: list[str], pipe: bool) -> tuple[float, int]:
    start = time.perf_counter()
    if not pipe:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return time.perf_counter() - start, 0
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: proc.stdout.read(65536), b""))
    proc.wait()
    return time.perf_counter() - start, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("--word", default="learning")
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    papers = [str(Path(sys.executable).with_name("papers")), "--library", args.library, "search"]
    cases = {
        f"search {args.word} > /dev/null": ([*papers, args.word], False),
        f"search {args.word}, into a pipe": ([*papers, args.word], True),
        f"search {NO_HIT} (no hit)": ([*papers, NO_HIT], False),
    }
    hits = timed([*papers, args.word], True)[1]  # (and a warm-up)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, (argv, pipe) in cases.items():
            times[name].append(timed(argv, pipe)[0])
    medians = {name: statistics.median(t) * 1000 for name, t in times.items()}
    none = medians[f"search {NO_HIT} (no hit)"]
    print(
        f"PYTHONUNBUFFERED={os.environ.get('PYTHONUNBUFFERED', '')!r}; {hits:,} hits; "
        f"medians of {args.runs}\n"
    )
    print("| command | p50 | a hit |\n|---|---:|---:|")
    for name, ms in medians.items():
        per_hit = "" if "no hit" in name else f"{(ms - none) / max(hits, 1) * 1000:.1f} µs"
        print(f"| `papers {name}` | {ms:.0f} ms | {per_hit} |")


if __name__ == "__main__":
    main()
