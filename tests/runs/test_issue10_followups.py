"""Newcomer findings on issue 10: a full disk with requests in flight, symlinks out of the data folder,
a store damaged inside, empty videos. Each failing input first, then the fix."""

import logging
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from spatialbench.runs.store import RunStore
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench


def _args(root: Path, out: Path, model: str, *extra: str) -> list[str]:
    base = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress"]
    return [*base, "--model", model, "--frames", "uniform:4", *extra]


def _rows(out: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        return sorted(conn.execute("SELECT item_id, status FROM results").fetchall())


def test_full_disk_with_requests_in_flight_stops_cleanly_and_counts_lost_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=12)
    out = tmp_path / "run"
    original = RunStore.__init__

    def small_disk(self: RunStore, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        original(self, *args, **kwargs)
        pages = self._conn.execute("PRAGMA page_count").fetchone()[0]
        self._conn.execute(f"PRAGMA max_page_count = {pages + 12}")  # SQLite's own SQLITE_FULL

    script = ServerScript(answer=lambda text: "7 " * 3000, latency_s=0.1)  # ~6 KB per answer
    caplog.set_level(logging.WARNING)
    with OpenAIServer(script) as server:
        monkeypatch.setattr(RunStore, "__init__", small_disk)
        result = CliRunner().invoke(app, _args(root, out, f"openai-compatible:{server.url}#m",
                                               "--concurrency", "4"))
    assert result.exit_code == 2, result.output
    assert "unhandled exception" not in caplog.text and "Traceback" not in result.output, caplog.text
    assert "closed database" not in result.output + caplog.text
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {out / STORE_NAME}: cannot write the run store (database or disk is full); "
        "answers stored before are kept"), result.output
    kept = _rows(out)
    answered = len(script.answered())
    assert 0 < len(kept) < 24 and all(status == "ok" for _, status in kept)
    assert answered <= len(kept) + 2 * 4  # dispatch stopped at the first failed write
    lost = answered - len(kept)
    match = re.search(r"(\d+) answer\(s\) received in this run could not be stored", lines[0])
    assert (match is not None and int(match.group(1)) == lost) or (lost == 0 and match is None), lines[0]
    assert lost > 0  # with 4 in flight and ~6 KB answers, some arrive after the disk filled
