"""Copying the rows of run stores into a new one (``spatialbench merge`` of shard runs).

SQL on the store lives in this package only; :mod:`spatialbench.runs.merge` decides *what* is merged and
calls :func:`copy_stores` for the rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from spatialbench.errors import SpatialBenchError

#: table → the columns copied (None: every column, the key included)
_TABLES = {"results": None, "turns": None, "invocations": "started_at, config, environment, backend"}


class StoreCopyError(SpatialBenchError):
    """A source store whose rows cannot be copied: ``source`` (its path) and ``duplicate`` (a key clash)."""

    def __init__(self, source: Path, reason: str, duplicate: bool) -> None:
        super().__init__(reason)
        self.source, self.duplicate = source, duplicate
        self.location = str(source)


def copy_stores(target: Path, sources: Iterable[Path]) -> int:
    """Append every row of each store in ``sources`` to the store ``target``; return the rows copied.

    ``target`` already has the schema (a new :class:`~spatialbench.runs.store.writer.RunStore`); the
    sources are read one at a time as the iterable gives them (a progress tally's ``each``).

    Raises:
        StoreCopyError: a request key already copied from an earlier source (``duplicate``), or a source
            that is not a readable run store.
    """
    copied = 0
    with closing(sqlite3.connect(target)) as conn:
        for source in sources:
            conn.execute("ATTACH DATABASE ? AS shard", (f"file:{source}?mode=ro",))
            try:
                for table, columns in _TABLES.items():
                    cols = columns or "*"
                    copied += conn.execute(
                        f"INSERT INTO main.{table} {f'({cols})' if columns else ''} "
                        f"SELECT {cols} FROM shard.{table}"
                    ).rowcount
            except sqlite3.IntegrityError as exc:
                raise StoreCopyError(source, str(exc), duplicate=True) from None
            except sqlite3.Error as exc:
                raise StoreCopyError(source, str(exc), duplicate=False) from None
            finally:
                conn.commit()
                conn.execute("DETACH DATABASE shard")
    return copied


def checkpoint(path: Path) -> None:
    """Move every row of the write-ahead log into ``path`` itself (so the file alone holds the run)."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
