"""Issue 26: predictions scored against another benchmark file's annotations, ids overlapping.

The real files (../shared/data): the lmms-eval logs answer ``spatialbench demo --seed 3`` (66 items), the
VLMEvalKit table ``--seed 5`` (61 items); both number their items 0, 1, 2, ... Crossed, they scored 31.2
and 25.1 without a word. Both carry each item's question, which now must be the annotations'.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.shared_data import require_file


def _score(annotations: Path, predictions: Path) -> list[str]:
    return ["score", "-b", "vsibench", "-a", str(annotations), "-p", str(predictions)]


def test_an_lmms_eval_log_against_the_wrong_annotations_is_refused(shared_data: Path) -> None:
    log = require_file(shared_data / "lmms_eval" / "lmms_eval_0.7.3_samples_vsibench.jsonl")
    wrong = require_file(shared_data / "vlmevalkit" / "demo_seed5_annotations.jsonl")
    result = CliRunner().invoke(app, _score(wrong, log))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"error: {log}:1: item 0: the predictions ask 'How many window(s) are in this room?', the "
        "annotations 'How many pillow(s) are in this room?' (55 of 61 logged questions differ); scored "
        "against another benchmark file? refused")
    assert "| all |" not in result.output


def test_a_vlmevalkit_table_against_the_wrong_annotations_is_refused(shared_data: Path) -> None:
    table = require_file(shared_data / "vlmevalkit" / "noisy_loopback_VSI-Bench_32frame.xlsx")
    wrong = require_file(shared_data / "lmms_eval" / "demo_seed3_annotations.jsonl")
    result = CliRunner().invoke(app, _score(wrong, table))
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: {table}:2: item 0: the predictions ask 'How many pillow(s) are in this room?', the "
        "annotations 'How many window(s) are in this room?' (55 of 61 logged questions differ); scored "
        "against another benchmark file? refused"])


@pytest.mark.parametrize(("folder", "predictions", "overall"), [
    ("lmms_eval", "lmms_eval_0.7.3_samples_vsibench.jsonl", "| all | 88.3 |"),
    ("vlmevalkit", "noisy_loopback_VSI-Bench_32frame.xlsx", "| all | 87.9 |"),
])
def test_the_right_annotations_still_score(
    shared_data: Path, folder: str, predictions: str, overall: str
) -> None:
    seed = "demo_seed3_annotations.jsonl" if folder == "lmms_eval" else "demo_seed5_annotations.jsonl"
    annotations = require_file(shared_data / folder / seed)
    result = CliRunner().invoke(app, _score(annotations, require_file(shared_data / folder / predictions)))
    assert result.exit_code == 0, result.output
    assert overall in result.output


def test_long_questions_are_shortened_and_whitespace_is_not_a_difference(tmp_path: Path) -> None:
    annotations = tmp_path / "a.jsonl"
    rows = [{"id": 1, "dataset": "d", "scene_name": "s", "question_type": "object_counting",
             "question": "How many  chair(s)\nare there?", "ground_truth": "2"},
            {"id": 2, "dataset": "d", "scene_name": "s", "question_type": "object_counting",
             "question": "How many tables are there?", "ground_truth": "3"}]
    annotations.write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = tmp_path / "predictions.csv"
    long = "Measuring from the closest point of each object, which of these objects is closest to the sofa?"
    table.write_text(f'index,question,prediction\n1,How many chair(s) are there?,2\n2,"{long}",3\n')
    result = CliRunner().invoke(app, _score(annotations, table))
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"error: {table}:3: item 2: the predictions ask 'Measuring from the closest point of each object, "
        "which of...', the annotations 'How many tables are there?' (1 of 2 logged questions differ); scored "
        "against another benchmark file? refused"])
