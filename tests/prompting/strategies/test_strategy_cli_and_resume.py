"""``spatialbench run --strategy``: parameters recorded, usage printed, bad names refused; resume per turn."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME
from support.cot_server import CoTModel, CoTServer
from support.openai_server import LoggedRequest, ServerScript
from support.vsi_data import make_vsibench

TRUTH = {"q0": "7", "q1": "C", "q2": "5", "q3": "B"}


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsi")
    assert make_vsibench(root, n_videos=1, per_video=4, shuffle=False) == TRUTH
    return root


def _args(root: Path, url: str, out: Path, *extra: str) -> list[str]:
    model = f"openai-compatible:{url}#cot-vlm"
    base = ["run", "--benchmark", "vsibench", "--data", str(root), "--model", model, "--out", str(out)]
    return [*base, "--frames", "uniform:2", "--concurrency", "4", "--timeout", "30", "--no-progress", *extra]


def test_cli_strategy_records_parameters_and_prints_requests_per_item(data, tmp_path) -> None:
    out = tmp_path / "run"
    model = CoTModel(lambda tag, phase, i: TRUTH[tag])
    with CoTServer(model) as server:
        args = _args(
            data, server.url, out, "--strategy", "self-consistency", "-S", "samples=3", "-S", "temperature=1"
        )
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert len(server.script.log) == 4 * 3 * 2
    strategy = json.loads((out / "config.json").read_text())["config"]["strategy"]
    assert strategy == {
        "name": "self-consistency",
        "params": {"samples": 3, "temperature": 1.0, "top_p": 1.0, "top_k": 40, "reasoning_tokens": 2048},
    }
    # the loopback server bills words + 85 per image as input, reply words as output (openai_server.py)
    log = server.script.log
    n_in = sum(len(r.text.split()) + 85 * r.n_images for r in log) / 4
    n_out = sum(len(model.reply(r.body).split()) for r in log) / 4
    assert f"per answered item: 6.0 requests, {n_in:.0f} input and {n_out:.0f} output tokens" in result.output
    assert "4 answered now" in result.output


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--strategy", "tree-of-thoughts"], "did you mean 'tree-of-thought'"),
        (["--strategy", "zero-shot-cot", "-S", "samples=5"], "has no parameter(s) ['samples']"),
        (["--strategy", "self-consistency", "-S", "samples"], "--strategy-param: must look like KEY=VALUE"),
        # issue 11: 1e9 samples OOM-killed the run after making --out; bad sampling values were sent
        (["--strategy", "self-consistency", "-S", "samples=1e9"], "samples: expected int, got 1000000000.0"),
        (["--strategy", "self-consistency", "-S", "samples=65"], "samples must be 1..64, got 65"),
        (["--strategy", "tree-of-thought", "-S", "plans=17"], "plans must be 1..16, got 17"),
        (["--strategy", "self-consistency", "-S", "temperature=-1"], "temperature must be 0..2, got -1.0"),
        (["--strategy", "self-consistency", "-S", "temperature=nan"], "temperature must be 0..2, got nan"),
        (["--strategy", "self-consistency", "-S", "top_p=2"], "top_p must be in (0, 1], got 2.0"),
        (["--strategy", "self-consistency", "-S", "top_p=0"], "top_p must be in (0, 1], got 0.0"),
        (["--strategy", "tree-of-thought", "-S", "top_k=-1"], "top_k must be at least 0, got -1"),
    ],
)
def test_cli_refuses_bad_strategies_before_sending(data, tmp_path, extra, message) -> None:
    script = ServerScript()
    with CoTServer(CoTModel(lambda tag, phase, i: "A"), script) as server:
        result = CliRunner().invoke(app, _args(data, server.url, tmp_path / "bad", *extra))
    assert result.exit_code == 2 and message in result.output, result.output
    assert script.log == [] and not (tmp_path / "bad").exists()


def _turns_ok(store: Path) -> int:
    try:
        with sqlite3.connect(store) as conn:
            return conn.execute("SELECT COUNT(*) FROM turns WHERE status = 'ok'").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def _sent(request: LoggedRequest) -> str:
    """Return what identifies a request on the wire: its messages and sampling seed."""
    return json.dumps([request.body["messages"], request.body.get("seed")], sort_keys=True)


SAMPLES = {"q0": "87879", "q1": "BCCBD", "q2": "55656", "q3": "BABAB"}  # as in test_strategies_e2e


def test_sigkilled_self_consistency_run_resends_only_unanswered_turns(data, tmp_path) -> None:
    out, store = tmp_path / "run", tmp_path / "run" / STORE_NAME
    script = ServerScript(hold_after=13)  # 13 turns answered, then every request is held unanswered
    model = CoTModel(lambda tag, phase, i: SAMPLES[tag][i])
    env = {**os.environ, "OPENAI_API_KEY": "sk-resume-turns"}
    command = [sys.executable, "-m", "spatialbench.cli.main"]
    with CoTServer(model, script) as server:
        args = _args(data, server.url, out, "--strategy", "self-consistency")
        first = subprocess.Popen([*command, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while not (_turns_ok(store) == 13 and any(r.outcome == "held" for r in script.log)):
                assert time.monotonic() < deadline, "timed out waiting for 13 stored turns"
                time.sleep(0.05)
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        n_first = len(script.answered())
        n_logged = len(script.log)
        script.hold_after = None
        script.release.set()
        second = subprocess.run([*command, *args], env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stdout + second.stderr
    resent = [r for r in script.log[n_logged:] if r.outcome == "answered"]
    assert n_first == 13 and len(resent) == 40 - 13  # 4 items × 5 samples × 2 turns, each sent once
    # every chain-of-thought turn (one per item and seed) was answered exactly once over both runs; the
    # extraction turns of two samples with the same reasoning are the same request, so they are counted
    answered = script.answered()
    cots = Counter(_sent(r) for r in answered if len(r.body["messages"]) == 1)
    assert len(cots) == 20 and set(cots.values()) == {1}
    assert sum(len(r.body["messages"]) == 3 for r in answered) == 20
    with sqlite3.connect(store) as conn:
        rows = dict(conn.execute("SELECT item_id, response FROM results WHERE status = 'ok'").fetchall())
        reused = [json.loads(r)["reused"] for (r,) in conn.execute("SELECT raw FROM results")]
    assert rows == {"0": "8.0", "1": "B", "2": "5.0", "3": "B"}  # the votes of test_strategies_e2e
    assert sum(reused) == 13
    # counting (0.8 + 1) / 2 = 90, rel. distance (0 + 1) / 2 = 50 → 70
    assert json.loads((out / "scores.json").read_text())["overall"] == 70.0


def test_run_file_strategy_section_and_flag_override(data, tmp_path) -> None:
    out = tmp_path / "run"
    with CoTServer(CoTModel(lambda tag, phase, i: TRUTH[tag])) as server:
        run_file = tmp_path / "run.yaml"
        run_file.write_text(
            "strategy: {name: self-consistency, params: {samples: 2, top_k: 20}}\n"
            f"model: {{name: 'openai-compatible:{server.url}#cot-vlm'}}\n"
        )
        args = ["run", "--config", str(run_file), "--benchmark", "vsibench", "--data", str(data)]
        args += ["--out", str(out), "--frames", "uniform:2", "--no-progress", "-S", "samples=3"]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    params = json.loads((out / "config.json").read_text())["config"]["strategy"]["params"]
    assert (params["samples"], params["top_k"]) == (3, 20)  # -S overrides the file key by key
    assert {r.body.get("top_k") for r in server.script.log} == {20, None}  # samples, extraction turns
    assert len(server.script.log) == 4 * 3 * 2
