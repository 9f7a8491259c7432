"""Telling a run store from another program's SQLite file of the same name (``run.sqlite`` in ``--out``)."""

from __future__ import annotations

import sqlite3

STORE_TABLES = frozenset(("invocations", "results", "turns", "sqlite_sequence"))
"""The tables a run store holds (``sqlite_sequence`` is SQLite's own, for the AUTOINCREMENT id)."""
RESULT_COLUMNS = frozenset(
    ("request_key", "item_id", "status", "response", "error", "prompt", "attempts", "finished_at")
)
"""Columns every run store's ``results`` table has had."""


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


def foreign_tables(conn: sqlite3.Connection) -> str | None:
    """Return what makes the open database not (the start of) a run store, None when it is one.

    A new (empty) file is a run store's start; an older store may lack ``turns`` (created on open),
    never the columns of ``results``. The text reads ``tables: users, posts`` or ``tables: results
    without item_id, ...``.
    """
    tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = RESULT_COLUMNS - _columns(conn, "results") if "results" in tables else set()
    if missing:
        return f"tables: results without {', '.join(sorted(missing))}"
    if tables - STORE_TABLES:
        return f"tables: {', '.join(sorted(tables))}"
    return None
