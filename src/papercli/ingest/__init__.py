"""Ingest: documents → entries → records merged into the library → index.

Every document is read and parsed before anything is written: one unusable document
stops the whole ingest with the library untouched. Then, under the library lock, each
entry either creates a record, is folded into the record of the same paper (see
``store.merge``), or is recognised as already there. Records are written first, the index
after them.

    pipeline.py  the steps, all or nothing (``ingest``)
    batch.py     the records an ingest touches, and which identity key is whose
    spill.py     records parked on disk until they are saved (a large ingest)
    report.py    what an ingest reports
"""

from .batch import Batch
from .pipeline import ingest
from .report import DocumentReport, IngestReport
from .spill import Parked

__all__ = ["Batch", "DocumentReport", "IngestReport", "Parked", "ingest"]
