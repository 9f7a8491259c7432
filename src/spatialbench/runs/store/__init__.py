"""The run store (``RUN/run.sqlite``): :mod:`.writer`, :mod:`.reader` (read-only) and :mod:`.copy`.

These modules are the only ones that query the SQLite file; everything else reads a run through
:class:`~spatialbench.runs.folder.RunFolder`.
"""

from spatialbench.runs.store.reader import StoredRow, StoredTurn, StoreReader
from spatialbench.runs.store.writer import (
    SCHEMA,
    TRUNCATED,
    RunStore,
    RunStoreError,
    StoredResult,
    attempts_made,
)

__all__ = [
    "SCHEMA",
    "TRUNCATED",
    "RunStore",
    "RunStoreError",
    "StoreReader",
    "StoredResult",
    "StoredRow",
    "StoredTurn",
    "attempts_made",
]
