"""Benchmarks for ``papers``: one ingest and cold-process query latency at several sizes.

    python benchmarks/run.py [--sizes 1000,10000] [--runs 15] [--keep DIR] [--output FILE]
    make bench                                              # 1k and 10k: BENCHMARKS.md
    make bench BENCH_ARGS="--sizes 1000,10000,100000"       # 100k as well (takes long)

For each size, in a fresh folder: generate seeded documents (``generate.py``: half digest
pages, half abstract lists), ingest them all into an empty library with ONE ``papers ingest``
process (wall time, papers/s, peak RSS of the largest process and of all together, CPU
time of all processes, sizes on disk), run every
command once to warm up (index freshness, bytecode) and to count its hits, then time cold
processes: ``papers`` searches and listings, ``rg -l -i`` over the record files for the same
words, the floors (Whoosh alone indexing the same records: ``whoosh_floor.py``; what a
search cannot go below: importing Typer, importing Whoosh, the same search without the
command line: ``search_floor.py``), and ``python -c pass``, interleaved
round-robin (each round starts one command later)
so that machine noise hits them all alike. Output: machine facts and ONE Markdown table on
stdout (progress on stderr); ``--output FILE`` writes the same into FILE.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

try:  # run as a script (make bench) or imported as benchmarks.run
    from generate import RARE_TERM, generate
except ImportError:  # pragma: no cover
    from benchmarks.generate import RARE_TERM, generate

REPO = Path(__file__).resolve().parent.parent
MARKER = ".papers-bench"  # marks folders --keep may delete and recreate
SLOW = 5.0  # seconds: a command slower than this once is timed --slow-runs times only
COMMON_TERM = "learning"
PHRASE = "federated learning"
CHINESE = "联邦学习"
TRADITIONAL = "聯邦學習"  # the same words in Traditional script (OpenCC loaded to read them)
TAG = "federated-learning"
FLOOR_WHOOSH = (  # as the command line imports it (engine/lean.py); a query of plain
    # words no longer needs Whoosh's query parser (querying.build)
    "from papercli.engine import lean; lean.load(); import whoosh.index, whoosh.searching"
)

# label, papers arguments (without --library), key of the rg row it is compared with
PAPERS_COMMANDS = [
    ("search: rare term", ["search", RARE_TERM], "rare"),
    ("search: common term", ["search", COMMON_TERM], "common"),
    ("search: common term, --limit 20", ["search", COMMON_TERM, "--limit", "20"], "common"),
    ("search: phrase", ["search", f'"{PHRASE}"'], "phrase"),
    ("search: Chinese", ["search", CHINESE], "chinese"),
    # the glossary's bridge and the script converter, side by side with the line above
    ("search: Chinese, --exact", ["search", CHINESE, "--exact"], "chinese"),
    ("search: Chinese, Traditional script", ["search", TRADITIONAL], "chinese"),
    ("list: tag filter, --limit 20", ["list", "--tag", TAG, "--limit", "20"], None),
    ("--help", ["--help"], None),
]
RG_COMMANDS = [
    ("rg: rare term", RARE_TERM, "rare"),
    ("rg: common term", COMMON_TERM, "common"),
    ("rg: phrase", PHRASE, "phrase"),
    ("rg: Chinese", CHINESE, "chinese"),
]

# Runs a command in a fresh child and reports its wall time, the rusage of its process tree
# (ru_maxrss of RUSAGE_CHILDREN: the peak RSS of the largest process) and the peak of the
# tree's summed RSS and CPU time, sampled from /proc every 0.2 s (ingest indexes in worker
# processes started by a fork server, whose rusage never reaches ours). The summed RSS
# counts a page shared by several processes (the fork server's imports, in each worker)
# once for each; the summed PSS (proportional set size: a shared page split among its
# sharers) is the memory the processes take together, and is reported beside it.
_RUSAGE_CHILD = """
import json, os, resource, subprocess, sys, threading, time
def tree(pid):
    out = [pid]
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out += [q for c in f.read().split() for q in tree(int(c))]
    except OSError:
        pass
    return out
