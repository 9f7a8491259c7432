"""Reading a run store back, read-only: the one place outside the writer that queries ``run.sqlite``.

A finished (or running) run's answers are read through :class:`StoreReader`, which opens the file with
SQLite's ``mode=ro`` URI, so a folder another run holds, or a read-only copy, can be read; a damaged
store is one :class:`~spatialbench.runs.checks.RunFolderError` naming the file. Rows come back as
:class:`StoredRow` / :class:`StoredTurn` records with their JSON columns parsed (``{}`` when unreadable).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spatialbench.runs.checks import RunFolderError

_ROW_COLUMNS = "item_id, status, response, prompt, error, latency_s, raw, input_tokens, output_tokens"
_TURN_COLUMNS = "item_id, turn, status, response, prompt, error, latency_s, raw, input_tokens, output_tokens"


def _json_object(text: str | None) -> dict[str, Any]:
    """Parse a stored JSON column; ``{}`` for NULL, bad JSON or anything but an object."""
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class StoredRow:
    """One ``results`` row: an item's final answer for one request key.

    Attributes:
        item_id, status (``ok`` / ``empty`` / ``failed``), response (the answer text, None if failed),
        prompt (the request as stored), error, latency_s (seconds), raw (back-end metadata; a strategy's
        ``{strategy, requests, reused, trace}``), input_tokens / output_tokens (None when unknown).
    """

    item_id: str
    status: str
    response: str | None
    prompt: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    latency_s: float | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True)
class StoredTurn(StoredRow):
    """One ``turns`` row of a multi-turn strategy: a :class:`StoredRow` plus its turn name (``cot``)."""

    turn: str = ""


class StoreReader:
    """Read-only queries on the run store at ``path``.

    Raises:
        FileNotFoundError: ``path`` does not exist (the message says which folder lacks it).
        RunFolderError: from any query, the file is not a readable run store (the message names it).
    """

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            why = "is it the --out folder of spatialbench run?"
            raise FileNotFoundError(f"no {path.name} in {path.parent} ({why})")
        self.path = path

    def _query(self, query: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            with sqlite3.connect(f"file:{self.path}?mode=ro", uri=True) as conn:
                return conn.execute(query, tuple(args)).fetchall()
        except sqlite3.Error as exc:
            raise RunFolderError(f"{self.path}: not a readable run store ({exc})") from None

    def check(self) -> None:
        """Raise RunFolderError (``not a readable run store (damaged: ...)``) unless the file is intact.

        SQLite's ``quick_check``: one pass over the pages, no rows read into memory.
        """
        findings = [str(row[0]) for row in self._query("PRAGMA quick_check(1)")]
        if findings != ["ok"]:
            raise RunFolderError(f"{self.path}: not a readable run store (damaged: {' '.join(findings)})")

    def rows(self, status: str | None = None) -> list[StoredRow]:
        """Every ``results`` row (only ``status`` rows when given), oldest answer first."""
        where, args = ("WHERE status = ? ", (status,)) if status is not None else ("", ())
        rows = self._query(f"SELECT {_ROW_COLUMNS} FROM results {where}ORDER BY finished_at", args)
        return [_row(*row) for row in rows]

    def shown_rows(self) -> dict[str, StoredRow]:
        """Item id → its row to show, as :meth:`item_row` picks it, for every item in one query."""
        latest: dict[str, StoredRow] = {}
        for row in self.rows():  # oldest first: a later row wins, except a failed one over an ok one
            earlier = latest.get(row.item_id)
            if row.status != "ok" and earlier is not None and earlier.status == "ok":
                continue
            latest[row.item_id] = row
        return latest

    def shown_turns(self) -> dict[str, list[StoredTurn]]:
        """Item id → its :meth:`item_turns`, for every item in two queries (no ``turns`` table: ``{}``)."""
        if not self._has_turns():
            return {}
        ranked: dict[str, tuple[tuple[bool, float], str]] = {}
        for item_id, key, ok, finished in self._query(
                "SELECT item_id, request_key, status = 'ok', finished_at FROM results"):
            rank = (bool(ok), float(finished))
            if str(item_id) not in ranked or rank > ranked[str(item_id)][0]:
                ranked[str(item_id)] = (rank, str(key))
        shown = {key: item for item, (_, key) in ranked.items()}
        found: dict[str, list[StoredTurn]] = {}
        query = f"SELECT request_key, {_TURN_COLUMNS} FROM turns ORDER BY finished_at, rowid"
        for key, *row in self._query(query):
            item = shown.get(str(key))
            if item is not None:
                found.setdefault(item, []).append(_turn(*row))
        return found

    def _has_turns(self) -> bool:
        return bool(self._query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'turns'"))

    def item_row(self, item_id: str) -> StoredRow | None:
        """Return the item's row to show: its ``ok`` row first, else its latest; None if it has none."""
        rows = self._query(
            f"SELECT {_ROW_COLUMNS} FROM results WHERE item_id = ? "
            "ORDER BY (status = 'ok') DESC, finished_at DESC LIMIT 1", (item_id,))
        return _row(*rows[0]) if rows else None

    def item_turns(self, item_id: str) -> list[StoredTurn]:
        """Return every turn (any status) of the item's shown row (:meth:`item_row`), oldest first.

        Only turns of the shown row's request key: a store reused under another strategy keeps its
        turns apart. No ``turns`` table or no row: no turns.
        """
        if not self._has_turns():
            return []
        rows = self._query(
            f"SELECT {_TURN_COLUMNS} FROM turns WHERE request_key = (SELECT request_key FROM results "
            "WHERE item_id = ? ORDER BY (status = 'ok') DESC, finished_at DESC LIMIT 1) "
            "ORDER BY finished_at, rowid", (item_id,))
        return [_turn(*row) for row in rows]

    def turns(self, turn: str | None = None, status: str | None = "ok") -> list[StoredTurn]:
        """Return ``turns`` rows (of turn ``turn`` when given; of ``status``, None for all), as written.

        A store written before multi-turn strategies has no ``turns`` table: no rows.
        """
        clauses = [(c, v) for c, v in (("turn = ?", turn), ("status = ?", status)) if v is not None]
        where = f"WHERE {' AND '.join(c for c, _ in clauses)} " if clauses else ""
        if not self._has_turns():
            return []
        rows = self._query(f"SELECT {_TURN_COLUMNS} FROM turns {where}ORDER BY finished_at, rowid",
                           [v for _, v in clauses])
        return [_turn(*row) for row in rows]


def _row(item_id: Any, status: str, response: str | None, prompt: str | None, error: str | None,
         latency_s: float | None, raw: str | None, input_tokens: int | None,
         output_tokens: int | None) -> StoredRow:
    return StoredRow(str(item_id), status, response, _json_object(prompt), error, latency_s,
                     _json_object(raw), input_tokens, output_tokens)


def _turn(item_id: Any, name: Any, status: str, response: str | None, prompt: str | None, error: str | None,
          latency_s: float | None, raw: str | None, input_tokens: int | None,
          output_tokens: int | None) -> StoredTurn:
    return StoredTurn(str(item_id), status, response, _json_object(prompt), error, latency_s,
                      _json_object(raw), input_tokens, output_tokens, turn=str(name))
