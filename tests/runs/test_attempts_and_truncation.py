"""The request log counts every request sent for an item over all passes; cut-off answers are reported."""

import json
import sqlite3
from pathlib import Path

from spatialbench.api import run
from spatialbench.records.messages import Response
from spatialbench.runs import STORE_NAME, RunConfig
from spatialbench.runs.store import RunStore, attempts_made
from support.configs import run_config
from support.openai_server import Fault, OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench, question_tag


def _config(root: Path, url: str, out: Path, max_attempts: int) -> RunConfig:
    return run_config(root, out, url=url, served="m", frames="uniform:2",
                      model={"max_attempts": max_attempts, "retry_base_delay_s": 0.0, "concurrency": 2})

def _attempts(out: Path) -> dict[str, tuple[str, int]]:
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT item_id, status, attempts FROM results").fetchall()
    return {item: (status, attempts) for item, status, attempts in rows}


def test_attempts_add_up_over_retry_passes(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=1, per_video=4)
    out = tmp_path / "run"
    failing = ServerScript(answer=answer_script(answers),
                           fault=lambda seen, text: Fault("500") if question_tag(text) == "q2" else None)
    with OpenAIServer(failing) as server:
        first = run(_config(root, server.url, out, max_attempts=3), progress=False)
    assert first.counts["failed"] == 1 and sum(question_tag(r.text) == "q2" for r in failing.log) == 3
    assert _attempts(out)["2"] == ("failed", 3) and _attempts(out)["1"] == ("ok", 1)
    with OpenAIServer(ServerScript(answer=answer_script(answers))) as server:
        second = run(_config(root, server.url, out, max_attempts=3), progress=False)
    assert second.counts["ok"] == 1
    assert _attempts(out)["2"] == ("ok", 4)  # 3 requests in the first pass, 1 in the second


def test_attempts_made_reads_the_back_end_count_or_the_retry_error() -> None:
    assert attempts_made(Response(text="B", raw={"attempts": 3}), None) == 3
    assert attempts_made(None, "BackendError: gave up after 6 attempts: HTTP 500") == 6
    assert attempts_made(Response(text="B"), None) == 1 and attempts_made(None, "MediaError: x") == 1


def _completion(text: str, finish: str) -> bytes:
    return json.dumps({
        "id": "c", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 16, "total_tokens": 26},
    }).encode()


def test_answers_cut_off_at_the_budget_are_counted(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=1, per_video=4)
    cut = {"q1": "Let me think about the", "q2": ""}  # q2: the budget went on thinking, nothing came back

    def answer(text: str) -> bytes:
        tag = question_tag(text)
        return _completion(cut[tag], "length") if tag in cut else _completion(answers[tag], "stop")

    with OpenAIServer(ServerScript(answer=answer)) as server:
        summary = run(_config(root, server.url, tmp_path / "run", max_attempts=1), progress=False)
    assert summary.truncated == ["1", "2"]
    assert summary.counts == {"ok": 3, "empty": 1, "failed": 0}
    store = RunStore(tmp_path / "run" / STORE_NAME)
    try:
        keys = [r.request_key for r in store.results()]
        assert store.truncated(keys) == ["1", "2"] and store.truncated(keys[:0]) == []
    finally:
        store.close()


def test_a_request_that_succeeds_after_retries_counts_every_attempt(tmp_path: Path) -> None:
    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=1, per_video=2)
    out = tmp_path / "run"
    tries: dict[str, int] = {}

    def fail_twice(seen: object, text: str) -> Fault | None:
        tag = question_tag(text)
        tries[tag] = tries.get(tag, 0) + 1
        return Fault("500") if tag == "q1" and tries[tag] <= 2 else None

    with OpenAIServer(ServerScript(answer=answer_script(answers), fault=fail_twice)) as server:
        summary = run(_config(root, server.url, out, max_attempts=4), progress=False)
    assert summary.counts["ok"] == 2
    assert _attempts(out)["1"] == ("ok", 3) and _attempts(out)["0"] == ("ok", 1)  # 2 failures, the answer


def test_the_run_command_reports_cut_off_answers(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    root = tmp_path / "data"
    answers = make_vsibench(root, n_videos=1, per_video=2)

    def answer(text: str) -> bytes:
        tag = question_tag(text)
        return _completion("Let me think", "length") if tag == "q1" else _completion(answers[tag], "stop")

    with OpenAIServer(ServerScript(answer=answer)) as server:
        result = CliRunner().invoke(app, [
            "run", "--benchmark", "vsibench", "--data", str(root), "--frames", "uniform:2",
            "--model", f"openai-compatible:{server.url}#m", "--out", str(tmp_path / "run"),
        ])
    assert "1 answer(s) cut off at the answer budget (finish_reason length), first: 1" in result.output
