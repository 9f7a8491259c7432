"""``spatialbench export --format inspect``: a run as an Inspect AI eval log that Inspect's own reader loads.

The zero-shot-CoT and map-then-answer runs of ``support.transcript_runs`` (the scripted reasoning model
over loopback HTTP answers D and 1: both items right, Avg 100.0), exported with and without the frames.
The log is read back with ``inspect_ai.log.read_eval_log`` (a dev dependency; missing it fails under CI).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.shared_data import missing
from support.transcript_runs import strategy_runs


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("inspect-export")
    paths = strategy_runs(root)
    runner = CliRunner()
    out: dict[str, Path] = {"root": root, "logs": root / "logs"}
    for name, flags in (("cot", ["--images"]), ("map", [])):
        done = runner.invoke(
            app,
            ["export", str(paths[name]), "--format", "inspect", "--out", str(root / "logs" / name), *flags],
        )
        assert done.exit_code == 0, done.output
        out[name] = next((root / "logs" / name).glob("*.json"))
    return out


def _read(path: Path) -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        missing("inspect_ai is not installed (pip install -e '.[dev]')")
    return read_eval_log(str(path))


def test_inspect_reads_the_cot_run_with_both_turns_and_the_frames(exported) -> None:
    log = _read(exported["cot"])
    assert (log.status, log.eval.task, log.eval.solver) == ("success", "vsibench", "zero-shot-cot")
    assert log.eval.dataset.samples == 2 and [s.id for s in log.samples] == ["0", "1"]
    assert log.eval.packages["spatialbench"] == "0.1.0"  # as the run recorded it
    assert log.eval.metadata["settings"].endswith(
        "#cot-vlm · frames uniform:4 · strategy zero-shot-cot · extraction robust (benchmark default)"
    )
    sample = log.samples[0]
    assert [m.role for m in sample.messages] == ["user", "assistant", "user", "assistant"]
    first = sample.messages[0].content
    assert [c.type for c in first] == ["image"] * 4 + ["text"]  # the 4 frames sent (uniform:4)
    assert all(c.image.startswith("data:image/jpeg;base64,") for c in first[:4])
    assert first[4].text.endswith("Let's think step by step.")
    assert sample.messages[1].text.endswith("Therefore, the answer is D.")
    assert sample.messages[2].text.startswith("Based on your reasoning above")
    assert sample.messages[3].text == "D" and sample.output.completion == "D"
    assert (sample.target, sample.scores["spatialbench"].value, sample.scores["spatialbench"].answer) == (
        "D",
        1.0,
        "D",
    )
    assert sample.model_usage[log.eval.model].input_tokens == 383 + 427  # the two turns' prompts
    metrics = log.results.scores[0].metrics
    assert {k: m.value for k, m in metrics.items()} == {
        "Avg": 100.0,
        "object_counting": 100.0,
        "object_rel_distance": 100.0,
    }


def test_inspect_reads_the_map_run_with_its_map_and_lists_the_logs(exported) -> None:
    log = _read(exported["map"])  # first: a missing inspect_ai fails under CI, skips otherwise
    from inspect_ai.log import list_eval_logs

    sample = log.samples[0]
    assert log.eval.solver == "map-then-answer"
    assert [m.metadata["turn"] for m in sample.messages] == ["map", "map", "answer", "answer"]
    assert sample.messages[0].text.startswith("[0.00 s]\n[0.07 s]\n[0.13 s]\n[0.23 s]\n[Task]")
    cogmap = sample.metadata["cognitive_map"]
    assert cogmap["predicted"] == {"chair": [[3.0, 4.0], [5.0, 6.0]], "table": [[4.0, 4.0]]}
    assert cogmap["ground_truth"]["sofa"] == [[0.0, 0.0]] and cogmap["grid"] == 10
    assert sample.metadata["frames"][0] == {
        "source": "arkitscenes/room0.mp4",
        "frame": 0,
        "time_s": 0.0,
        "label": "0.00 s",
    }
    listed = list_eval_logs(str(exported["logs"]), recursive=True)
    assert sorted(Path(i.name).name for i in listed) == sorted(
        p.name for p in (exported["cot"], exported["map"])
    )


def test_the_log_names_no_local_path(exported) -> None:
    root = str(exported["root"])
    for name in ("cot", "map"):
        text = exported[name].read_text(encoding="utf-8")
        assert root not in text and json.loads(text)["eval"]["dataset"]["location"] == "data"


def test_an_out_file_that_is_not_json_is_refused(exported, tmp_path) -> None:
    run = exported["root"] / "runs" / "cot"
    done = CliRunner().invoke(app, ["export", str(run), "--out", str(tmp_path / "log.eval")])
    assert done.exit_code == 2
    assert "log.eval: an Inspect log written here is a .json file" in done.output
    assert not (tmp_path / "log.eval").exists()


def test_frames_of_a_run_given_a_relative_data_path_keep_their_folder(tmp_path, monkeypatch) -> None:
    # the run stored bench/data/arkitscenes/room0.mp4 (its --data as given): the frames' source is the
    # path inside the benchmark folder, as serve's /media URLs are (was: the bare name room0.mp4)
    from spatialbench.api import run
    from spatialbench.runs import RunConfig
    from support.openai_server import OpenAIServer, ServerScript
    from support.transcript_runs import room_data

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    room_data(Path("bench") / "data")
    with OpenAIServer(ServerScript(answer=lambda text: "D")) as server:
        run(RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": "bench/data"},
            "model": {"name": f"openai-compatible:{server.url}#vlm"}, "media": {"frames": "uniform:4"},
            "out": "runs/relative"}), progress=False)
    done = CliRunner().invoke(app, ["export", "runs/relative", "--format", "inspect", "--out", "logs"])
    assert done.exit_code == 0, done.output
    log = _read(next((tmp_path / "logs").glob("*.json")))  # Inspect's own reader loads it
    assert [[f["source"] for f in s.metadata["frames"]] for s in log.samples] == [
        ["arkitscenes/room0.mp4"] * 4, ["arkitscenes/room0.mp4"] * 4]  # 2 items, uniform:4 frames each
    assert [f["frame"] for f in log.samples[0].metadata["frames"]] == [0, 2, 4, 7]
