"""What a concept costs a cold search, and what a cold search costs at all (issue 41).

    python benchmarks/concept_cost.py [--size 10000] [--runs 7] [--against OLD_SRC]

Builds a library of ``--size`` generated papers (``generate.py``, one ``papers ingest``)
once and keeps it in ``benchmarks/.cache/concept-SIZE-SEED/`` (rebuilt when generate.py
changes; the index is brought up to date by the warm-up run), then times cold processes,
round-robin (each round starts one command later), p50 of ``--runs``:

- ``papers search Q --limit 20`` with and without ``--exact`` for each query of
  ``QUERIES``: the difference is what the glossary's concept costs;
- ``papers search zephyrine`` (a word in 3 papers): the fixed cost of a search process;
- ``python -c pass``: what no process goes below.

Budgets: the rare word at most 150 ms; each concept at most 15 ms over ``--exact``.
``--against OLD_SRC`` (the ``src`` folder of another checkout, ``git worktree add``) runs
every ``papers`` command with that source too, in the same rounds, on its own copy of the
library: only ratios of one run mean anything on these shared machines. Both trees are
byte-compiled first (PYTHONDONTWRITEBYTECODE would otherwise make every process compile
papers' modules again). Prints one Markdown table on stdout; progress on stderr.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import RARE_TERM, generate

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "benchmarks" / ".cache"
# as typed in a shell: the phrase is one argument (the shell takes its quotes away)
QUERIES = ["muon", "大语言模型", "large language model"]
LIMIT = ["--limit", "20"]
RARE_BUDGET_MS = 150
CONCEPT_BUDGET_MS = 15


@dataclass
class Command:
    version: str  # "" (this checkout) or "old"
    label: str
    argv: list[str]
    env: dict
    times: list[float] = field(default_factory=list)
    hits: int = 0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def papers_program() -> list[str]:
    """The ``papers`` console script next to this Python (as installed), run by this
    Python; ``python -m papercli`` where there is none."""
    script = Path(sys.executable).with_name("papers")
    return [str(script)] if script.exists() else [sys.executable, "-m", "papercli"]


def library(size: int, seed: int, env: dict) -> Path:
    """The cached library of *size* generated papers, made when missing or when the
    generator changed."""
    made_by = hashlib.sha1((REPO / "benchmarks" / "generate.py").read_bytes()).hexdigest()
    workdir = CACHE / f"concept-{size}-{seed}"
    marker = workdir / ".made"
    if marker.exists() and marker.read_text() == made_by:
        log(f"reusing the library in {workdir}")
        return workdir / "library"
    shutil.rmtree(workdir, ignore_errors=True)
    log(f"generating {size} papers and ingesting them into {workdir}/library")
    manifest = generate(size, workdir / "docs", seed=seed)
    docs = [str(workdir / "docs" / d) for d in manifest.documents]
    lib = workdir / "library"
    subprocess.run(
        [*papers_program(), "--library", str(lib), "ingest", *docs],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    shutil.rmtree(workdir / "docs")
    marker.write_text(made_by)
    return lib


def shown(query: str) -> str:
    return f'"{query}"' if " " in query else query


def commands(lib: Path, src: Path, version: str, base_env: dict) -> list[Command]:
    env = {**base_env, "PYTHONPATH": str(src)}
    run = [*papers_program(), "--library", str(lib), "search"]
    out = []
    for query in QUERIES:
        label = f"search {shown(query)} --limit 20"
        out.append(Command(version, label, [*run, query, *LIMIT], env))
        out.append(Command(version, f"{label} --exact", [*run, query, *LIMIT, "--exact"], env))
    out.append(Command(version, f"search {RARE_TERM}", [*run, RARE_TERM], env))
    return out


def warm(cmd: Command) -> None:
    """Once, untimed: brings the index up to date, warms the page cache, counts hits."""
    out = subprocess.run(cmd.argv, env=cmd.env, capture_output=True, check=False)
    if out.returncode not in (0, 1):
        err = out.stderr.decode("utf-8", "replace").strip().splitlines()
        sys.exit(f"{cmd.label}: exit {out.returncode}: {err[-1] if err else ''}")
    cmd.hits = sum(1 for line in out.stdout.splitlines() if line.strip())


def time_rounds(cmds: list[Command], runs: int) -> None:
    started = time.perf_counter()
    for r in range(runs):
        k = r % len(cmds)
        for cmd in cmds[k:] + cmds[:k]:
            t0 = time.perf_counter()
            subprocess.run(
                cmd.argv,
                env=cmd.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
            )
            cmd.times.append(time.perf_counter() - t0)
        log(f"  round {r + 1}/{runs} ({time.perf_counter() - started:.0f} s)")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def table(cmds: list[Command], runs: int, size: int) -> str:
    p50 = {(c.version, c.label): statistics.median(c.times) for c in cmds}
    by = {(c.version, c.label): c for c in cmds}
    lines = [
        f"Cold processes at {size:,} generated papers, p50 of {runs} round-robin runs "
        "(`papers search Q --limit 20`, with and without `--exact`)\n",
        "| version | query | default | --exact | default − exact | paired p50 | hits "
        "(default / exact) | budget |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    versions = list(dict.fromkeys(c.version for c in cmds))
    for version in versions:
        name = version or "this"
        for query in QUERIES:
            a = (version, f"search {shown(query)} --limit 20")
            b = (version, f"search {shown(query)} --limit 20 --exact")
            diff = p50[a] - p50[b]
            paired = statistics.median(x - y for x, y in zip(by[a].times, by[b].times, strict=True))
            ok = "ok" if diff * 1000 <= CONCEPT_BUDGET_MS else "**over**"
            lines.append(
                f"| {name} | `{shown(query)}` | {ms(p50[a])} | {ms(p50[b])} "
                f"| {diff * 1000:+.0f} ms "
                f"| {paired * 1000:+.0f} ms | {by[a].hits} / {by[b].hits} "
                f"| {ok} (≤ {CONCEPT_BUDGET_MS} ms) |"
            )
        rare = (version, f"search {RARE_TERM}")
        ok = "ok" if p50[rare] * 1000 <= RARE_BUDGET_MS else "**over**"
        lines.append(
            f"| {name} | `{RARE_TERM}` (no --limit) | {ms(p50[rare])} | | | | {by[rare].hits} "
            f"| {ok} (≤ {RARE_BUDGET_MS} ms) |"
        )
    floor = ("", "python -c pass")
    lines.append(f"| | `python -c pass` | {ms(p50[floor])} | | | | | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--against", type=Path, metavar="OLD_SRC", help="another src folder")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.size < 2:
        parser.error("--runs must be >= 1 and --size >= 2")
    if args.against and not (args.against / "papercli").is_dir():
        parser.error(f"--against {args.against}: no papercli package in it")
    env = dict(os.environ)
    env.pop("PAPERS_LIBRARY", None)
    env["XDG_CONFIG_HOME"] = str(CACHE / "config")  # no user config, no user taxonomy
    env["XDG_DATA_HOME"] = str(CACHE / "data")
    src = REPO / "src"
    for tree in filter(None, (src, args.against)):
        compileall.compile_dir(tree, quiet=1)
    lib = library(args.size, args.seed, {**env, "PYTHONPATH": str(src)})
    cmds = commands(lib, src, "", env)
    if args.against:
        old_lib = CACHE / f"concept-{args.size}-{args.seed}" / "old-library"
        shutil.rmtree(old_lib, ignore_errors=True)  # (its own index: schemas may differ)
        shutil.copytree(lib, old_lib, ignore=shutil.ignore_patterns(".index", ".lock"))
        cmds += commands(old_lib, args.against, "old", env)
    cmds.append(Command("", "python -c pass", [sys.executable, "-c", "pass"], env))
    log("warm-up: each command once")
    for cmd in cmds:
        warm(cmd)
    log(f"timing {args.runs} rounds of {len(cmds)} commands")
    time_rounds(cmds, args.runs)
    print(table(cmds, args.runs, args.size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
