"""How many papers the taxonomy tags, per set of pages, and what it tags them with (issue 45).

    python benchmarks/tag_coverage.py [DIR_OR_FILE...] [--taxonomy FILE] [--tsv FILE]

Each argument is a set: a folder of pages (its ``*.txt``) or one page. Default: the bundled
library's seed documents (data/*.txt) and each folder of tests/data/areas. Each
set is ingested by one real ``papers ingest`` process into a new temporary library, with no
user's settings or taxonomy (``--taxonomy FILE`` measures another one, as the ``taxonomy``
setting would); then its records are read back. Printed per set: papers, the share with at
least one taxonomy tag, and the untagged papers' titles (or first words). The TSV (set, id,
tags, title) is for a reviewer reading the tags; default tag_coverage.tsv in a temporary
folder, whose path is printed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a script: benchmarks/ is a package of the repository

from benchmarks.eval import isolate  # noqa: E402
from papercli.store.library import Library  # noqa: E402
from papercli.tags.taxonomy import load_taxonomy  # noqa: E402

PAPERS = Path(sys.executable).with_name("papers")  # the command installed beside this Python
BUNDLED_SEEDS = REPO / "data"  # the bundled library's seed documents (its *.txt)
AREAS = REPO / "tests" / "data" / "areas"


def default_sets() -> list[Path]:
    return [BUNDLED_SEEDS, *sorted(p for p in AREAS.iterdir() if p.is_dir())]


def pages(where: Path) -> list[Path]:
    return sorted(where.glob("*.txt")) if where.is_dir() else [where]


def set_name(where: Path) -> str:
    where = where.resolve()
    return str(where.relative_to(REPO)) if where.is_relative_to(REPO) else str(where)


def ingest(files: list[Path], root: Path) -> None:
    """One ``papers ingest`` of *files* into the new library *root*; stops on an error."""
    args = [str(PAPERS), "--library", str(root), "ingest", *map(str, files)]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"tag_coverage: papers ingest failed: {done.stderr.strip()}")
    print(f"  {done.stdout.strip().splitlines()[-1]}")


def measure(where: Path, tmp: Path, topics: set[str]) -> list[tuple[str, list[str], str]]:
    """(id, taxonomy tags, title or first words) of each paper the pages of *where* give."""
    root = tmp / f"library-{len(list(tmp.iterdir()))}"
    ingest(pages(where), root)
    library = Library(root)
    out = []
    for entry in sorted(library.record_files(), key=lambda e: e.name):
        record = library.load_path(Path(entry.path))
        label = record.title or " ".join((record.abstract or record.summary_zh or "").split()[:12])
        out.append((record.id, [t for t in record.tags if t in topics], label))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path, help="folders of pages, or pages")
    parser.add_argument("--taxonomy", type=Path, help="measure this taxonomy file instead")
    parser.add_argument("--tsv", type=Path, help="where the (set, id, tags, title) rows go")
    args = parser.parse_args()
    sets = args.sets or default_sets()
    for where in sets:
        if not pages(where) or not where.exists():
            sys.exit(f"tag_coverage: {where}: no pages (*.txt) there")
    taxonomy = args.taxonomy.resolve() if args.taxonomy else None
    with tempfile.TemporaryDirectory(prefix="papers-tag-coverage-") as tmp:
        isolate(Path(tmp) / "home")
        if taxonomy:
            os.environ["PAPERS_TAXONOMY"] = str(taxonomy)
        topics = set(load_taxonomy(taxonomy).tags)
        work = Path(tmp) / "libraries"
        work.mkdir()
        rows, totals = [], Counter()
        for where in sets:
            name = set_name(where)
            print(f"## {name}")
            papers = measure(where, work, topics)
            tagged = sum(1 for _id, tags, _label in papers if tags)
            totals.update(papers=len(papers), tagged=tagged)
            share = 100 * tagged / max(len(papers), 1)
            print(f"  papers {len(papers)}, with >= 1 topic tag {tagged} ({share:.1f}%)")
            for _id, tags, label in papers:
                if not tags:
                    print(f"  untagged: {label[:100]}")
            rows += [(name, pid, ",".join(tags), label) for pid, tags, label in papers]
        share = 100 * totals["tagged"] / max(totals["papers"], 1)
        print(f"## all: papers {totals['papers']}, tagged {totals['tagged']} ({share:.1f}%)")
        counts = Counter(tag for _set, _id, tags, _label in rows for tag in tags.split(",") if tag)
        print(f"  tags used {len(counts)} of {len(topics)}; papers per tag, most first:")
        print("  " + ", ".join(f"{tag} {n}" for tag, n in counts.most_common()))
        tsv = args.tsv or Path(tempfile.gettempdir()) / "tag_coverage.tsv"
        lines = ["set\tid\ttags\ttitle", *("\t".join(row) for row in rows)]
        tsv.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"  (paper, tags) rows: {tsv}")


if __name__ == "__main__":
    main()
