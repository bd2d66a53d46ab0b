"""Records parked until they are saved: on disk as JSON (a large ingest), or in memory."""

from __future__ import annotations

import json
import os

from ..store.record import Record


def pack(record: Record | dict) -> str:
    data = record.to_dict() if isinstance(record, Record) else record
    return json.dumps(data, ensure_ascii=False)


class Parked:
    """Records parked until they are saved: as JSON in a temporary file, each found again by
    where it lies, or (*in_memory*, for a small ingest) as they are.

    Held in memory, even as text, the records of a 100,000-paper ingest were most of its
    peak; on disk, each costs an entry of a dict. The file is gone when closed, and with
    the process however it ends; a record is read back with one ``pread``."""

    def __init__(self, in_memory: bool = False) -> None:
        self._file = None
        self._end = 0
        self._where: dict[str, int] = {}  # id -> offset << 32 | length (one int: a tuple of
        # two took 80 bytes more a record)
        self._live: dict[str, Record] | None = {} if in_memory else None

    def __contains__(self, rid: str) -> bool:
        return rid in (self._where if self._live is None else self._live)

    def __len__(self) -> int:
        return len(self._where if self._live is None else self._live)

    def put(self, record: Record) -> None:
        if self._live is not None:
            self._live[record.id] = record
            return
        if self._file is None:
            import tempfile

            self._file = tempfile.TemporaryFile(prefix="papers-parked-", buffering=0)  # noqa: SIM115 (closed by close())
        data = pack(record).encode("utf-8")
        os.pwrite(self._file.fileno(), data, self._end)
        self._where[record.id] = self._end << 32 | len(data)
        self._end += len(data)

    def pop(self, rid: str) -> Record:
        if self._live is not None:
            return self._live.pop(rid)
        where = self._where.pop(rid)
        offset, length = where >> 32, where & 0xFFFFFFFF
        data = os.pread(self._file.fileno(), length, offset).decode("utf-8")
        return Record.from_dict(json.loads(data), rid)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._where.clear()
        if self._live is not None:
            self._live.clear()
