"""The run store: one SQLite file, one row per request key, written in its own transaction per item.

A request key hashes what is sent for an item — request text, media and their encoding, decoding
settings, model (see :mod:`spatialbench.runs.keys`) — so a changed prompt or setting is a different row
and never a stale hit, while a scoring-only change (ground truth, pruned ids, extraction) re-uses every
row. One store holds one model on one benchmark (:mod:`spatialbench.runs.identity`); the ``attempts``
column counts every request sent for a key over all passes; SQLite and file-system failures (damaged
file, full disk: SQLITE_FULL or ENOSPC) are one :class:`RunStoreError` naming the file, and rows committed
before stay.
Status: ``ok`` (non-empty answer), ``empty`` (the model said nothing) or ``failed`` (error recorded);
only ``ok`` rows count as done, so re-running retries the others. Nothing secret is ever written: every
text of a result (answer, provider metadata, error) passes :func:`spatialbench.records.redaction.redact` in
:meth:`RunStore.put`, the one place results are written (a model may repeat a key it saw, e.g. an echoing
proxy, and scores are written from the stored rows).

Multi-turn strategies (:mod:`spatialbench.prompting.strategies`) also write one ``turns`` row per turn
(keyed by the item's request key, the turn's name and its text; :mod:`spatialbench.runs.dialogue`), so a
resumed run re-sends only the turns without an ``ok`` answer; the item's ``results`` row then holds the
strategy's final answer.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialbench.records.messages import Response
from spatialbench.records.redaction import redact
from spatialbench.records.surrogates import escape_lone_surrogates
from spatialbench.runs.checks import RunSetupError
from spatialbench.runs.identity import check_same_run
from spatialbench.runs.store.marker import foreign_tables

SCHEMA = """
CREATE TABLE IF NOT EXISTS invocations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at REAL NOT NULL,
    config TEXT NOT NULL,
    environment TEXT NOT NULL,
    backend TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    request_key TEXT PRIMARY KEY,
    item_id TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'empty', 'failed')),
    response TEXT,
    error TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    logprobs TEXT,
    raw TEXT,
    prompt TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    latency_s REAL,
    finished_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS results_item ON results (item_id);
CREATE TABLE IF NOT EXISTS turns (
    turn_key TEXT PRIMARY KEY,
    request_key TEXT NOT NULL,
    item_id TEXT NOT NULL,
    turn TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'empty', 'failed')),
    response TEXT,
    error TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    raw TEXT,
    prompt TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    latency_s REAL,
    finished_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_item ON turns (request_key);
