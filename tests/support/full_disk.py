"""A full disk for the run store: SQLite's own SQLITE_FULL, by a page limit on every store opened."""

from __future__ import annotations

from typing import Any

import pytest

from spatialbench.runs.store import RunStore


def small_disk(patch: pytest.MonkeyPatch, free_pages: int) -> None:
    """Let every run store opened grow by ``free_pages`` pages only (SQLite's own SQLITE_FULL)."""
    original = RunStore.__init__

    def small(self: RunStore, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        pages = self._conn.execute("PRAGMA page_count").fetchone()[0]
        self._conn.execute(f"PRAGMA max_page_count = {pages + free_pages}")

    patch.setattr(RunStore, "__init__", small)
