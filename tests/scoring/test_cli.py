import json

from typer.testing import CliRunner

from support.shared_data import require_file
from spatialbench.cli.main import app

runner = CliRunner()


def test_score_command_on_gemini_export(shared_data, tmp_path):
    root = require_file(shared_data / "vsibench" / "official_samples" / "gemini3flash_5scenes")
    result = runner.invoke(app, ["score", "--benchmark", "vsibench", "--annotations", str(root / "questions"),
                                 "--predictions", str(root / "responses"), "--extract", "official",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "extraction: official · MRA: official (<=)" in result.output
    scores = json.loads((tmp_path / "scores.json").read_text())
    assert round(scores["overall"], 4) == 41.9793 and scores["modes"]["extract"] == "official"


def test_baseline_command(shared_data):
    subset = require_file(shared_data / "vsibench" / "official_samples" / "subset_300.jsonl")
    result = runner.invoke(app, ["baseline", "--annotations", str(subset), "--model", "chance-random"])
    assert result.exit_code == 0, result.output
    assert "| all | 28.5 | - | - | - | - | 25.0 | 36.1 | 27.8 | 25.0 |" in result.output


def test_unknown_mode_is_a_clear_error(tmp_path):
    annotations = tmp_path / "a.jsonl"
    annotations.write_text(json.dumps({"id": 1, "dataset": "d", "scene_name": "s", "question_type":
                                       "object_counting", "question": "q", "ground_truth": "2"}) + "\n")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": 1, "response": "2"}\n')
    args = ["score", "-a", str(annotations), "-p", str(predictions), "--extract", "robsut"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "robust" in result.output


def test_score_jsonl_predictions_with_paper_mra(tmp_path):
    annotations = tmp_path / "a.jsonl"
    annotations.write_text(json.dumps({"id": 7, "dataset": "d", "scene_name": "s", "question_type":
                                       "object_abs_distance", "question": "How far (in meters)?",
                                       "ground_truth": "2"}) + "\n")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": 7, "response": "3"}\n')
    for mra, expected in (("official", 10.0), ("paper", 0.0)):  # relative error exactly 0.5
        out = tmp_path / mra
        result = runner.invoke(app, ["score", "-a", str(annotations), "-p", str(predictions), "--mra", mra,
                                     "--out", str(out)])
        assert result.exit_code == 0, result.output
        scores = json.loads((out / "scores.json").read_text())
        assert scores["modes"]["mra"] == mra and scores["object_abs_distance"] == expected
        assert "Avg. is over 1 of 8 tasks" in result.output
