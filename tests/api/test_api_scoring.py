"""``spatialbench.api.scoring.score``: ``score`` without the printing; errors are SpatialBenchErrors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spatialbench.api.scoring import NothingScoredError, ScoreInputError, score
from spatialbench.runs.checks import RunFolderError

ROWS = [("object_counting", None, "4"), ("object_rel_distance", ["A. x", "B. y"], "B")]


def _annotations(path: Path) -> Path:
    records = [{"id": k, "dataset": "scannet", "scene_name": "s", "question_type": t, "question": f"q{k}?",
                "options": o, "ground_truth": g} for k, (t, o, g) in enumerate(ROWS, 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_score_a_file_returns_the_result_and_its_notes(tmp_path: Path) -> None:
    annotations = _annotations(tmp_path / "test.jsonl")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": "1", "response": "4"}\n{"id": "2", "response": "A"}\n'
                           '{"id": "99", "response": "B"}\n')
    lines: list[str] = []
    outcome = score(annotations=annotations, predictions=predictions, notify=lines.append)
    assert outcome.spec.name == "vsibench" and [i.id for i in outcome.items] == ["1", "2"]
    assert outcome.result.table.scores["object_counting"] == 100.0
    assert outcome.result.table.scores["object_rel_distance"] == 0.0
    assert lines == outcome.notes == ["1 prediction id(s) match no item: 99"]


def test_score_errors_are_one_line_spatialbench_errors(tmp_path: Path) -> None:
    annotations = _annotations(tmp_path / "test.jsonl")
    with pytest.raises(ScoreInputError, match="give exactly one of --predictions and --run"):
        score(annotations=annotations)
    with pytest.raises(RunFolderError, match="not a run folder"):
        score(run=tmp_path / "nowhere")
    other = tmp_path / "other.jsonl"
    other.write_text('{"id": "x", "response": "4"}\n')
    with pytest.raises(NothingScoredError, match="none of the 1 predictions") as caught:
        score(annotations=annotations, predictions=other)
    assert caught.value.exit_code == 1 and caught.value.outcome.result.rows["score"].sum() == 0


def test_the_top_level_score_takes_a_predictions_file_or_a_run(tmp_path: Path) -> None:
    import spatialbench

    annotations = _annotations(tmp_path / "test.jsonl")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": "1", "response": "4"}\n{"id": "2", "response": "B"}\n')
    result = spatialbench.score(predictions=predictions, annotations=annotations)
    # counting 4 vs 4: MRA 1; rel. distance B = B: 1; Avg. of the two tasks
    assert (result.table.average, len(result.rows)) == (100.0, 2)
    with pytest.raises(ScoreInputError, match="exactly one of a run folder and predictions="):
        spatialbench.score(tmp_path, predictions=predictions)
    with pytest.raises(ScoreInputError, match="its own benchmark and data"):
        spatialbench.score(tmp_path, annotations=annotations)
