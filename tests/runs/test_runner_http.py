"""End-to-end runs against a real OpenAI-compatible server on 127.0.0.1, through the official client."""

import json
import sqlite3
import zlib
from pathlib import Path

import pytest

from spatialbench.api import run
from spatialbench.runs import STORE_NAME, RunConfig
from support.configs import run_config
from support.openai_server import Fault, OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag

SECRET = "sk-test-9f8e7d6c5b4a3210-do-not-store"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("vsi")
    return root, make_vsibench(root, n_videos=3, per_video=4)


def _config(root: Path, url: str, out: Path, max_attempts: int = 6, **extra) -> RunConfig:
    model = {"concurrency": 4, "timeout_s": 0.5, "retry_base_delay_s": 0.01, "max_attempts": max_attempts}
    return run_config(root, out, url=url, frames="uniform:4", **{"model": model, **extra})

def _store_rows(out: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        return conn.execute("SELECT item_id, status, response FROM results").fetchall()


def test_answers_reach_store_through_faults_and_no_secret_on_disk(data, tmp_path, monkeypatch) -> None:
    root, answers = data
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    faults = [Fault("429", retry_after=0.01), Fault("500"), Fault("timeout", delay_s=1.0)]
    script = ServerScript(
        answer=answer_script(answers),
        latency_s=0.01,
        # crc32, not hash(): str hashes change per process, and 1 run in ~130 gave no item a timeout
        fault=lambda seen, text: faults[zlib.crc32(text.encode()) % 3] if seen == 0 else None,
    )
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        summary = run(_config(root, server.url, out), progress=False)
    assert summary.counts == {"ok": 12, "empty": 0, "failed": 0}
    rows = _store_rows(out)
    assert len(rows) == 12 and all(status == "ok" for _, status, _ in rows)
    by_tag = {question_tag(r.text): r for r in script.answered()}
    assert set(by_tag) == set(answers) and all(r.n_images == 4 for r in by_tag.values())
    assert {r.outcome for r in script.log} == {"429", "500", "timeout", "answered"}
    assert all(r.authorization == f"Bearer {SECRET}" for r in script.log)  # the key was used ...
    scores = json.loads((out / "scores.json").read_text())
    assert "100.0" in (out / "scores.md").read_text() and scores
    for path in out.rglob("*"):  # ... but is in no file the run wrote
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
            assert b"9f8e7d6c5b4a3210" not in path.read_bytes(), path


def test_blind_mode_sends_no_image_parts(data, tmp_path) -> None:
    root, answers = data
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        summary = run(_config(root, server.url, tmp_path / "blind", prompt={"blind": True}), progress=False)
    assert summary.counts["ok"] == 12 and summary.decodes == {}
    assert len(script.log) == 12 and all(r.n_images == 0 for r in script.log)
    for logged in script.log:
        for message in logged.body["messages"]:
            content = message["content"]
            assert isinstance(content, str) or all(part["type"] == "text" for part in content)


def test_rerun_resumes_and_changed_prompt_is_a_new_item(data, tmp_path) -> None:
    root, answers = data
    script = ServerScript(answer=answer_script(answers))
    out = tmp_path / "resume"
    with OpenAIServer(script) as server:
        run(_config(root, server.url, out), progress=False)
        again = run(_config(root, server.url, out), progress=False)
        assert again.already_done == 12 and sum(again.counts.values()) == 0 and len(script.log) == 12
        changed = run(
            _config(root, server.url, out, prompt={"overrides": {"pre_prompt": "Look."}}), progress=False
        )
    assert changed.already_done == 0 and changed.counts["ok"] == 12 and len(script.log) == 24
    assert all(r.text.startswith("Look.") for r in script.log[12:])


def test_failed_and_empty_answers_are_retried_on_rerun(data, tmp_path) -> None:
    root, answers = data
    first = ServerScript(
        answer=lambda text: "" if question_tag(text) == "q1" else answer_script(answers)(text),
        fault=lambda seen, text: Fault("500") if question_tag(text) == "q2" else None,
    )
    out = tmp_path / "retry"
    with OpenAIServer(first) as server:
        summary = run(_config(root, server.url, out, max_attempts=2), progress=False)
    assert summary.counts == {"ok": 10, "empty": 1, "failed": 1}
    second = ServerScript(answer=answer_script(answers))
    with OpenAIServer(second) as server:
        rerun = run(_config(root, server.url, out, max_attempts=2), progress=False)
    assert rerun.already_done == 10 and rerun.counts["ok"] == 2
    assert sorted(question_tag(r.text) for r in second.log) == ["q1", "q2"]
    with sqlite3.connect(out / STORE_NAME) as conn:
        errors = conn.execute("SELECT COUNT(*) FROM results WHERE status != 'ok'").fetchone()[0]
    assert errors == 0


def test_corrupt_video_is_a_per_item_error_and_run_goes_on(tmp_path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=2, per_video=2)
    (root / "arkitscenes" / "scene1.mp4").write_bytes(b"not a video" * 100)  # present, undecodable
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        summary = run(_config(root, server.url, tmp_path / "out"), progress=False)
    assert (
        summary.counts == {"ok": 2, "empty": 0, "failed": 2}
        and summary.decodes[str(root / "arkitscenes/scene1.mp4")] == 1
    )
    assert len(summary.unanswered) == 2 and all(status == "failed" for _, status, _ in summary.unanswered)
    with sqlite3.connect(tmp_path / "out" / STORE_NAME) as conn:
        errors = [e for (e,) in conn.execute("SELECT error FROM results WHERE status = 'failed'")]
    assert all("MediaError" in e and "scene1.mp4: cannot open video" in e for e in errors)
