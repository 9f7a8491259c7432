"""``spatialbench sweep``: one run per value against the loopback server, then the comparison."""

import json

import pytest
from typer.testing import CliRunner

from spatialbench.analysis.sweep import SweepError, folder_name, parse_sweep, run_arguments
from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench


def test_frames_sweep_runs_each_value_and_compares_against_the_first(tmp_path):
    answers = make_vsibench(tmp_path / "data", n_videos=2, per_video=4)
    script = ServerScript()
    right = answer_script(answers)
    # the model answers right when it sees 4 frames, "A" to everything with fewer (one request at a time)
    script.answer = lambda text: right(text) if script.log[-1].n_images >= 4 else "A"
    with OpenAIServer(script) as server:
        args = [
            "sweep",
            "frames=uniform:2,uniform:4",
            "--benchmark",
            "vsibench",
            "--data",
            str(tmp_path / "data"),
            "--model",
            f"openai-compatible:{server.url}#m",
            "--out",
            str(tmp_path / "sweep"),
            "--no-progress",
            "--concurrency",
            "1",
        ]
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(r.n_images for r in script.answered()) == [2] * 8 + [4] * 8
    doc = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    assert (doc["schema"], doc["setting"], doc["values"]) == (
        "spatialbench.sweep",
        "frames",
        ["uniform:2", "uniform:4"],
    )
    assert [r["exit_code"] for r in doc["runs"]] == [0, 0]
    (diff,) = doc["comparison"]["differences"]
    assert diff["label"] == "frames-uniform_4 − frames-uniform_2" and diff["compared"] == ["media.frames"]
    assert not diff["flagged"]
    # by hand: with 2 frames, "A" is right for the relative-distance items whose answer is A; a count "A"
    # is no answer (0); with 4 frames every answer is right
    share_a = 100 * sum(answers[f"q{k}"] == "A" for k in (1, 3, 5, 7)) / 4
    assert diff["scores"]["object_rel_distance"] == pytest.approx(100 - share_a)
    assert diff["scores"]["object_counting"] == pytest.approx(100.0)
    assert (tmp_path / "sweep" / "compare.tex").is_file()


def test_parse_sweep_rules():
    assert parse_sweep("video-repeats=1,2") == ("video_repeats", ("1", "2"))
    for bad, message in [
        ("frames", "expected SETTING=V1,V2"),
        ("colour=red", "SETTING one of frames"),
        ("frames=", "no value"),
        ("frames=a,a", "given twice"),
        ("blind=yes", "true,false"),
    ]:
        with pytest.raises(SweepError, match=message):
            parse_sweep(bad)


def test_run_arguments_replace_the_swept_option_and_out():
    args = ["--data", "D", "--frames", "uniform:8", "--out=X", "--blind"]
    assert run_arguments(args, "frames", "uniform:16", "X/f") == [
        "run",
        "--data",
        "D",
        "--blind",
        "--frames",
        "uniform:16",
        "--out",
        "X/f",
    ]
    assert run_arguments(args, "blind", "false", "X/b") == [
        "run",
        "--data",
        "D",
        "--frames",
        "uniform:8",
        "--no-blind",
        "--out",
        "X/b",
    ]
    assert folder_name("frames", "consecutive:8@2.5s") == "frames-consecutive_8_2.5s"


def test_sweep_without_out_is_one_line_exit_2():
    result = CliRunner().invoke(app, ["sweep", "frames=uniform:2", "--benchmark", "vsibench"])
    assert result.exit_code == 2 and "sweep needs --out DIR" in result.output


def _sweep(tmp_path, spec, *extra):
    return ["sweep", spec, "--benchmark", "vsibench", "--data", str(tmp_path / "data"), "--out",
            str(tmp_path / "sweep"), "--no-progress", "--concurrency", "1", *extra]


def test_a_bad_later_value_stops_the_sweep_before_the_first_run(tmp_path):
    """Issue 26: each value was checked when its run started, so uniform:2 was sent and paid for first."""
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    script = ServerScript()
    with OpenAIServer(script) as server:
        result = CliRunner().invoke(app, _sweep(tmp_path, "strategy=direct,banana", "--model",
                                                f"openai-compatible:{server.url}#m"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: sweep strategy=banana: unknown prompting strategy 'banana'; Known: answer-and-reason, "
        "cognitive-map, direct, map-then-answer, mmsi-three-step, self-consistency, self-explanation, "
        "tree-of-thought, with-3d-cues, zero-shot-cot; no run started"]
    assert script.log == [] and not (tmp_path / "sweep").exists()


def test_a_bad_frame_value_is_named_by_its_option_before_any_run(tmp_path):
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    args = _sweep(tmp_path, "frames=uniform:2,uniform:zero", "--model", "chance-random")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()  # the run's own line, naming the option and the value
    assert line.startswith("Error: Invalid value for --frames: bad frame strategy 'uniform:zero'; expected ")
    assert not (tmp_path / "sweep").exists()


def test_an_endpoint_pool_is_one_model_value():
    """The commas of a pool's URLs separated sweep values: the second URL became a model of its own."""
    pool = "openai-compatible:http://127.0.0.1:8000/v1,https://gpu2:8000/v1#Qwen2.5-VL-7B"
    assert parse_sweep(f"model={pool},chance-random") == ("model", (pool, "chance-random"))
    assert parse_sweep("frames=uniform:8,uniform:16") == ("frames", ("uniform:8", "uniform:16"))


def test_a_pool_value_runs_against_both_endpoints(tmp_path):
    answers = make_vsibench(tmp_path / "data", n_videos=1, per_video=4)
    first, second = ServerScript(), ServerScript()
    first.answer = second.answer = answer_script(answers)
    with OpenAIServer(first) as one, OpenAIServer(second) as two:
        pool = f"openai-compatible:{one.url},{two.url}#m"
        args = _sweep(tmp_path, f"model=chance-frequency,{pool}", "--concurrency", "2")
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    assert doc["values"] == ["chance-frequency", pool]
    assert len(first.answered()) + len(second.answered()) == 4


def test_a_blind_value_leaves_the_frames_out():
    """A blind run refuses ``--frames``: ``blind=true,false --frames uniform:8`` drops it for true."""
    args = ["--data", "D", "--frames", "uniform:8"]
    assert run_arguments(args, "blind", "true", "X/b") == ["run", "--data", "D", "--blind", "--out", "X/b"]
    assert run_arguments(args, "blind", "false", "X/b") == [
        "run", "--data", "D", "--frames", "uniform:8", "--no-blind", "--out", "X/b"]


def test_a_value_the_run_options_cannot_parse_is_one_sweep_line(tmp_path):
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    result = CliRunner().invoke(app, _sweep(tmp_path, "video_repeats=1,x", "--model", "chance-random"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: sweep video_repeats=x: Invalid value for '--video-repeats': Input should be a valid integer, "
        "unable to parse string as an integer; no run started"]
    assert not (tmp_path / "sweep").exists()
