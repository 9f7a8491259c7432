"""A run folder holds one model on one benchmark; a damaged store or a full disk is one line, nothing lost."""

import logging
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from spatialbench.runs.identity import OtherRunError, check_same_run
from support.full_disk import small_disk
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench


def _args(root: Path, out: Path, model: str, *extra: str) -> list[str]:
    base = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress"]
    return [*base, "--model", model, "--frames", "uniform:4", *extra]


def _rows(out: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        return sorted(conn.execute("SELECT item_id, status FROM results").fetchall())


def _config(benchmark: str, model: str) -> dict:
    return {"data": {"benchmark": benchmark}, "model": {"name": model}}


def test_identity_is_benchmark_and_served_model(tmp_path: Path) -> None:
    stored = _config("vsibench", "openai-compatible:http://127.0.0.1:8000/v1#qwen")
    check_same_run(stored, _config("vsibench", "openai-compatible:http://10.0.0.2:9000/v1#qwen"), tmp_path)
    with pytest.raises(OtherRunError, match=r"holds a run of openai-compatible:qwen on vsibench; this run "
                                            r"is openai-compatible:qwen on mmsi-video"):
        check_same_run(stored, _config("mmsi-video", "openai-compatible:http://127.0.0.1:8000/v1#qwen"),
                       tmp_path)
    with pytest.raises(OtherRunError, match="this run is openai:gpt-4o on vsibench"):
        check_same_run(stored, _config("vsibench", "openai:gpt-4o"), tmp_path)


def test_out_folder_of_another_model_is_refused_and_kept(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=4)
    out = tmp_path / "run"
    assert CliRunner().invoke(app, _args(root, out, "chance-random")).exit_code == 0
    before, config = _rows(out), (out / "config.json").read_bytes()
    result = CliRunner().invoke(app, _args(root, out, "chance-frequency"))
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {out} holds a run of chance-random on vsibench; this run is chance-frequency on vsibench. "
        "One folder holds one model on one benchmark: choose another --out"
    )
    assert _rows(out) == before and len(before) == 4 and (out / "config.json").read_bytes() == config
    assert not (out / "run.lock").exists()


def test_damaged_store_is_one_line_and_left_untouched(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    out = tmp_path / "run"
    out.mkdir()
    damaged = b"this is not an SQLite file\n" * 40
    (out / STORE_NAME).write_bytes(damaged)
    result = CliRunner().invoke(app, _args(root, out, "chance-random"))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert result.output.startswith(f"error: {out / STORE_NAME}: cannot open the run store (file is not a "
                                    "database); nothing in it was changed")
    assert (out / STORE_NAME).read_bytes() == damaged
    assert sorted(p.name for p in out.iterdir()) == [STORE_NAME]  # no config.json, scores or lock


def test_full_disk_mid_run_keeps_stored_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=6)
    out = tmp_path / "run"
    script = ServerScript(answer=lambda text: "7 " * 3000)  # ~6 KB per answer: a few pages each
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#m"
        with monkeypatch.context() as patch:
            small_disk(patch, free_pages=12)
            result = CliRunner().invoke(app, _args(root, out, model, "--concurrency", "1"))
        assert result.exit_code == 2, result.output
        assert f"error: {out / STORE_NAME}: cannot write the run store (database or disk is full); " \
               "answers stored before are kept" in result.output
        kept = _rows(out)
        assert 0 < len(kept) < 12 and all(status == "ok" for _, status in kept)
        assert not (out / "scores.json").exists() and not (out / "run.lock").exists()
        sent = len(script.log)
        again = CliRunner().invoke(app, _args(root, out, model, "--concurrency", "1"))
    assert again.exit_code == 0, again.output
    assert f"12 items: {len(kept)} already answered, {12 - len(kept)} answered now" in again.output
    assert len(script.log) == sent + 12 - len(kept)


def test_unreadable_recorded_configuration_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=1, per_video=2)
    out = tmp_path / "run"
    assert CliRunner().invoke(app, _args(root, out, "chance-random")).exit_code == 0
    with sqlite3.connect(out / STORE_NAME) as conn:
        conn.execute("UPDATE invocations SET config = '{not json'")
    before = _rows(out)
    result = CliRunner().invoke(app, _args(root, out, "chance-random"))
    assert result.exit_code == 2 and result.output.strip() == (
        f"error: {out / STORE_NAME}: the first run's recorded configuration is unreadable, so whose answers "
        "it holds is unknown; choose another --out"
    )
    assert _rows(out) == before


def test_full_disk_with_requests_in_flight_stops_cleanly_and_counts_lost_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=12)
    out = tmp_path / "run"
    script = ServerScript(answer=lambda text: "7 " * 3000, latency_s=0.1)  # ~6 KB per answer
    caplog.set_level(logging.WARNING)
    with OpenAIServer(script) as server:
        small_disk(monkeypatch, free_pages=12)
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
