"""Inputs a newcomer broke `spatialbench run` with: each fails before any request, or is reported honestly."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.runs import STORE_NAME, RunConfig
from support.openai_server import Fault, OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench

#: upper bound of each wait on the Ctrl-C subprocess (not a timing assertion; see the test)
SUBPROCESS_PATIENCE_S = 180
KEY = "tok-SECRET123-from-the-env"  # not key-shaped: only the environment says it is secret


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("vsi")
    return root, make_vsibench(root, n_videos=2, per_video=4, n_frames=6)


def _cli(root: Path, out: Path, model: str, *extra: str) -> list[str]:
    base = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress"]
    return [*base, "--model", model, "--frames", "uniform:2", "--timeout", "2", *extra]


def _invoke(args: list[str]):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, args)


def _files_with(folder: Path, needle: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_key_in_the_models_answer_never_reaches_disk(data, tmp_path, monkeypatch) -> None:
    root, _ = data
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    script = ServerScript(answer=lambda text: f"your key is Bearer {KEY} and sk-test-SECRET123abc")
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        result = _invoke(_cli(root, out, f"openai-compatible:{server.url}#m"))
    assert all(r.authorization == f"Bearer {KEY}" for r in script.log) and len(script.log) == 8
    assert (out / "items.csv").exists() and result.exit_code == 0, result.output
    assert _files_with(out, KEY) == [] and _files_with(out, "SECRET123") == []
    with sqlite3.connect(out / STORE_NAME) as conn:
        stored = [t for (t,) in conn.execute("SELECT response FROM results")]
    assert stored == ["your key is Bearer *** and ***"] * 8


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--extract", "nonsense"], "no extraction mode 'nonsense'"),
        (["-o", "foo=bar"], "unknown benchmark option 'foo'; known: pruned_ids, subset"),
        (["--ids", "/nonexistent/ids.txt"], "/nonexistent/ids.txt"),
        (["--frames", "uniform:0"], "Invalid value for --frames: bad frame strategy 'uniform:0'"),
        (["--order", "sideways"], "Invalid value for --order: Input should be"),
        (["--model-family", "closed"], "Invalid value for --model-family: Input should be"),
        (
            ["--concurrency", "0"],
            "Invalid value for --concurrency: Input should be greater than or equal to 1",
        ),
    ],
)
def test_bad_options_fail_in_one_line_before_any_request(data, tmp_path, extra, message) -> None:
    root, _ = data
    script = ServerScript()
    with OpenAIServer(script) as server:
        result = _invoke(_cli(root, tmp_path / "o", f"openai-compatible:{server.url}#m", *extra))
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output and "errors.pydantic.dev" not in result.output
    assert script.log == [] and not (tmp_path / "o" / STORE_NAME).exists()


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ("hf:/nonexistent/path", "hf model folder /nonexistent/path does not exist"),
        ("openai-compatible:notaurl#m", "not an http(s) URL: 'notaurl'"),
    ],
)
def test_bad_model_names_are_one_setup_error(data, tmp_path, model, message) -> None:
    root, _ = data
    result = _invoke(_cli(root, tmp_path / "o", model))
    assert result.exit_code == 2 and message in result.output, result.output
    assert result.output.count("error:") == 1


def test_out_that_is_a_file_and_empty_annotations_are_errors(data, tmp_path) -> None:
    root, _ = data
    existing = tmp_path / "a-file"
    existing.write_text("x")
    result = _invoke(_cli(root, existing, "chance-random"))
    assert result.exit_code == 2 and "--out" in result.output and "not a folder" in result.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = _invoke(_cli(empty, tmp_path / "o", "chance-random"))
    assert result.exit_code == 2 and "no items" in result.output, result.output


def test_failed_items_exit_1_after_the_summary_and_list_how_many_more(tmp_path) -> None:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=2, per_video=4, n_frames=6)
    # every item but one fails (an endpoint that answered nothing is one line: tests/cli/test_dead_endpoints)
    script = ServerScript(fault=lambda seen, text: None if "[q0]" in text else Fault("500"))
    with OpenAIServer(script) as server:
        model = f"openai-compatible:{server.url}#m"
        result = _invoke(_cli(root, tmp_path / "o", model, "--max-attempts", "1"))
    assert result.exit_code == 1, result.output
    assert "8 items: 0 already answered, 1 answered now" in result.output and "7 failed" in result.output
    assert "injected 500" in result.output and "… and 2 more" in result.output


def test_unreachable_endpoint_stops_early_and_rerun_sends_the_untried(data, tmp_path) -> None:
    root, answers = data
    with socket.socket() as probe:  # a port with nobody listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out = tmp_path / "o"
    config = RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": str(root)},
            "model": {
                "name": f"openai-compatible:http://127.0.0.1:{port}/v1#m",
                "concurrency": 1,
                "retry_base_delay_s": 0.01,
            },
            "out": str(out),
            "media": {"frames": "uniform:2"},
        }
    )
    started = time.monotonic()
    summary = run(config, progress=False)
    assert time.monotonic() - started < 10
    assert summary.stopped is not None and "unreachable" in summary.stopped
    assert summary.counts["not_attempted"] == 8 and summary.counts["failed"] == 0
    with sqlite3.connect(out / STORE_NAME) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        again = run(config.updated("model", name=f"openai-compatible:{server.url}#m"), progress=False)
    assert again.counts["ok"] == 8 and len(script.log) == 8


def test_chance_random_run_scores_like_the_baseline_and_counts_not_applicable(data, tmp_path) -> None:
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.scoring.baselines import BASELINES

    root, _ = data
    out = tmp_path / "o"
    result = _invoke(_cli(root, out, "chance-random"))
    assert result.exit_code == 0, result.output
    # 4 counting (numerical) items have no chance level; 4 relative-distance items with 4 options
    assert "8 items: 0 already answered, 4 answered now, 4 not applicable, 0 empty, 0 failed" in result.output
    spec = get_benchmark("vsibench")
    baseline = BASELINES.get("chance-random")(spec.load_items(root), spec.scoring)
    scores = json.loads((out / "scores.json").read_text())
    assert baseline.table.average == pytest.approx(25.0)
    assert json.dumps(scores, sort_keys=True) == json.dumps(
        json.loads(json.dumps(_scores_json(baseline))), sort_keys=True
    )


def _scores_json(result):  # type: ignore[no-untyped-def]
    from spatialbench.scoring import scores_json

    return scores_json(result)


def test_second_run_on_the_same_out_is_refused(data, tmp_path) -> None:
    from spatialbench.runs.lock import RunLockedError, run_lock

    root, _ = data
    out = tmp_path / "o"
    with run_lock(out):
        result = _invoke(_cli(root, out, "chance-random"))
        assert result.exit_code == 2 and "another run is using" in result.output, result.output
        with pytest.raises(RunLockedError):
            with run_lock(out):
                pass
    assert _invoke(_cli(root, out, "chance-random")).exit_code == 0  # released


@pytest.mark.slow
def test_ctrl_c_reports_what_was_stored_and_exits_130(data, tmp_path) -> None:
    root, _ = data
    out = tmp_path / "o"
    with OpenAIServer(ServerScript(hold_after=3)) as server:
        command = [
            sys.executable,
            "-m",
            "spatialbench.cli.main",
            *_cli(root, out, f"openai-compatible:{server.url}#m"),
        ]
        command += ["--concurrency", "1", "--timeout", "60"]
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            # readiness signal: the 4th request reached the server (3 answered, the 4th held). Generous
            # bounds: on a loaded 2-core machine start-up alone took 17 s; they only stop a hung process.
            deadline = time.monotonic() + SUBPROCESS_PATIENCE_S
            while len(server.script.log) < 4:
                assert proc.poll() is None, proc.communicate()[0]
                assert time.monotonic() < deadline, "the run never sent its 4th request"
                time.sleep(0.05)
            os.kill(proc.pid, signal.SIGINT)
            output, _ = proc.communicate(timeout=SUBPROCESS_PATIENCE_S)
        finally:
            if proc.poll() is None:  # a failed wait above: do not leave the run behind
                proc.kill()
                proc.communicate()
    assert proc.returncode == 130, output
    assert "interrupted; 3 answered and stored; re-run the same command to resume" in output
    assert "Traceback" not in output
    assert not (out / "run.lock").exists()  # the lock is removed on the Ctrl-C path too


def test_unknown_mra_mode_is_refused_before_the_back_end_is_built(data, tmp_path) -> None:
    from spatialbench.runs import RunSetupError

    root, _ = data
    config = RunConfig.model_validate(
        {"data": {"benchmark": "vsibench", "path": str(root)}, "model": {"name": "chance-random"},
         "out": str(tmp_path / "o")}
    )
    with pytest.raises(RunSetupError, match="MRA mode 'bogus'"):
        run(config.updated("scoring", mra="bogus"), progress=False)
    assert not (tmp_path / "o").exists()
