"""Ingests at size, again and again: each into a new library, each checked by ``papers
doctor``, each asked the same search. Not a test (it takes minutes); issue 40's proof.

    python benchmarks/reliability.py DOCS_FOLDER --runs 20
    python benchmarks/reliability.py --generate 100000 --runs 1

Each run is ``papers --library NEW ingest DOCS/*.txt``, then ``papers doctor`` (exit 0
and "no problems found"), then ``papers search muon --ids``. The runs pass when every
ingest and every doctor exits 0 and every search prints the same lines. The ingest is
the real command, run in a process that also reports how many runs each indexing
process's posting pool wrote (spilled) before the index was committed.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPERS = Path(sys.executable).with_name("papers")

# ``papers ARGS`` in this process, reporting the pools' runs on stderr when it ends.
INGEST = """
import atexit, sys
import papercli.search.index.writer as w
from papercli.cli import main
made, original = [], w._whoosh_writer
def recorded(index, expected):
    made.append(original(index, expected))
    return made[-1]
w._whoosh_writer = recorded
def report():
    runs = [getattr(m, "runs_written", None) or [m.pool.written] for m in made]
    print("pool runs:", runs, file=sys.stderr)
atexit.register(report)
sys.argv = ["papers", *sys.argv[1:]]
main()
"""


def run(args: list[str]) -> tuple[int, str, str, float]:
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def one(docs: list[Path], folder: Path, k: int) -> dict:
    library = folder / f"library-{k}"
    code, _out, err, seconds = run(
        [sys.executable, "-c", INGEST, "--library", str(library), "ingest", *map(str, docs)]
    )
    lines = err.strip().splitlines()
    runs = next((ln for ln in reversed(lines) if ln.startswith("pool runs:")), "")
    problem = next((ln for ln in lines if ln.startswith("papers:") and "warning" not in ln), "")
    doctor = run([str(PAPERS), "--library", str(library), "doctor"])
    found = run([str(PAPERS), "--library", str(library), "search", "muon", "--ids"])
    return {
        "ingest": code,
        "seconds": seconds,
        "runs": runs.removeprefix("pool runs: "),
        "problem": problem,
        "doctor": doctor[0],
        "doctor says": doctor[1].strip().splitlines()[-1:] or doctor[2].strip().splitlines()[-1:],
        "search": hashlib.sha256(found[1].encode()).hexdigest()[:12],
        "hits": len(found[1].splitlines()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("docs", nargs="?", type=Path, help="folder of documents to ingest")
    parser.add_argument("--generate", type=int, help="generate this many papers instead")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the libraries")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="papers-reliability-") as tmp:
        folder = Path(tmp)
        if args.generate:
            docs_dir = folder / "docs"
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "benchmarks" / "generate.py"),
                    str(args.generate),
                    str(docs_dir),
                    "--seed",
                    str(args.seed),
                ],
                check=True,
                capture_output=True,
            )
        elif args.docs:
            docs_dir = args.docs
        else:
            parser.error("give a folder of documents or --generate N")
        docs = sorted(docs_dir.glob("*.txt"))
        print(f"{len(docs)} documents from {docs_dir}; {args.runs} ingests into new libraries")
        print("run | ingest exit | s | pool runs (each process) | doctor exit | muon hits | output")
        results = []
        for k in range(1, args.runs + 1):
            r = one(docs, folder, k)
            results.append(r)
            print(
                f"{k} | {r['ingest']} | {r['seconds']:.1f} | {r['runs']} | {r['doctor']} | "
                f"{r['hits']} | {r['search']} {r['problem']}".rstrip(),
                flush=True,
            )
            if r["doctor"]:
                print(f"  doctor: {r['doctor says']}")
            if not args.keep:
                subprocess.run(["rm", "-rf", str(folder / f"library-{k}")], check=True)
        ok = sum(r["ingest"] == 0 for r in results)
        clean = sum(r["doctor"] == 0 for r in results)
        outputs = {r["search"] for r in results}
        print(
            f"ingest exit 0: {ok}/{len(results)}; doctor clean: {clean}/{len(results)}; "
            f"distinct search outputs: {len(outputs)}"
        )
        if args.keep:
            input(f"libraries kept in {folder}; press Enter to remove them ")
    return 0 if ok == clean == len(results) and len(outputs) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
