"""Whoosh alone indexing a library's records: the floors under ``papers ingest``.

    python benchmarks/whoosh_floor.py LIBRARY [--ours]

Reads every record of LIBRARY (not timed), then times Whoosh's multiprocess writer
(``procs=2, multisegment=True``) adding them, and one commit. Prints one JSON line:
{"papers": n, "seconds": s}.

- By default, what the measurements the project started from timed: the records' title,
  abstract and Chinese summary with Whoosh's default analyzer.
- ``--ours``: the same fields with the same analyzer as papers (issue 16): each record's
  index document exactly as ``papers`` makes it (``schema.document``: every field, the
  bilingual analyzer, the stored record, the glossary's concepts), made before the clock
  starts, and the same posting-pool size. What papers adds over it is reading the YAML,
  tagging, finding the concepts, and making the documents.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import yaml


def ours(library: str) -> int:
    """The floor with papers' own fields, analyzer and documents."""
    from papercli.search.index.paper_index import PaperIndex
    from papercli.search.index.schema import document, make_schema
    from papercli.search.index.writer import POOL_MB
    from papercli.store.library import Library

    papers = PaperIndex(Library(Path(library)))
    docs = []
    for entry in papers.library.record_files():
        record = papers.library.load_path(Path(entry.path))
        stamp = papers.library.stamp(record.id)
        docs.append(document(record, stamp, None, *papers.concepts(record)))
    return timed(make_schema(), docs, limitmb=POOL_MB)


def main(library: str) -> int:
    from whoosh import fields

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    docs = []
    for path in sorted((Path(library) / "papers").glob("*.yaml")):
        record = yaml.load(path.read_text("utf-8"), Loader=loader)
        docs.append(
            {
                "id": record["id"],
                "title": record.get("title") or "",
                "abstract": record.get("abstract") or "",
                "summary": record.get("summary_zh") or "",
            }
        )
    schema = fields.Schema(
        id=fields.ID(stored=True, unique=True),
        title=fields.TEXT(),
        abstract=fields.TEXT(),
        summary=fields.TEXT(),
    )
    return timed(schema, docs)


def timed(schema, docs: list[dict], **writer_args) -> int:
    """Index *docs* with Whoosh's two-process writer in a temporary folder; print the time
    of adding them and committing, as one JSON line."""
    from whoosh import index

    with tempfile.TemporaryDirectory(prefix="whoosh-floor-") as tmp:
        ix = index.create_in(tmp, schema)
        started = time.perf_counter()
        writer = ix.writer(procs=2, multisegment=True, **writer_args)
        for doc in docs:
            writer.add_document(**doc)
        writer.commit()
        seconds = time.perf_counter() - started
    print(json.dumps({"papers": len(docs), "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(ours(sys.argv[1]) if "--ours" in sys.argv[2:] else main(sys.argv[1]))
