"""``spatialbench breakdown`` on the fixtures: tables, sub-benchmarks, files written, clear errors."""

import json

from mmsi_remindview_fixtures import build_mmsi, build_remindview, mmsi_responses, remindview_responses
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript


def _predictions(path, responses):
    path.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in responses.items()))
    return path


def test_mmsi_sub_bench_table_and_files(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    out = tmp_path / "out"
    args = ["breakdown", "-a", str(data), "-p", str(preds), "--sub-bench", "grounding", "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "| accuracy | 80.0 | 100.0 | 50.0 |" in result.output  # Avg. 4/5, TG 3/3, TL 1/2
    cells = json.loads((out / "breakdown.json").read_text())[0]["cells"]
    assert [(c["group"], c["n"]) for c in cells] == [("Avg.", 5), ("TG.", 3), ("TL.", 2)]


def test_mmsi_official_extraction_tables(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    args = ["breakdown", "-a", str(data / "mmsivideo.json"), "-p", str(preds), "--extract", "official"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "| accuracy | 42.9 | 33.3 | 66.7 | 33.3 | 50.0 |" in result.output  # Table 3, official mode
    assert "| random guess | 22.7 |" in result.output.split("main categories")[1]


def test_unknown_sub_bench_is_a_clear_error(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    result = CliRunner().invoke(
        app, ["breakdown", "-a", str(data), "-p", str(preds), "--sub-bench", "outdoor"]
    )
    assert result.exit_code == 2
    assert "unknown MMSI-Video-Bench sub-benchmark 'outdoor'; known: indoor, robot" in result.output


def test_remindview_table1(tmp_path):
    data = build_remindview(tmp_path / "rmv")
    preds = _predictions(tmp_path / "p.jsonl", remindview_responses())
    result = CliRunner().invoke(app, ["breakdown", "-b", "remindview", "-a", str(data), "-p", str(preds)])
    assert result.exit_code == 0, result.output
    assert "| accuracy | 63.6 | 57.1 | 75.0 |" in result.output  # overall, object-centric, view-centric


def test_score_with_sub_bench(tmp_path):
    data = build_mmsi(tmp_path / "mmsi")
    preds = _predictions(tmp_path / "p.jsonl", mmsi_responses())
    args = ["score", "-b", "mmsi-video", "-a", str(data), "-p", str(preds), "--sub-bench", "robot"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "| all | 71.4 |" in result.output  # the registered table (robust), then the Robot Bench table
    assert "Robot Bench" in result.output and "| accuracy | 50.0 | 50.0 | 50.0 |" in result.output


def test_run_with_setting_sends_the_setting_frames(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = build_mmsi(tmp_path / "mmsi")
    script = ServerScript(answer=lambda text: "\\boxed{A}")
    with OpenAIServer(script) as server:
        args = [
            "run",
            "--benchmark",
            "mmsi-video",
            "--data",
            str(data),
            "--setting",
            "uniform-4",
            "--model",
            f"openai-compatible:{server.url}#t",
            "--out",
            str(tmp_path / "run"),
            "--no-progress",
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "14 answered now" in result.output
    assert sorted(r.n_images for r in script.answered()) == [2] * 8 + [3, 3, 3] + [4, 4] + [6]
    bad = CliRunner().invoke(app, [*args[:5], "--setting", "uniform", *args[7:-2], str(tmp_path / "bad")])
    message = " ".join(bad.output.replace("│", " ").split())  # in case the error is boxed and wrapped
    assert bad.exit_code == 2 and "unknown MMSI-Video-Bench frame setting 'uniform'" in message
    assert not (tmp_path / "bad").exists()  # refused before any work


def test_breakdown_of_a_run_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = build_remindview(tmp_path / "rmv")
    script = ServerScript(answer=lambda text: "(1) a\n(2) b\n(3) c\n(4) A.x")
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "remindview", "--data", str(data), "--frames", "all"]
        args += [
            "--model",
            f"openai-compatible:{server.url}#t",
            "--out",
            str(tmp_path / "run"),
            "--no-progress",
        ]
        assert CliRunner().invoke(app, args).exit_code == 0
    result = CliRunner().invoke(
        app, ["breakdown", "-b", "remindview", "-a", str(data), "--run", str(tmp_path / "run")]
    )
    assert result.exit_code == 0, result.output
    # every answer is A: right for oc:2, oc:5, oc:6 (object-centric 3/7) and vc:1, vc:2, vc:3 (3/4)
    assert "| accuracy | 54.5 | 42.9 | 75.0 |" in result.output
    neither = CliRunner().invoke(app, ["breakdown", "-b", "remindview", "-a", str(data)])
    assert neither.exit_code == 2 and "exactly one of --predictions and --run" in neither.output


def test_errors_sample_refuses_the_vsi_taxonomy_on_an_mmsi_run(tmp_path):
    # issue 21 newcomer check: VSI categories were crossed with MMSI subtype columns
    data = build_mmsi(tmp_path / "mmsi")
    run = tmp_path / "run"
    args = ["run", "--benchmark", "mmsi-video", "--data", str(data), "--model", "chance-random"]
    assert CliRunner().invoke(app, [*args, "--out", str(run), "--no-progress"]).exit_code == 0
    result = CliRunner().invoke(app, ["errors", "sample", str(run), "--taxonomy", "vsi-bench"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: error taxonomy 'vsi-bench' does not apply to {run}, a mmsi-video run; "
        "the taxonomy that applies: mmsi-video"
    )
    assert not (run / "analysis" / "errors.json").exists()
