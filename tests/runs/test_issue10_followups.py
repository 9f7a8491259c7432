"""Newcomer findings on issue 10: a full disk with requests in flight, symlinks out of the data folder,
a store damaged inside, empty videos. Each failing input first, then the fix."""

import json
import logging
import re
import shutil
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


def test_store_damaged_inside_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=6)
    out = tmp_path / "run"
    script = ServerScript(answer=lambda text: "7 " * 1500)
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#m"
        assert CliRunner().invoke(app, _args(root, out, model, "--limit", "3")).exit_code == 0
        with sqlite3.connect(out / STORE_NAME) as conn:
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
            page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'results'").fetchone()[0]
        conn.close()
        data = bytearray((out / STORE_NAME).read_bytes())
        start = (page - 1) * page_size + 8  # the page header stays, its cells are overwritten
        data[start:page * page_size] = b"\x5a" * (page * page_size - start)
        (out / STORE_NAME).write_bytes(bytes(data))
        config = (out / "config.json").read_bytes()
        sent = len(script.log)
        result = CliRunner().invoke(app, _args(root, out, model))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {out / STORE_NAME}: cannot open the run store ("), result.output
    assert "nothing in it was changed" in lines[0]
    assert (out / STORE_NAME).read_bytes() == bytes(data) and (out / "config.json").read_bytes() == config
    assert len(script.log) == sent and not (out / "run.lock").exists()


def _point_item_at(root: Path, scene: str) -> None:
    """Point the first item of ``root/test.jsonl`` at ``arkitscenes/<scene>.mp4``."""
    lines = (root / "test.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    lines[0] = json.dumps({**first, "scene_name": scene})
    (root / "test.jsonl").write_text("\n".join(lines) + "\n")


def _refused(root: Path, out: Path) -> tuple[str, int]:
    script = ServerScript(answer=lambda text: "B")
    with OpenAIServer(script) as server:
        result = CliRunner().invoke(app, _args(root, out, f"openai-compatible:{server.url}#m"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("nothing was sent"), result.output
    return lines[0], len(script.log)


def test_symlink_out_of_the_data_folder_is_a_set_up_error_naming_the_file(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=3)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(root / "arkitscenes" / "scene0.mp4", outside / "x.mp4")
    (root / "arkitscenes" / "linked.mp4").symlink_to(outside / "x.mp4")
    _point_item_at(root, "linked")
    line, sent = _refused(root, tmp_path / "run")
    assert line == (
        f"error: 1 media file(s) lead outside the data folder {root.resolve()} through a symbolic link "
        f"(1 of 3 items use them): {root / 'arkitscenes' / 'linked.mp4'} -> {outside / 'x.mp4'}; "
        "nothing was sent"
    )
    assert sent == 0 and not (tmp_path / "run" / STORE_NAME).exists()


def test_symlinks_inside_the_data_folder_and_a_linked_data_folder_run(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    (root / "arkitscenes" / "alias.mp4").symlink_to(root / "arkitscenes" / "scene0.mp4")
    _point_item_at(root, "alias")
    (tmp_path / "link").symlink_to(root)
    with OpenAIServer(ServerScript(answer=lambda text: "B")) as server:
        result = CliRunner().invoke(app, _args(tmp_path / "link", tmp_path / "run",
                                               f"openai-compatible:{server.url}#m"))
    assert result.exit_code == 0, result.output
    assert [status for _, status in _rows(tmp_path / "run")] == ["ok", "ok"]


def test_empty_video_is_a_set_up_error(tmp_path: Path) -> None:
    # a present but undecodable video stays a per-item error (test_runner_http.py): decoded once
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=3)
    (root / "arkitscenes" / "scene1.mp4").write_bytes(b"")
    line, sent = _refused(root, tmp_path / "run")
    assert line == (
        f"error: 1 media file(s) cannot be used under {root} (3 of 6 items use them): "
        f"{root / 'arkitscenes' / 'scene1.mp4'}: empty file (0 bytes); nothing was sent")
    assert sent == 0 and not (tmp_path / "run" / STORE_NAME).exists()