"""

_OK_TURN = "SELECT response, input_tokens, output_tokens, raw FROM turns WHERE turn_key = ? AND status = 'ok'"
TURN_UPSERT = """
INSERT INTO turns (turn_key, request_key, item_id, turn, status, response, error, input_tokens, output_tokens,
                   raw, prompt, latency_s, finished_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (turn_key) DO UPDATE SET
    status = excluded.status, response = excluded.response, error = excluded.error,
    input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, raw = excluded.raw,
    latency_s = excluded.latency_s, finished_at = excluded.finished_at, attempts = turns.attempts + 1
"""

UPSERT = """
INSERT INTO results (request_key, item_id, status, response, error, input_tokens, output_tokens, logprobs,
                     raw, prompt, latency_s, finished_at, attempts)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (request_key) DO UPDATE SET
    status = excluded.status, response = excluded.response, error = excluded.error,
    input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens,
    logprobs = excluded.logprobs, raw = excluded.raw, prompt = excluded.prompt,
    latency_s = excluded.latency_s, finished_at = excluded.finished_at,
    attempts = results.attempts + excluded.attempts
"""
_GAVE_UP = re.compile(r"gave up after (\d+) attempts")


TRUNCATED = ("length", "max_tokens", "MAX_TOKENS")
"""``finish_reason`` values of an answer cut off at the answer budget (per back end; see ``truncated``)."""


@dataclass(frozen=True)
class StoredResult:
    """One row of ``results``."""

    request_key: str
    item_id: str
    status: str
    response: str | None
    error: str | None
    attempts: int


class RunStoreError(RunSetupError):
    """The store cannot be opened, read or written (damaged file, full disk); the message names the file.

    Rows committed before the failure stay in the file: every item is its own transaction.
    """


class RunStore:
    """A run's SQLite store at ``path`` (created with its folder when missing).

    WAL journaling: a process killed mid-run (even SIGKILL) loses at most the items not yet committed.
    ``secrets``: values to mask in everything :meth:`put` writes (None = read from the environment).

    Raises:
        RunStoreError: at construction, ``path`` is not a readable SQLite store (not a database, or
            damaged inside: SQLite's ``PRAGMA quick_check`` runs before anything is written, a pass over
            the file's pages) or another program's database (tables other than a run store's, or a
            ``results`` table without its columns); from any method, SQLite fails to read or write (e.g.
            the disk is full).
    """

    def __init__(self, path: Path, secrets: list[str] | None = None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._secrets = secrets
        with self._failures("open"):
            self._conn = sqlite3.connect(path)
            try:
                _check_intact(self._conn)  # before the first write: a damaged file is left as it is
                if (found := foreign_tables(self._conn)) is not None:  # nor another program's adopted
                    self._conn.close()
                    raise RunStoreError(f"{path}: an SQLite file that is not a spatialbench run store "
                                        f"({found}); nothing in it was changed; choose another --out or "
                                        "move the file away")
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=NORMAL")
                self._conn.executescript(SCHEMA)
            except sqlite3.Error:
                self._conn.close()
                raise

    @contextmanager
    def _failures(self, action: str) -> Iterator[None]:
        """Turn SQLite or file-system errors into one :class:`RunStoreError` naming file and what is kept."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:  # OSError: the file system's own (ENOSPC, EIO, EROFS)
            kept = "nothing in it was changed" if action == "open" else "answers stored before are kept"
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise RunStoreError(
                f"{self.path}: cannot {action} the run store ({reason}); {kept}. Free disk space, or move "
                "a damaged file away (re-running then asks every item again) or choose another --out"
            ) from None

    def record_invocation(
        self, config: dict[str, Any], environment: dict[str, Any], backend: dict[str, Any]
    ) -> None:
        """Append this invocation's configuration, package versions and back-end settings.

        Raises:
            RunSetupError: the store holds a run of another benchmark or model
                (:func:`~spatialbench.runs.identity.check_same_run`); nothing is written.
        """
        with self._failures("read"):
            first = self._conn.execute("SELECT config FROM invocations ORDER BY id LIMIT 1").fetchone()
        if first is not None:
            check_same_run(self._stored_config(first[0]), config, self.path.parent)
        with self._failures("write"), self._conn:
            self._conn.execute(
                "INSERT INTO invocations (started_at, config, environment, backend) VALUES (?, ?, ?, ?)",
                (time.time(), json.dumps(config), json.dumps(environment), json.dumps(backend)),
            )

    def _stored_config(self, text: str) -> dict[str, Any]:
        try:
            stored = json.loads(text)
        except ValueError:
            stored = None
        if not isinstance(stored, dict):
            raise RunStoreError(f"{self.path}: the first run's recorded configuration is unreadable, so "
                                "whose answers it holds is unknown; choose another --out")
        return stored

    def done_keys(self) -> set[str]:
        """Request keys with an ``ok`` answer."""
        with self._failures("read"):
            rows = self._conn.execute("SELECT request_key FROM results WHERE status = 'ok'").fetchall()
        return {row[0] for row in rows}

    def put(
        self,
        key: str,
        item_id: str,
        prompt: dict[str, Any],
        response: Response | None = None,
        error: str | None = None,
        latency_s: float | None = None,
    ) -> str:
        """Write one item's outcome in its own transaction; returns the status written.

        A row already present for ``key`` (an earlier failed or empty attempt) is replaced and its
        ``attempts`` count grows by this pass's attempts (:func:`attempts_made`), so it counts every
        request sent for the key over all passes. Secrets are masked in the answer, metadata and error.
        """
        status = _status(response, error)
        r = response or Response(text="")
        logprobs = json.dumps([[t.token, t.logprob] for t in r.logprobs]) if r.logprobs else None
        values = (
            key,
            item_id,
            status,
            self._redact(r.text if response else None),
            self._redact(error),
            r.input_tokens,
            r.output_tokens,
            logprobs,
            self._redact(json.dumps(r.raw) if r.raw else None),
            self._redact(json.dumps(prompt)),
            latency_s,
            time.time(),
            attempts_made(response, error),
        )
        with self._failures("write"), self._conn:
            self._conn.execute(UPSERT, values)
        return status

    def turn(self, turn_key: str) -> Response | None:
        """Return the stored answer of a strategy's turn (``ok`` rows only; None: not answered yet)."""
        query = _OK_TURN
        with self._failures("read"):
            row = self._conn.execute(query, (turn_key,)).fetchone()
        if row is None:
            return None
        return Response(
            text=row[0], input_tokens=row[1], output_tokens=row[2], raw=json.loads(row[3] or "null")
        )

    def put_turn(
        self,
        turn_key: str,
        request_key: str,
        item_id: str,
        turn: str,
        prompt: dict[str, Any],
        response: Response | None = None,
        error: str | None = None,
        latency_s: float | None = None,
    ) -> str:
        """Write one turn of a multi-turn strategy (its own transaction, as :meth:`put`); returns the status.

        ``request_key`` is the item's key; ``turn`` the strategy's turn name (``sample-2/extract``).
        Secrets are masked in the answer, metadata, error and prompt.
        """
        status = _status(response, error)
        r = response or Response(text="")
        values = (
            turn_key,
            request_key,
            item_id,
            turn,
            status,
            self._redact(r.text if response else None),
            self._redact(error),
            r.input_tokens,
            r.output_tokens,
            self._redact(json.dumps(r.raw) if r.raw else None),
            self._redact(json.dumps(prompt)),
            latency_s,
            time.time(),
        )
        with self._failures("write"), self._conn:
            self._conn.execute(TURN_UPSERT, values)
        return status

    def turns(self, request_key: str) -> list[tuple[str, str, str | None]]:
        """(turn name, status, response) of an item's stored turns, in the order they were written."""
        query = "SELECT turn, status, response FROM turns WHERE request_key = ? ORDER BY finished_at, rowid"
        with self._failures("read"):
            return [tuple(row) for row in self._conn.execute(query, (request_key,)).fetchall()]

    def usage(self, keys: list[str]) -> dict[str, float]:
        """Return requests and tokens per answered item among ``keys`` (means of ``ok`` rows; {} if none).

        Keys ``items``, ``requests_per_item``, ``input_tokens_per_item``, ``output_tokens_per_item``
        (a strategy's row counts its turns, ``raw.requests``; a direct row one request; unknown token
        counts count as 0).
        """
        wanted = set(keys)
        query = "SELECT request_key, input_tokens, output_tokens, raw FROM results WHERE status = 'ok'"
        with self._failures("read"):
            rows = [r for r in self._conn.execute(query).fetchall() if r[0] in wanted]
        if not rows:
            return {}
        requests = [(json.loads(r[3] or "{}") or {}).get("requests", 1) for r in rows]
        n = len(rows)
        return {
            "items": n,
            "requests_per_item": sum(requests) / n,
            "input_tokens_per_item": sum(r[1] or 0 for r in rows) / n,
            "output_tokens_per_item": sum(r[2] or 0 for r in rows) / n,
        }

    def truncated(self, keys: list[str]) -> list[str]:
        """Return the ids of items among ``keys`` whose stored answer hit the answer budget, sorted.

        A back end records why generation stopped in ``raw.finish_reason``; ``length`` (OpenAI-compatible,
        Hugging Face), ``max_tokens`` (Anthropic) and ``MAX_TOKENS`` (Gemini) mean the answer was cut off,
        whatever its status (an ``empty`` row of a thinking model that spent the budget counts too).
        """
        wanted = set(keys)
        with self._failures("read"):
            rows = self._conn.execute("SELECT request_key, item_id, raw FROM results").fetchall()
        return sorted(item for key, item, raw in rows if key in wanted and _finish_reason(raw) in TRUNCATED)

    def _redact(self, text: str | None) -> str | None:
        """``text`` with secrets masked and lone surrogates escaped (SQLite cannot store them; issue 26)."""
        return None if text is None else escape_lone_surrogates(redact(text, self._secrets))

    def results(self, keys: list[str] | None = None) -> list[StoredResult]:
        """Rows for ``keys`` (all rows when None)."""
        query = "SELECT request_key, item_id, status, response, error, attempts FROM results"
        with self._failures("read"):
            rows = [StoredResult(*row) for row in self._conn.execute(query).fetchall()]
        if keys is None:
            return rows
        wanted = set(keys)
        return [r for r in rows if r.request_key in wanted]

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()


def attempts_made(response: Response | None, error: str | None) -> int:
    """Return the requests sent in one pass for one item.

    ``raw.attempts`` of the response when the back end reports it, the count of a retry error
    (``gave up after N attempts``), else 1.
    """
    count = (response.raw or {}).get("attempts") if response is not None else None
    if isinstance(count, int) and count >= 1:
        return count
    match = _GAVE_UP.search(error or "")
    return int(match.group(1)) if match else 1


def _check_intact(conn: sqlite3.Connection) -> None:
    """Raise ``sqlite3.DatabaseError`` ("damaged: ...", SQLite's first finding) unless the file is intact."""
    findings = [row[0] for row in conn.execute("PRAGMA quick_check(1)").fetchall()]
    if findings != ["ok"]:
        first = " ".join(" ".join(findings).replace("*** in database main ***", "").split())
        raise sqlite3.DatabaseError(f"damaged: {first}")


def _finish_reason(raw: str | None) -> object:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return None
    return value.get("finish_reason") if isinstance(value, dict) else None


def _status(response: Response | None, error: str | None) -> str:
    if error is not None or response is None:
        return "failed"
    if response.text.strip() or (response.raw or {}).get("no_answer_expected"):
        return "ok"
    return "empty"
