"""score, baseline and breakdown read annotations and answers only: no video, frame or image file is needed.

Also ``breakdown -b vsibench`` (per dataset, per relative-direction sub-type) and ``breakdown --run RUN``.
"""

import json
import shutil
from pathlib import Path

import pytest
from mmsi_remindview_fixtures import build_mmsi, build_remindview, mmsi_responses, remindview_responses
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs.folder import open_run
from support.openai_server import OpenAIServer, ServerScript

VSI_ROWS = [  # no video exists for any of them
    ("arkitscenes", "object_counting", None, "4", "4"),
    ("arkitscenes", "object_rel_direction_easy", ["A. left", "B. right"], "B", "B"),
    ("scannet", "object_rel_direction_medium", ["A. left", "B. right", "C. back"], "A", "B"),
    ("scannet", "object_rel_direction_hard", ["A. front-left", "B. front-right", "C. back-left",
                                              "D. back-right"], "C", "C"),
    ("scannet", "object_counting", None, "2", "2"),
]


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def _vsi(tmp_path: Path) -> tuple[Path, Path]:
    annotations, predictions = tmp_path / "test.jsonl", tmp_path / "p.jsonl"
    records = [{"id": k, "dataset": d, "scene_name": f"s-{d}", "question_type": t, "question": f"q{k}?",
                "options": o, "ground_truth": g} for k, (d, t, o, g, _) in enumerate(VSI_ROWS, 1)]
    annotations.write_text("".join(json.dumps(r) + "\n" for r in records))
    predictions.write_text("".join(json.dumps({"id": str(k), "response": row[4]}) + "\n"
                                   for k, row in enumerate(VSI_ROWS, 1)))
    return annotations, predictions


def test_vsibench_breakdown_per_dataset_and_direction_subtype(tmp_path: Path) -> None:
    annotations, predictions = _vsi(tmp_path)
    code, output = _invoke("breakdown", "-b", "vsibench", "-a", annotations, "-p", predictions)
    assert code == 0, output
    # all: Count 100 (2/2); Rel. Dir. = mean(easy 100, medium 0, hard 100) = 66.7; Avg. = (100 + 66.7) / 2;
    # counting is scored by MRA, direction by accuracy: the row reads "accuracy / MRA" (issue 24)
    tables = {block.split("**")[0]: block for block in output.split("\n\n**")[1:]}
    assert "| accuracy / MRA | 83.3 | 100.0 | - | - | - | - | 66.7 |" in tables["vsibench: all items"]
    assert "| accuracy / MRA | 100.0 | 100.0 | - | - | - | - | 100.0 |" in tables["vsibench: arkitscenes"]
    # scannet: Rel. Dir. = mean(medium 0, hard 100) = 50; Avg. = (100 + 50) / 2
    assert "| accuracy / MRA | 75.0 | 100.0 | - | - | - | - | 50.0 |" in tables["vsibench: scannet"]
    assert (
        "| | object_counting | object_rel_direction_easy | object_rel_direction_medium | "
        "object_rel_direction_hard |\n|---|---:|---:|---:|---:|\n"
        "| accuracy / MRA | 100.0 | 100.0 | 0.0 | 100.0 |"
    ) in output
    code, output = _invoke("breakdown", "-b", "vsibench", "-a", annotations, "-p", predictions,
                           "--sub-bench", "robot")
    assert (code, output.strip()) == (2, "error: --sub-bench does not apply to vsibench (it has no "
                                           "sub-benchmarks)")


def test_vsibench_score_and_baseline_without_videos(tmp_path: Path) -> None:
    annotations, predictions = _vsi(tmp_path)
    code, output = _invoke("score", "-b", "vsibench", "-a", annotations, "-p", predictions)
    assert code == 0 and "83.3" in output, output
    code, output = _invoke("baseline", "-b", "vsibench", "-a", annotations, "--model", "chance-random")
    assert code == 0, output


def test_breakdown_of_a_run_folder_takes_its_benchmark_and_data(tmp_path: Path) -> None:
    annotations, _ = _vsi(tmp_path)
    out = tmp_path / "run"
    answers = {f"q{k}?": row[4] for k, row in enumerate(VSI_ROWS, 1)}
    script = ServerScript(answer=lambda text: next(a for q, a in answers.items() if q in text))
    with OpenAIServer(script) as server:
        code, output = _invoke("run", "--benchmark", "vsibench", "--data", annotations, "--model",
                               f"openai-compatible:{server.url}#m", "--out", out, "--no-progress", "--blind")
    assert code == 0 and len(script.log) == 5, output
    code, output = _invoke("breakdown", "--run", out)  # benchmark and annotations from config.json
    assert code == 0 and "items: 5" in output, output
    assert open_run(out).responses() == {str(k): row[4] for k, row in enumerate(VSI_ROWS, 1)}
    scannet = output.split("**vsibench: scannet**")[1]
    assert "| accuracy / MRA | 75.0 | 100.0 | - | - | - | - | 50.0 |" in scannet
    (out / "run.sqlite").write_bytes(b"garbage" * 100)
    code, output = _invoke("breakdown", "--run", out)
    assert code == 2 and output.strip().startswith(f"error: {out / 'run.sqlite'}: not a readable run store")


def _remove(folder: Path, *patterns: str) -> None:
    for pattern in patterns:
        for path in list(folder.rglob(pattern)):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


@pytest.mark.parametrize("benchmark", ["mmsi-video", "remindview"])
def test_mmsi_and_remindview_score_baseline_breakdown_without_media(tmp_path: Path, benchmark: str) -> None:
    if benchmark == "mmsi-video":
        data, responses = build_mmsi(tmp_path / "d"), mmsi_responses()
        _remove(data, "frames", "ref_images")
    else:
        data, responses = build_remindview(tmp_path / "d"), remindview_responses()
        _remove(data, "*.png", "*.jpg")
    assert not [p for p in data.rglob("*") if p.suffix in (".png", ".jpg", ".mp4")]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": k, "response": v}) + "\n" for k, v in responses.items()))
    for args in (["score", "-b", benchmark, "-a", data, "-p", predictions],
                 ["baseline", "-b", benchmark, "-a", data, "--model", "chance-random"],
                 ["breakdown", "-b", benchmark, "-a", data, "-p", predictions]):
        code, output = _invoke(*args)
        assert code == 0 and "skipped" not in output, (args, output)
