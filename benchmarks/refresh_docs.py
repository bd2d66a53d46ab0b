"""Rewrite the outputs the README and docs/ show with what papers prints today.

    python benchmarks/refresh_docs.py

Each ```` ``` ```` block that starts ``$ papers search …`` or ``$ papers similar …`` (as
``tests/cli/test_cli.py`` checks them) and the ``make run`` block are run on a fresh copy
of the bundled library, as a pipe, and their output replaced. Review the diff: a changed
output is a changed behaviour.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAPERS = Path(sys.executable).parent / "papers"
BLOCK = re.compile(r"```\n\$ (papers (?:search|similar) [^\n]*)\n(.*?)```", re.S)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "library"
        shutil.copytree(
            ROOT / "data" / "library", library, ignore=shutil.ignore_patterns(".index", ".lock")
        )
        subprocess.run([PAPERS, "--library", library, "index"], check=True, capture_output=True)
        env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
        env.update(PAPERS_LIBRARY=str(library), PATH=f"{PAPERS.parent}{os.pathsep}{env['PATH']}")

        def run(command: str) -> str:
            done = subprocess.run(command, shell=True, capture_output=True, text=True, env=env)
            return done.stdout + done.stderr

        def block(m: re.Match) -> str:
            if "# a terminal" in m[1]:
                return m[0]
            return f"```\n$ {m[1]}\n{run(m[1])}```"

        for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
            text = page.read_text("utf-8")
            new = BLOCK.sub(block, text)
            if page.name == "README.md":
                head, rest = new.split("$ make run\n", 1)
                command, tail = rest.split("\n", 1)
                _old, after = tail.split("```", 1)
                muon = run("papers search muon")
                new = f"{head}$ make run\n{command}\n{muon}```{after}"
            if new != text:
                page.write_text(new, "utf-8")
                print(f"rewrote {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
