import json

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.shared_data import require_file

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


RECORDS = [{"id": k, "dataset": "scannet", "scene_name": "s", "question_type": "object_counting",
            "question": f"How many chair(s) are in room {k}?", "ground_truth": "2"} for k in (1, 2, 3)]


def _annotations(tmp_path, records=RECORDS, name="a.jsonl"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_pruned_ids_that_match_nothing_give_no_debiased_row(tmp_path):
    # newcomer report: hashed ids never match the official pruned ids, yet "debiased" was a copy of "all"
    noid = _annotations(tmp_path, [{k: v for k, v in r.items() if k != "id"} for r in RECORDS])
    pruned = tmp_path / "pruned.txt"
    pruned.write_text("1\n2\n")
    preds = tmp_path / "p.json"
    rows = [{"scene_name": "s", "question": r["question"], "response": "2"} for r in RECORDS]
    preds.write_text(json.dumps(rows))
    out = tmp_path / "out"
    result = runner.invoke(app, ["score", "-a", str(noid), "-p", str(preds), "--pruned-ids", str(pruned),
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "none of the 2 pruned ids" in result.output and "| debiased |" not in result.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["debiased"] is None and scores["pruning"] == {"ids": 2, "matched": 0}
    assert "debiased row is not available" in scores["warnings"][0]
    args = ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--pruned-ids", str(pruned)]
    partial = runner.invoke(app, args)
    assert "pruned ids: 2 of 2 in" in partial.output and "| debiased |" in partial.output


def test_pruned_ids_with_the_debiased_subset_count_the_ids_of_the_whole_benchmark(tmp_path):
    # newcomer report: the subset holds no pruned item by definition, and "none matches" was claimed
    pruned = tmp_path / "pruned.txt"
    pruned.write_text("1\n2\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 3, "response": "2"}\n')
    out = tmp_path / "out"
    result = runner.invoke(app, ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--pruned-ids",
                                 str(pruned), "--subset", "debiased", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "pruned ids: 2 of 2 in " in result.output and "none of the" not in result.output
    assert "(the whole benchmark: 3 items; subset debiased: 1 scored)" in result.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["pruning"] == {"ids": 2, "matched": 2} and scores["warnings"] == []
    assert scores["debiased"] is not None and scores["n_items"] == 1


def test_junk_pruned_ids_file_is_refused(tmp_path):
    pruned = tmp_path / "weird.txt"
    pruned.write_text("abc\n14\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1, "response": "2"}\n')
    result = runner.invoke(app, ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds),
                                 "--pruned-ids", str(pruned)])
    assert result.exit_code == 2 and "line 1: 'abc'" in result.output


@pytest.mark.parametrize("content", ["", '{"id": 77, "response": "2"}\n'])
def test_nothing_scored_is_an_error(tmp_path, content):
    # newcomer report: an empty predictions file, or predictions for another file, exited 0 with zeros
    preds = tmp_path / "p.jsonl"
    preds.write_text(content)
    out = tmp_path / "out"
    args = ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "nothing was scored" in result.output
    assert "| all |" not in result.output
    assert not (out / "scores.json").exists()  # no score files of zeros (issue 10 follow-up)


def test_no_response_field_is_a_usage_error(tmp_path):
    # issue 24: a line without a response field is no run failure (exit 1) but an input error (exit 2)
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1}\n')
    out = tmp_path / "out"
    args = ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.output == (f"error: no usable prediction column in {preds}: expected 'id' and a "
                             "response field (response, prediction, model_answer or *_answer) on each line; "
                             "found: id\n")
    assert not (out / "scores.json").exists()


def test_bad_out_is_one_line_before_scoring(tmp_path):
    taken = tmp_path / "file"
    taken.write_text("x")
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1, "response": "2"}\n')
    for out in (taken, taken / "below", "/proc/x"):
        args = ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--out", str(out)]
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"error: --out {out}: not a writable folder")
        assert "| all |" not in result.output
        assert "Traceback" not in result.output


def test_skipped_rows_and_unmatched_ids_are_in_scores_json(tmp_path):
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1, "response": "2"}\n{"id": 2}\nnot json\n{"id": 99, "response": "1"}\n')
    out = tmp_path / "out"
    args = ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds), "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["skipped_rows"]["count"] == 2
    first = scores["skipped_rows"]["first"]
    assert first[0] == f"{preds}:2: field 'response': missing (each line needs 'id' and 'response')"
    assert scores["skipped_rows"]["first"][1].startswith(f"{preds}:3: not valid JSON")
    assert scores["unmatched_predictions"] == 1 and scores["unmatched_prediction_ids"] == ["99"]
    assert "1 prediction id(s) match no item: 99" in result.output


def test_score_subset_tiny_keeps_only_the_tiny_ids(shared_data, tmp_path):
    from spatialbench.benchmarks.vsibench.tiny import tiny_ids

    subset = require_file(shared_data / "vsibench" / "official_samples" / "subset_300.jsonl")
    records = [json.loads(line) for line in subset.read_text().splitlines()]
    predictions = tmp_path / "p.jsonl"  # every answer right: the ground truth itself
    predictions.write_text("".join(json.dumps({"id": r["id"], "response": str(r["ground_truth"])}) + "\n"
                                   for r in records))
    in_tiny = {str(r["id"]) for r in records} & set(tiny_ids())
    out = tmp_path / "out"
    args = ["score", "-a", str(subset), "-p", str(predictions), "--subset", "tiny", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    scores = json.loads((out / "scores.json").read_text())
    assert scores["n_items"] == len(in_tiny) == 23 and scores["overall"] == 100.0


def test_score_subset_for_a_benchmark_without_subsets_is_refused(tmp_path):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": 1, "response": "A"}\n')
    result = runner.invoke(app, ["score", "-b", "mmsi-video", "-a", str(tmp_path), "-p", str(predictions),
                                 "--subset", "tiny"])
    assert result.exit_code == 2
    assert "has no subsets (--subset); benchmarks with subsets: blink (spatial)" in result.output


def test_a_missing_pruned_id_list_names_options_that_score_has(tmp_path):
    # newcomer report: "-o pruned_ids" is --out for score (run's -o is --option)
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": 1, "response": "2"}\n')
    missing = tmp_path / "none.txt"
    result = runner.invoke(app, ["score", "-a", str(_annotations(tmp_path)), "-p", str(preds),
                                 "--pruned-ids", str(missing)])
    assert result.exit_code == 2
    assert f"pruned-id list (--pruned-ids, or --option pruned_ids=FILE) not found: {missing}" in result.output