def rss(pid):
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0
def pss(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0
def cpu(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0
t = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
peak = [0, 0]  # summed RSS, summed PSS
cpus = {}  # pid -> CPU seconds last seen (a fork server's children are not our waited ones)
def sample():
    while p.poll() is None:
        pids = tree(p.pid)
        peak[0] = max(peak[0], sum(rss(q) for q in pids))
        peak[1] = max(peak[1], sum(pss(q) for q in pids))
        for q in pids:
            cpus[q] = max(cpus.get(q, 0.0), cpu(q))
        time.sleep(0.2)
sampler = threading.Thread(target=sample, daemon=True)
sampler.start()
stdout, stderr = p.communicate()
wall = time.perf_counter() - t
sampler.join()
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump({"wall": wall, "rc": p.returncode, "maxrss_kb": ru.ru_maxrss, "user": ru.ru_utime,
           "sys": ru.ru_stime, "tree_peak": peak[0], "tree_pss": peak[1],
           "tree_cpu": sum(cpus.values()),
           "stdout": stdout.decode("utf-8", "replace"),
           "stderr": stderr.decode("utf-8", "replace")}, sys.stdout)
"""


@dataclass
class Command:
    label: str
    argv: list[str]
    shown: str  # the command as the table shows it
    key: str | None = None  # rg comparison key ("rare", …)
    kind: str = "papers"  # papers | rg | python
    times: list[float] = field(default_factory=list)
    budget: int = 0  # timed runs wanted (fewer for very slow commands)
    hits: int | None = None
    rc: int | None = None
    note: str = ""


@dataclass
class Row:
    size: int
    label: str
    shown: str
    p50: float
    p95: float | None
    hits: str = ""
    vs_rg: str = ""
    vs_python: str = ""
    note: str = ""


def shell_word(word: str) -> str:
    return f'"{word}"' if " " in word else word


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run_text(argv: list[str], **kwargs) -> str:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)
    except OSError:
        return ""
    return out.stdout.strip()


# --- facts ---------------------------------------------------------------------------------


def machine_facts(papers: Path, python: Path, rg: str | None) -> list[tuple[str, str]]:
    cpuinfo = Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""
    models = re.findall(r"^model name\s*:\s*(.+)$", cpuinfo, re.MULTILINE)
    cpus = len(re.findall(r"^processor\s*:", cpuinfo, re.MULTILINE)) or os.cpu_count()
    meminfo = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    mem = re.search(r"^MemTotal:\s*(\d+) kB", meminfo, re.MULTILINE)
    commit = run_text(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = run_text(["git", "-C", str(REPO), "status", "--porcelain", "--", "src"])
    whoosh = run_text(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('whoosh-reloaded'))"]
    )
    return [
        ("CPU", f"{models[0] if models else platform.processor() or '?'} × {cpus}"),
        ("RAM", f"{int(mem.group(1)) / 1024**2:.1f} GiB" if mem else "?"),
        ("OS", platform.platform()),
        ("Python", run_text([str(python), "-c", "import sys; print(sys.version.split()[0])"])),
        ("papers", run_text([str(papers), "--version"]) or "?"),
        ("git", (commit or "?") + (" + uncommitted changes in src/" if dirty else "")),
        ("whoosh-reloaded", whoosh or "?"),
        ("ripgrep", (run_text([rg, "--version"]).splitlines() or ["?"])[0] if rg else "missing"),
        ("date", dt.datetime.now().astimezone().isoformat(timespec="minutes")),
    ]


def src_fingerprint() -> str:
    """Changes when the tool's own files change (someone editing it mid-run); a reinstall
    that only rewrites the egg-info does not count."""
    import hashlib

    h = hashlib.sha1()
    for path in sorted((REPO / "src" / "papercli").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            st = path.stat()
            h.update(f"{path.relative_to(REPO)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


# --- measuring -----------------------------------------------------------------------------


def dir_size(path: Path) -> tuple[int, int]:
    """(bytes, files) under *path*."""
    total = files = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                total += os.stat(os.path.join(root, name)).st_size
                files += 1
            except OSError:
                pass
    return total, files


def measure_ingest(python: Path, papers: Path, library: Path, docs: list[Path], env) -> dict:
    argv = [str(python), "-c", _RUSAGE_CHILD, str(papers), "--library", str(library), "ingest"]
    out = subprocess.run(
        argv + [str(d) for d in docs], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(out.stdout)


def measure_increment(size, args, tools, workdir: Path, library: Path, env) -> Row:
    """Add a new 50-paper batch (another seed: other papers) to the library just measured:
    the incremental path (no rebuild) that a daily ingest takes."""
    extra = workdir / "increment"
    manifest = generate(50, extra, seed=args.seed + 1)
    docs = sorted(extra / name for name in manifest.documents)
    ing = measure_ingest(tools["python"], tools["papers"], library, docs, env)
    summary = (ing["stdout"].strip().splitlines() or ["?"])[-1]
    log(f"[{size}] +50 papers: {fmt_time(ing['wall'])}: {summary}")
    return Row(
        size,
        f"add 50 papers to the {size:,}-paper library ({len(docs)} documents)",
        "papers ingest new.txt",
        ing["wall"],
        None,
        hits=summary.split(": ", 1)[-1].split(",")[0],
        note=(
            f"peak RSS {fmt_mib(ing['maxrss_kb'] * 1024)} (largest process), "
            f"{fmt_mib(ing['tree_peak'])} (all; PSS {fmt_mib(ing['tree_pss'])}); "
            f"{summary.split(': ', 1)[-1]}"
        ),
    )


def percentile(times: list[float], q: float) -> float:
    if len(times) < 2:
        return times[0]
    return statistics.quantiles(times, n=100, method="inclusive")[round(q * 100) - 1]


def warm(cmd: Command, env, runs: int, slow_runs: int, python: Path) -> None:
    """Run once, untimed: warms caches and bytecode, counts the hits (one per line) and,
    for ``papers`` commands, notes the process's peak RSS.

    A command that takes longer than ``SLOW`` seconds gets only *slow_runs* timed runs.
    """
    t0 = time.perf_counter()
    if cmd.kind == "papers":
        argv = [str(python), "-c", _RUSAGE_CHILD, *cmd.argv]
        got = json.loads(subprocess.run(argv, capture_output=True, env=env, check=True).stdout)
        out = subprocess.CompletedProcess(
            cmd.argv, got["rc"], got["stdout"].encode(), got["stderr"].encode()
        )
        cmd.note = f"peak RSS {fmt_mib(got['maxrss_kb'] * 1024)}; "
    else:
        out = subprocess.run(cmd.argv, capture_output=True, env=env, check=False)
    cmd.budget = runs if time.perf_counter() - t0 < SLOW else min(runs, slow_runs)
    if cmd.budget < runs:
        cmd.note += f"{cmd.budget} runs only (> {SLOW:.0f} s each)"
    cmd.rc = out.returncode
    lines = [line for line in out.stdout.decode("utf-8", "replace").splitlines() if line.strip()]
    counted = cmd.kind == "rg" or (cmd.kind in ("papers", "floor") and cmd.key is not None)
    if counted or (cmd.kind == "papers" and cmd.label != "--help"):
        cmd.hits = len(lines) if out.returncode == 0 else 0
    # (rg and a floor search exit 1 when nothing matches; an import floor must exit 0: a
    # failing one timed an ImportError once, 23 ms)
    must_succeed = cmd.kind == "papers" or (cmd.kind == "floor" and cmd.key is None)
    if out.returncode not in (0, 1) or (must_succeed and out.returncode != 0):
        first = out.stderr.decode("utf-8", "replace").strip().splitlines()
        cmd.note += f" exit {out.returncode}" + (f": {first[-1][:80]}" if first else "")
        log(f"  warning: {cmd.shown}: {cmd.note}")
    elif out.stderr.strip() and cmd.kind == "papers":
        first = out.stderr.decode("utf-8", "replace").strip().splitlines()[0]
        cmd.note += f" stderr: {first[:80]}"
        log(f"  warning: {cmd.shown}: {cmd.note}")


def time_round_robin(commands: list[Command], runs: int, env) -> None:
    started = time.perf_counter()
    for r in range(runs):
        k = r % len(commands)
        for cmd in commands[k:] + commands[:k]:
            if len(cmd.times) >= cmd.budget:
                continue
            t0 = time.perf_counter()
            subprocess.run(
                cmd.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False
            )
            cmd.times.append(time.perf_counter() - t0)
        if r == 0 or (r + 1) % 5 == 0:
            elapsed = time.perf_counter() - started
            log(
                f"  round {r + 1}/{runs} ({elapsed:.0f} s, ~{elapsed / (r + 1) * runs:.0f} s total)"
            )


def fmt_time(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def fmt_mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def bench_size(size: int, args, tools: dict, workdir: Path) -> list[Row]:
    python, papers, rg = tools["python"], tools["papers"], tools["rg"]
    docs_dir, library = workdir / "docs", workdir / "library"
    env = dict(os.environ)
    env.pop("PAPERS_LIBRARY", None)
    env["XDG_CONFIG_HOME"] = str(workdir / "config")  # no user taxonomy.yaml, no user config
    env["XDG_DATA_HOME"] = str(workdir / "data")
    started = time.perf_counter()
    fingerprint = src_fingerprint()

    log(f"[{size}] generating documents in {docs_dir}")
    t0 = time.perf_counter()
    manifest = generate(size, docs_dir, seed=args.seed)
    docs = sorted(docs_dir / name for name in manifest.documents)
    log(
        f"[{size}] {len(docs)} documents, {fmt_mib(manifest.bytes)}, "
        f"in {time.perf_counter() - t0:.1f} s; ingesting with one `papers ingest`"
    )
    ing = measure_ingest(python, papers, library, docs, env)
    summary = (ing["stdout"].strip().splitlines() or [""])[-1]
    log(f"[{size}] ingest: {fmt_time(ing['wall'])} (exit {ing['rc']}): {summary}")
    problems = []
    if ing["rc"] != 0:
        problems.append(f"exit {ing['rc']}: {ing['stderr'].strip()[-200:]}")
    m = re.search(r"(\d+) new, (\d+) merged, (\d+) unchanged, (\d+) warnings?", summary)
    new, merged, _unchanged, warnings = (int(g) for g in m.groups()) if m else (-1, -1, -1, -1)
    if (new, merged, warnings) != (manifest.papers, 0, 0):
        problems.append(
            f"expected {manifest.papers} new, 0 merged, 0 warnings; got: {summary or '?'}"
        )
    index_bytes, _ = dir_size(library / ".index")
    papers_bytes, papers_files = dir_size(library / "papers")
    named = 0
    for path in (library / "papers").glob("*.yaml"):
        with open(path, encoding="utf-8") as fh:
            named += any(
                line.startswith("short_name:") and line.strip() != "short_name: null" for line in fh
            )
    if named != manifest.named:
        problems.append(f"short names: {named} found, {manifest.named} planted")
    for problem in problems:
        log(f"[{size}] PROBLEM: {problem}")
    rss = ing["maxrss_kb"] * 1024
    # sampled from /proc: misses the last 0.2 s of each process
    cpu = max(ing["user"] + ing["sys"], ing["tree_cpu"])
    rows = [
        Row(
            size,
            f"ingest {manifest.papers} papers ({len(docs)} documents, {fmt_mib(manifest.bytes)})",
            "papers ingest *.txt",
            ing["wall"],
            None,
            hits=str(new) if new >= 0 else "?",
            note=(
                f"{manifest.papers / ing['wall']:.0f} papers/s; peak RSS {fmt_mib(rss)} "
                f"(largest process), {fmt_mib(ing['tree_peak'])} (all processes; PSS "
                f"{fmt_mib(ing['tree_pss'])}); "
                f"CPU {cpu:.1f} s; index {fmt_mib(index_bytes)}; "
                f"records {fmt_mib(papers_bytes)} ({papers_files} files)"
                + "".join(f"; **{p}**" for p in problems)
            ),
        )
    ]

    floors = {
        "": "floor: Whoosh alone indexing the records (title, abstract, summary; procs=2)",
        "--ours": "floor: Whoosh alone indexing papers' own documents (its fields and analyzer; "
        "procs=2)",
    }
    for flag, label in floors.items():
        log(f"[{size}] {label}")
        argv = [str(python), str(REPO / "benchmarks" / "whoosh_floor.py"), str(library)]
        floor = json.loads(
            run_text(argv + ([flag] if flag else [])) or '{"papers": 0, "seconds": NaN}'
        )
        rows.append(
            Row(
                size,
                label,
                "python benchmarks/whoosh_floor.py LIB" + (f" {flag}" if flag else ""),
                floor["seconds"],
                None,
                hits=str(floor["papers"]),
                note=f"the ingest above took {ing['wall'] / floor['seconds']:.1f}× as long",
            )
        )

    lib = ["--library", str(library)]
    commands = [
        Command(
            label,
            [str(papers), *(a if a == ["--help"] else lib + a)],
            "papers " + " ".join(a),
            key,
        )
        for label, a, key in PAPERS_COMMANDS
    ]
    if rg:
        commands += [
            Command(
                label,
                [rg, "-l", "-i", word, str(library / "papers")],
                f"rg -l -i {shell_word(word)} papers/",
                key,
                "rg",
            )
            for label, word, key in RG_COMMANDS
        ]
    # What a cold search cannot go below: the imports it needs, and the same search
    # without the command line (search_floor.py calls the functions the command calls).
    floor = [
        ("floor: import typer", "import os; os.environ['TYPER_USE_RICH'] = '0'; import typer"),
        ("floor: import Whoosh", FLOOR_WHOOSH),
    ]
    commands += [
        Command(label, [str(python), "-c", code], f'python -c "{code}"', None, "floor")
        for label, code in floor
    ]
    commands.append(
        Command(
            "floor: the rare-term search without Typer",
            [str(python), str(REPO / "benchmarks" / "search_floor.py"), str(library), RARE_TERM],
            f"python benchmarks/search_floor.py LIB {RARE_TERM}",
            "rare",
            "floor",
        )
    )
    commands.append(
        Command("python -c pass", [str(python), "-c", "pass"], "python -c pass", None, "python")
    )
    log(f"[{size}] warm-up: each command once")
    for cmd in commands:
        warm(cmd, env, args.runs, args.slow_runs, python)
    if commands[0].hits != manifest.rare_papers:
        commands[0].note += f" expected {manifest.rare_papers} hits"
    log(f"[{size}] timing {args.runs} rounds of {len(commands)} commands, round-robin")
    time_round_robin(commands, args.runs, env)

    p50 = {c.label: statistics.median(c.times) for c in commands}
    rg_p50 = {c.key: p50[c.label] for c in commands if c.kind == "rg"}
    python_p50 = p50["python -c pass"]
    for cmd in commands:
        ratio_rg = ""
        if cmd.kind == "papers" and cmd.key in rg_p50:
            ratio_rg = f"{p50[cmd.label] / rg_p50[cmd.key]:.1f}×"
        ratio_py = f"{p50[cmd.label] / python_p50:.1f}×" if cmd.kind != "python" else ""
        rows.append(
            Row(
                size,
                cmd.label,
                cmd.shown,
                p50[cmd.label],
                percentile(cmd.times, 0.95),
                hits="" if cmd.hits is None else str(cmd.hits),
                vs_rg=ratio_rg,
                vs_python=ratio_py,
                note=cmd.note.strip().rstrip(";"),
            )
        )
    if not rg:
        rows.append(Row(size, "rg", "rg", float("nan"), None, note="rg not installed: skipped"))
    rows.append(measure_increment(size, args, tools, workdir, library, env))
    log(f"[{size}] done in {time.perf_counter() - started:.0f} s")
    if src_fingerprint() != fingerprint:
        rows[0].note += "; **src/ changed while this size ran: rerun**"
        log(f"[{size}] warning: src/ changed while this size ran")
    rows[0].note += f"; whole benchmark at this size {time.perf_counter() - started:.0f} s"
    return rows


# --- output --------------------------------------------------------------------------------


def table(rows: list[Row]) -> str:
    head = (
        "| papers | measurement | command | p50 | p95 | hits | p50 ÷ rg | p50 ÷ python "
        "| notes |\n|---:|---|---|---:|---:|---:|---:|---:|---|"
    )
    lines = [head]
    for r in rows:
        p50 = "—" if r.p50 != r.p50 else fmt_time(r.p50)  # NaN: skipped
        p95 = "—" if r.p95 is None else fmt_time(r.p95)
        cells = [f"{r.size:,}", r.label, f"`{r.shown}`", p50, p95, r.hits, r.vs_rg, r.vs_python]
        cells.append(r.note.replace("|", "\\|"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(facts: list[tuple[str, str]], rows: list[Row], runs: int) -> str:
    intro = (
        "Synthetic libraries from `benchmarks/generate.py` (seeded; half digest pages, half "
        "abstract lists, ICLR/NeurIPS/ICML 2024–2026): one `papers ingest` of all documents into "
        f"an empty library, then cold processes, p50/p95 of {runs} runs each, run round-robin "
        "with `rg -l -i` over the record files and `python -c pass` (venv Python); hits = "
        "output lines (papers) or matching files (rg). Bytecode is compiled first "
        "(`compileall`), as for an installed package. Peak memory: the largest process, and "
        "all of them together (ingest indexes in two extra processes). "
        "`make bench` rewrites this file (1k, 10k); "
        '`make bench BENCH_ARGS="--sizes 1000,10000,100000"` adds 100k papers. Past results '
        "are in git history."
    )
    machine = "\n".join(f"- {k}: {v}" for k, v in facts)
    return f"# Benchmarks\n\n{intro}\n\n{machine}\n\n{table(rows)}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated paper counts")
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command")
    parser.add_argument("--keep", type=Path, help="keep documents and libraries in DIR/<size>/")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    parser.add_argument(
        "--slow-runs",
        type=int,
        default=5,
        help=f"timed runs for a command whose warm-up takes over {SLOW:.0f} s (default 5)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    if args.runs < 1 or args.slow_runs < 1 or not sizes or min(sizes) < 2:
        parser.error("--runs and --slow-runs must be >= 1, sizes >= 2")

    python = Path(sys.executable)  # the venv's python when run by `make bench`
    papers = python.parent / "papers"
    if not papers.exists():
        found = shutil.which("papers")
        if not found:
            parser.error("no `papers` next to this Python nor on PATH")
        papers = Path(found)
    rg = shutil.which("rg")
    if not rg:
        log("note: ripgrep (rg) is missing: the rg comparison rows are skipped")
    tools = {"python": python, "papers": papers, "rg": rg}
    # Bytecode first, as an installed package has it (pip compiles on install): where
    # PYTHONDONTWRITEBYTECODE is set, as on this project's machines, every cold process
    # would otherwise compile papers' own modules again (~55 ms of each search).
    subprocess.run([str(python), "-m", "compileall", "-q", str(REPO / "src")], check=True)
    facts = machine_facts(papers, python, rg)
    fingerprint = src_fingerprint()
    rows: list[Row] = []
    for size in sizes:
        if args.keep:
            workdir = args.keep / str(size)
            if workdir.exists():
                if not (workdir / MARKER).exists():
                    parser.error(f"{workdir} exists and was not made by this script")
                shutil.rmtree(workdir)
            workdir.mkdir(parents=True)
            (workdir / MARKER).touch()
            rows += bench_size(size, args, tools, workdir)
        else:
            with tempfile.TemporaryDirectory(prefix=f"papers-bench-{size}-") as tmp:
                rows += bench_size(size, args, tools, Path(tmp))
    if src_fingerprint() != fingerprint:
        warning = "**src/ changed during the run: the numbers mix versions of the tool; rerun**"
        facts.append(("warning", warning))
        log(f"warning: {warning}")
    text = report(facts, rows, args.runs)
    sys.stdout.write(text)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
        log(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
