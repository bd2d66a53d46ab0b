"""What each hit of a piped listing costs, side by side with papis (issue 16).

    python benchmarks/per_hit.py [--sizes 10000] [--runs 7] [--word learning] [--keep DIR]

(With ``--keep DIR``, a later run reuses the library and mirror kept there.)

For each size: generate the seeded documents (``generate.py``), ingest them with one
``papers ingest``, and mirror the records as a papis library (one folder a paper, an
``info.yaml`` with title, year, tags, abstract and Chinese summary: what papis can search).
papis runs from its own virtual environment (``benchmarks/.papis-venv``, made on first use
with ``pip install "papis>=0.16,<0.17"``); it is never a dependency of papers. Its SQLite
cache is built once, before timing.

Then cold processes, round-robin, medians of ``--runs``:

- ``papers search WORD`` piped, every hit, and ``papis -s database-backend sqlite list --all
  WORD``; the same for a word no paper has (each tool's cost without hits);
- the first line of ``papers search WORD`` (the seconds until it arrives, as ``| head -1``
  would see it) and ``papers search WORD --limit 20``: streaming.

A tool's cost per hit is (time with WORD − time with no hit) / hits. Prints one Markdown
table; peak RSS of the piped ``papers search WORD`` (one more run, started from a small
helper process) in the last column.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import generate
from run import _RUSAGE_CHILD

REPO = Path(__file__).resolve().parent.parent
PAPIS_VENV = REPO / "benchmarks" / ".papis-venv"
NO_HIT = "zzqxvjk"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def papis_command() -> Path:
    papis = PAPIS_VENV / "bin" / "papis"
    if not papis.exists():
        log(f"making {PAPIS_VENV} with papis 0.16 (once)")
        subprocess.run([sys.executable, "-m", "venv", str(PAPIS_VENV)], check=True)
        subprocess.run(
            [str(PAPIS_VENV / "bin" / "pip"), "install", "--quiet", "papis>=0.16,<0.17"], check=True
        )
    return papis


def mirror(library: Path, folder: Path) -> int:
    """The library's records as a papis library."""
    n = 0
    for path in (library / "papers").glob("*.yaml"):
        record = yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader)
        info = {
            k: record[k]
            for k in ("title", "year", "tags", "abstract", "summary_zh")
            if record.get(k)
        }
        info["ref"] = record["id"]
        (folder / record["id"]).mkdir(parents=True)
        (folder / record["id"] / "info.yaml").write_text(
            yaml.safe_dump(info, allow_unicode=True), "utf-8"
        )
        n += 1
    return n


def timed(argv: list[str], env: dict, first: bool = False) -> tuple[float, int]:
    """(seconds, lines of output). *first*: the seconds until the first line arrives, and
    the reader then goes away (as ``| head -1`` does, without timing a shell and ``head``
    as well)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    if first:
        lines = int(bool(proc.stdout.readline()))
        seconds = time.perf_counter() - start
        proc.stdout.close()
        proc.wait()
        return seconds, lines
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: proc.stdout.read(65536), b""))
    proc.wait()
    return time.perf_counter() - start, lines


def peak_rss(argv: list[str], env: dict) -> int:
    """The peak RSS (KiB) of one run of *argv*, started from a small helper process (run.py's
    sampler). Linux keeps the largest RSS a process had across ``exec``: a command started
    from this script, which holds the papis mirror of 100,000 records, reported this
    script's 110 MiB as its own (``/bin/true`` started from a 200 MiB process: 210 MiB)."""
    out = subprocess.run(
        [sys.executable, "-c", _RUSAGE_CHILD, *argv], env=env, capture_output=True, check=True
    ).stdout
    return json.loads(out)["maxrss_kb"]


def bench(size: int, args, workdir: Path) -> list[str]:
    papers = Path(sys.executable).with_name("papers")
    papis = papis_command()
    env = {
        **os.environ,
        "XDG_CONFIG_HOME": str(workdir / "config"),
        "XDG_CACHE_HOME": str(workdir / "cache"),
        "XDG_DATA_HOME": str(workdir / "data"),
    }
    env.pop("PAPERS_LIBRARY", None)
    library, docs = workdir / "library", workdir / "docs"
    made = workdir / ".made"  # (written once the library and its mirror are whole)
    if made.exists():
        log(f"[{size}] reusing the library and its papis mirror in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
        log(f"[{size}] generating and ingesting")
        manifest = generate(size, docs, seed=2026)
        subprocess.run(
            [
                str(papers),
                "--library",
                str(library),
                "ingest",
                *(str(docs / d) for d in manifest.documents),
            ],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        log(f"[{size}] mirroring {mirror(library, workdir / 'papis')} records for papis")
        made.touch()
    lib = [str(papers), "--library", str(library), "search"]
    pap = [
        str(papis),
        "-l",
        str(workdir / "papis"),
        "-s",
        "database-backend",
        "sqlite",
        "list",
        "--all",
    ]
    word = args.word
    commands = {
        f"papers search {word} (piped)": ([*lib, word], False),
        f"papers search {NO_HIT} (no hit)": ([*lib, NO_HIT], False),
        f"papis list --all {word} (sqlite)": ([*pap, word], False),
        f"papis list --all {NO_HIT} (no hit)": ([*pap, NO_HIT], False),
        f"papers search {word}, its first line": ([*lib, word], True),
        f"papers search {word} --limit 20": ([*lib, word, "--limit", "20"], False),
    }
    log(f"[{size}] warming up (papis builds its cache)")
    hits = {label: timed(argv, env, first)[1] for label, (argv, first) in commands.items()}
    times: dict[str, list[float]] = {label: [] for label in commands}
    labels = list(commands)
    for run in range(args.runs):
        for label in labels[run % len(labels) :] + labels[: run % len(labels)]:
            argv, first = commands[label]
            seconds, _lines = timed(argv, env, first)
            times[label].append(seconds)
    rss = peak_rss(commands[labels[0]][0], env)
    med = {label: statistics.median(t) for label, t in times.items()}
    rows = []
    for tool, (full, zero) in {"papers": labels[0:2], "papis": labels[2:4]}.items():
        per_hit = (med[full] - med[zero]) / max(hits[full], 1) * 1000
        rows.append((tool, full, med[full], hits[full], f"{per_hit:.3f} ms a hit"))
        rows.append((tool, zero, med[zero], hits[zero], "the cost without hits"))
    rows.append(("papers", labels[4], med[labels[4]], hits[labels[4]], "first line (streaming)"))
    rows.append(
        (
            "papers",
            labels[5],
            med[labels[5]],
            hits[labels[5]],
            f"peak RSS of the piped search: {rss / 1024:.0f} MiB",
        )
    )
    return [
        f"| {size:,} | {label} | {seconds * 1000:.0f} ms | {n:,} | {note} |"
        for _tool, label, seconds, n, note in rows
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--word", default="learning")
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it")
    args = parser.parse_args()
    lines = ["| papers | command | p50 | hits | note |", "|---:|---|---:|---:|---|"]
    for size in (int(s) for s in args.sizes.split(",")):
        if args.keep:
            lines += bench(size, args, args.keep / str(size))
        else:
            with tempfile.TemporaryDirectory() as tmp:
                lines += bench(size, args, Path(tmp))
    print(f"Per-hit cost, cold processes, medians of {args.runs} (round-robin)\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
