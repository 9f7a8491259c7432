"""``--frames aks:N`` end to end: refused without a scorer before any work; a loopback run with a tiny CLIP.

MMSI-Video Table 5 compares Uniform-50 with AKS-50; the run samples each question's frames with AKS
(its question text as the query) and scores each video's candidate frames once.
"""

from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.runs import RunConfig
from spatialbench.runs.store.reader import StoreReader
from support.openai_server import OpenAIServer, ServerScript
from support.tiny_scorers import save_tiny_clip
from support.vsi_data import answer_script, make_vsibench


def test_aks_without_a_scorer_model_is_one_line_and_exit_2_before_any_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    flags = "run --benchmark vsibench --model chance-random --frames aks:8".split()
    result = CliRunner().invoke(app, [*flags, "--data", str(tmp_path), "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "Error: Invalid value for --aks-model: none given; --frames aks:8 needs an image-text scorer "
        "(a CLIP or BLIP-ITM checkpoint folder or Hugging Face name, e.g. openai/clip-vit-base-patch32)"
    )
    assert not out.exists()


def test_a_run_file_without_a_scorer_is_refused_too() -> None:
    with pytest.raises(ValidationError, match="needs an image-text scorer"):
        RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": "."},
                "model": {"name": "chance-random"},
                "media": {"frames": "aks:50"},
                "out": "run",
            }
        )


def _config(data: Path, url: str, out: Path, clip: Path) -> RunConfig:
    return RunConfig.model_validate(
        {
            "data": {"benchmark": "vsibench", "path": str(data)},
            "model": {"name": f"openai-compatible:{url}#m"},
            "media": {"frames": "aks:3", "aks_model": str(clip)},
            "out": str(out),
        }
    )


def test_a_loopback_run_sends_each_question_its_aks_frames_scoring_each_video_once(tmp_path: Path) -> None:
    data, out = tmp_path / "data", tmp_path / "run"
    answers = make_vsibench(data, n_videos=2, per_video=4, n_frames=300)  # 10 s at 30 fps each
    clip = save_tiny_clip(tmp_path / "tiny-clip")
    script = ServerScript(answer=answer_script(answers))
    with OpenAIServer(script) as server:
        summary = run(_config(data, server.url, out, clip), progress=False)
        assert summary.counts["ok"] == 8 and summary.score.table.average == 100.0
        assert [r.n_images for r in script.answered()] == [3] * 8
        again = run(_config(data, server.url, out, clip), progress=False)
        assert again.already_done == 8 and len(script.log) == 8  # resumed: nothing re-sent
        other = save_tiny_clip(tmp_path / "other-clip", seed=1)  # another scorer picks other frames
        rescored = run(_config(data, server.url, out, other), progress=False)
        assert rescored.counts["ok"] == 8 and len(script.log) == 16
    for row in StoreReader(out / "run.sqlite").rows():
        (media,) = row.prompt["media"]
        frames = media["frames"]  # 3 of the candidates 0, 30, ..., 270 (one per second), in order
        assert len(set(frames)) == 3 and frames == sorted(frames) and all(f % 30 == 0 for f in frames)
    # features are keyed by content: the two videos hold the same frames, so 8 questions share one file
    # per scorer
    assert len(list((out / "aks_features").rglob("*.npz"))) == 2


def test_a_scorer_named_for_a_uniform_run_changes_none_of_its_request_keys(tmp_path: Path) -> None:
    # a sweep over frames=uniform:3,aks:3 names the scorer in the config of both runs
    data, out = tmp_path / "data", tmp_path / "run"
    answers = make_vsibench(data, n_videos=1, per_video=2)
    script = ServerScript(answer=answer_script(answers))
    (tmp_path / "unused").mkdir()
    (tmp_path / "unused" / "config.json").write_text("{}")  # a model folder, never loaded
    with OpenAIServer(script) as server:
        uniform = _config(data, server.url, out, tmp_path / "unused")
        uniform = uniform.updated("media", frames="uniform:3")
        run(uniform.updated("media", aks_model=None), progress=False)
        again = run(uniform, progress=False)
    assert again.already_done == 2 and len(script.log) == 2


def test_a_local_scorer_folder_is_recorded_absolute_and_a_hub_name_as_given(tmp_path, monkeypatch) -> None:
    (tmp_path / "clip").mkdir()
    (tmp_path / "clip" / "config.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    base = {"data": {"benchmark": "vsibench", "path": "."}, "model": {"name": "chance-random"}, "out": "run"}
    local = RunConfig.model_validate({**base, "media": {"frames": "aks:8", "aks_model": "clip"}})
    hub = RunConfig.model_validate(
        {**base, "media": {"frames": "aks:8", "aks_model": "openai/clip-vit-base-patch32"}}
    )
    assert (local.media.aks_model, hub.media.aks_model) == (
        str(tmp_path / "clip"),
        "openai/clip-vit-base-patch32",
    )


def _refused(tmp_path: Path, scorer: str) -> tuple[int, str]:
    out = tmp_path / "runs" / "new"
    model = "openai-compatible:http://127.0.0.1:9/v1#m"
    flags = ["run", "--benchmark", "vsibench", "--model", model, "--frames", "aks:4"]
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    result = CliRunner().invoke(app, [*flags, "--data", str(data), "--out", str(out), "--aks-model", scorer])
    assert not (tmp_path / "runs").exists()  # refused before the folder is made
    return result.exit_code, result.output.strip()


def test_a_missing_local_scorer_path_is_refused_before_the_run(tmp_path: Path) -> None:
    # the newcomer check of issue 21: /nonexist "answered" 89 items, then failed with a repo-id error
    code, output = _refused(tmp_path, "/nonexist")
    assert code == 2
    assert output == "Error: Invalid value for --aks-model: no model folder at /nonexist"


def test_a_scorer_path_to_a_file_is_refused_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "clip.json").write_text("{}")
    code, output = _refused(tmp_path, str(tmp_path / "clip.json"))
    assert code == 2
    assert output == (
        f"Error: Invalid value for --aks-model: {tmp_path / 'clip.json'} is a file, not a model folder "
        "(a checkpoint folder holding config.json)"
    )


def test_a_scorer_that_cannot_load_stops_the_run_with_one_line_before_any_folder(tmp_path: Path) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text('{"model_type": "no-such-model"}')
    code, output = _refused(tmp_path, str(tmp_path / "broken"))
    assert code == 2 and len(output.splitlines()) == 1, output
    assert output.startswith(f"error: --aks-model: cannot load the AKS scorer model {tmp_path / 'broken'} (")
