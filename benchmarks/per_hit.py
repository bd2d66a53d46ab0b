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
table; peak RSS of the piped ``papers search WORD`` in the last column.
"""

from __future__ import annotations

import argparse
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
        subprocess.run([str(PAPIS_VENV / "bin" / "pip"), "install", "--quiet",
                        "papis>=0.16,<0.17"], check=True)  # fmt: skip
    return papis


def mirror(library: Path, folder: Path) -> int:
    """The library's records as a papis library."""
    n = 0
    for path in (library / "papers").glob("*.yaml"):
        record = yaml.load(path.read_text("utf-8"), Loader=yaml.CSafeLoader)
        info = {k: record[k] for k in ("title", "year", "tags", "abstract", "summary_zh")
                if record.get(k)}  # fmt: skip
        info["ref"] = record["id"]
        (folder / record["id"]).mkdir(parents=True)
        (folder / record["id"] / "info.yaml").write_text(
            yaml.safe_dump(info, allow_unicode=True), "utf-8"
        )
        n += 1
    return n


def timed(argv: list[str], env: dict, first: bool = False) -> tuple[float, int, int]:
    """(seconds, lines of output, peak RSS in KiB of that process: ``wait4``'s rusage).
    *first*: the seconds until the first line arrives, and the reader then goes away (as
    ``| head -1`` does, without timing a shell and ``head`` as well)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    if first:
        lines = int(bool(proc.stdout.readline()))
        seconds = time.perf_counter() - start
        proc.stdout.close()
        _pid, _status, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        return seconds, lines, usage.ru_maxrss
    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: proc.stdout.read(65536), b""))
    _pid, _status, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # (reaped here)
    return time.perf_counter() - start, lines, usage.ru_maxrss


def bench(size: int, args, workdir: Path) -> list[str]:
    papers = Path(sys.executable).with_name("papers")
    papis = papis_command()
    env = {**os.environ, "XDG_CONFIG_HOME": str(workdir / "config"),
           "XDG_CACHE_HOME": str(workdir / "cache"),
           "XDG_DATA_HOME": str(workdir / "data")}  # fmt: skip
    env.pop("PAPERS_LIBRARY", None)
    library, docs = workdir / "library", workdir / "docs"
    if (workdir / "papis").is_dir():  # (a --keep folder of an earlier run: reused)
        log(f"[{size}] reusing the library and its papis mirror in {workdir}")
    else:
        log(f"[{size}] generating and ingesting")
        manifest = generate(size, docs, seed=2026)
        subprocess.run([str(papers), "--library", str(library), "ingest",
                        *(str(docs / d) for d in manifest.documents)], env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
        log(f"[{size}] mirroring {mirror(library, workdir / 'papis')} records for papis")
    lib = [str(papers), "--library", str(library), "search"]
    pap = [str(papis), "-l", str(workdir / "papis"), "-s", "database-backend", "sqlite", "list",
           "--all"]  # fmt: skip
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
    rss = 0
    labels = list(commands)
    for run in range(args.runs):
        for label in labels[run % len(labels) :] + labels[: run % len(labels)]:
            argv, first = commands[label]
            seconds, _lines, peak = timed(argv, env, first)
            times[label].append(seconds)
            if label == labels[0]:
                rss = max(rss, peak)
    med = {label: statistics.median(t) for label, t in times.items()}
    rows = []
    for tool, (full, zero) in {"papers": labels[0:2], "papis": labels[2:4]}.items():
        per_hit = (med[full] - med[zero]) / max(hits[full], 1) * 1000
        rows.append((tool, full, med[full], hits[full], f"{per_hit:.3f} ms a hit"))
        rows.append((tool, zero, med[zero], hits[zero], "the cost without hits"))
    rows.append(("papers", labels[4], med[labels[4]], hits[labels[4]], "first line (streaming)"))
    rows.append(("papers", labels[5], med[labels[5]], hits[labels[5]],
                 f"peak RSS of the piped search: {rss / 1024:.0f} MiB"))  # fmt: skip
    return [f"| {size:,} | {label} | {seconds * 1000:.0f} ms | {n:,} | {note} |"
            for _tool, label, seconds, n, note in rows]  # fmt: skip


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
            workdir = args.keep / str(size)
            shutil.rmtree(workdir, ignore_errors=True)
            lines += bench(size, args, workdir)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                lines += bench(size, args, Path(tmp))
    print(f"Per-hit cost, cold processes, medians of {args.runs} (round-robin)\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
