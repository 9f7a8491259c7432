"""Resume after SIGKILL (each item answered exactly once overall) and decode-once over a 300-question run."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from spatialbench.api import run
from spatialbench.runs import STORE_NAME, RunConfig
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag


def _ok_count(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        with sqlite3.connect(store) as conn:
            return conn.execute("SELECT COUNT(*) FROM results WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:  # the runner has created the file but not yet its tables
        return 0


def _wait(condition, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.05)


def _command(root: Path, url: str, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "spatialbench.cli.main",
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(root),
        "--model",
        f"openai-compatible:{url}#test-vlm",
        "--out",
        str(out),
        "--frames",
        "uniform:2",
        "--concurrency",
        "4",
        "--timeout",
        "30",
        "--no-progress",
    ]


@pytest.mark.slow
def test_sigkill_mid_run_then_rerun_answers_every_item_exactly_once(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=4, per_video=4)
    out = tmp_path / "run"
    script = ServerScript(answer=answer_script(answers), hold_after=6)
    env = {**os.environ, "OPENAI_API_KEY": "sk-resume-test-key"}
    with OpenAIServer(script) as server:
        first = subprocess.Popen(
            _command(root, server.url, out), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        try:
            # six answers committed, and further requests in flight (held unanswered by the server)
            _wait(lambda: _ok_count(out / STORE_NAME) == 6 and any(r.outcome == "held" for r in script.log))
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        answered_before = {question_tag(r.text) for r in script.answered()}
        script.hold_after = None
        script.release.set()
        second = subprocess.run(
            _command(root, server.url, out), env=env, capture_output=True, text=True, timeout=120
        )
    assert second.returncode == 0, second.stdout + second.stderr
    answered = Counter(question_tag(r.text) for r in script.answered())
    assert set(answered) == set(answers) and set(answered.values()) == {1}  # every item exactly once
    assert len(answered_before) == 6
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT item_id, status FROM results").fetchall()
    assert len(rows) == 16 and {s for _, s in rows} == {"ok"} and len({i for i, _ in rows}) == 16
    assert "6 already answered, 10 answered now, 0 empty, 0 failed" in second.stdout


@pytest.mark.slow
def test_300_questions_over_20_videos_decode_each_video_once(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=20, per_video=15, n_frames=12)  # questions shuffled in the file
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(root)},
                "model": {"name": f"openai-compatible:{server.url}#m", "concurrency": 16},
                "out": str(tmp_path / "run"),
                "media": {"frames": "all", "frame_cache_mb": 1},
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["ok"] == 300 and len(script.log) == 300
    videos = {str(root / "arkitscenes" / f"scene{v}.mp4") for v in range(20)}
    assert summary.decodes == dict.fromkeys(videos, 1)
    assert all(r.n_images == 12 for r in script.log)
