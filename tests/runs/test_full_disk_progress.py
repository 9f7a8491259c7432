"""A full disk mid-run stops it with one line naming the store and what was kept; the bar never reads n/n.

Issue 26 ("Confusing now": a full disk ended with a bar reading "132/132 ... failed=0"). The disk is full
at the file boundary: SQLite's own SQLITE_FULL (a page limit), or the file system's ENOSPC raised by the
store's write (a full disk cannot be produced here, so the SQLite connection's write raises it).
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from spatialbench.runs.store import RunStore
from support.full_disk import small_disk
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench

ITEMS = 12


class _FullDisk:
    """A SQLite connection whose result writes fail with ENOSPC once ``free`` of them were written."""

    def __init__(self, conn: sqlite3.Connection, free: int) -> None:
        self.conn, self.free = conn, free

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().startswith("INSERT INTO results"):
            if self.free == 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            self.free -= 1
        return self.conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn.__enter__()

    def __exit__(self, *exc: object) -> bool | None:
        return self.conn.__exit__(*exc)  # type: ignore[arg-type]


def _enospc_after(patch: pytest.MonkeyPatch, free: int) -> None:
    original = RunStore.__init__

    def full(self: RunStore, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self._conn = _FullDisk(self._conn, free)  # type: ignore[assignment]

    patch.setattr(RunStore, "__init__", full)


def _run(tmp_path: Path, patch: pytest.MonkeyPatch, fill: Any) -> tuple[str, int, Path, int]:
    root, out = tmp_path / "data", tmp_path / "run"
    make_vsibench(root, n_videos=2, per_video=ITEMS // 2)
    with OpenAIServer(ServerScript(answer=lambda text: "7 " * 3000)) as server, patch.context() as p:
        fill(p)
        model = f"openai-compatible:{server.url}#m"
        args = [*"run --benchmark vsibench --frames uniform:4 --concurrency 1".split(), "--model", model]
        args += ["--data", str(root), "--out", str(out)]
        result = CliRunner().invoke(app, args)  # with the bar: CliRunner captures stderr too
    with sqlite3.connect(out / STORE_NAME) as conn:
        kept = conn.execute("SELECT COUNT(*) FROM results WHERE status = 'ok'").fetchone()[0]
    return result.output, result.exit_code, out, kept


def _final_bar(output: str) -> str:
    return [part for part in re.split(r"[\r\n]", output) if "item" in part and "|" in part][-1]


def test_enospc_from_the_store_write_stops_the_run_with_one_line_naming_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output, code, out, kept = _run(tmp_path, monkeypatch, lambda p: _enospc_after(p, free=4))
    assert code == 2, output
    last = output.rstrip().splitlines()[-1]
    assert last.startswith(
        f"error: {out / STORE_NAME}: cannot write the run store (No space left on device); "
        "answers stored before are kept"
    ), output
    assert kept == 4 and "Traceback" not in output
    bar = _final_bar(output)
    assert f"{ITEMS}/{ITEMS}" not in bar and ": stopped" in bar and f"4/{ITEMS}" in bar, bar
    assert f"not_attempted={ITEMS - 4}" in bar


def test_sqlite_full_mid_run_ends_with_a_stopped_bar_not_n_of_n(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    output, code, out, kept = _run(tmp_path, monkeypatch, lambda p: small_disk(p, free_pages=12))
    assert code == 2 and "database or disk is full" in output.rstrip().splitlines()[-1], output
    bar = _final_bar(output)
    assert 0 < kept < ITEMS and f"{kept}/{ITEMS}" in bar and ": stopped" in bar, bar
