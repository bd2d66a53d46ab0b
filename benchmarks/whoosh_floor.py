"""Whoosh alone indexing a library's records: the floor under ``papers ingest``.

    python benchmarks/whoosh_floor.py LIBRARY

Reads every record of LIBRARY (not timed), then times what the measurements the project
started from timed: Whoosh's multiprocess writer (``procs=2, multisegment=True``) adding
the records' title, abstract and Chinese summary with Whoosh's default analyzer, and one
commit. Prints one JSON line: {"papers": n, "seconds": s}. Timed beside ``papers ingest``
in ``run.py``, the ratio is what papers adds to bare indexing (parsing, merging, tagging,
the bilingual analyzer, writing the records, the stored record).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import yaml


def main(library: str) -> int:
    from whoosh import fields, index

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
    with tempfile.TemporaryDirectory(prefix="whoosh-floor-") as tmp:
        ix = index.create_in(tmp, schema)
        started = time.perf_counter()
        writer = ix.writer(procs=2, multisegment=True)
        for doc in docs:
            writer.add_document(**doc)
        writer.commit()
        seconds = time.perf_counter() - started
    print(json.dumps({"papers": len(docs), "seconds": seconds}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
