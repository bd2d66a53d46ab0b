"""Where an ingest's time goes between its processes: one ``papers ingest`` into a new
library, with the ingest process's own CPU time and the machine's busy share each second.

    python benchmarks/ingest_cpu.py DOCUMENTS... [--library DIR]

The ingest runs in a child process that reports its own ``getrusage`` at exit (its two
indexing processes are children of the fork server, not of it, so they are not in it); the
machine's CPU use is sampled from /proc/stat every second. Prints the wall time, the ingest
process's CPU, and the busy share of all cores per second (on a shared machine, other work
shows in it too).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import atexit, json, resource, sys, time
def report(start):
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"wall": time.perf_counter() - start,
                      "cpu": own.ru_utime + own.ru_stime}), file=sys.stderr)
if __name__ == "__main__":
    atexit.register(report, time.perf_counter())
    sys.argv = ["papers", "--library", *sys.argv[1:]]
    from papercli.cli import main
    main()
"""


def cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("documents", nargs="+")
    parser.add_argument("--library", help="a new library's folder (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="papers-ingest-cpu-") as tmp:
        library = args.library or str(Path(tmp) / "library")
        script = Path(tmp) / "child.py"  # (a file: the fork server imports the main module)
        script.write_text(CHILD)
        argv = [sys.executable, str(script), library, "ingest", *args.documents]
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        shares, last = [], cpu_ticks()
        while proc.poll() is None:
            time.sleep(1.0)
            now = cpu_ticks()
            shares.append(100 * (now[0] - last[0]) / max(now[1] - last[1], 1))
            last = now
        report = json.loads(proc.stderr.read().strip().splitlines()[-1])
    print(f"wall {report['wall']:.1f} s; the ingest process's own CPU {report['cpu']:.1f} s")
    print("busy share of all cores, each second: " + " ".join(f"{s:.0f}%" for s in shares))


if __name__ == "__main__":
    main()
