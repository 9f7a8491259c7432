"""An lmms-eval output folder holds one log per task run; ``score`` reads the one of these items (issue 26).

Ids are each task's own (0, 1, 2, ...): another task's log beside the vsibench one was read too, sorted
by name first, and its answers scored as VSI-Bench (40.4 instead of lmms-eval's own 61.90 on the real
0.6.1 log). The log is chosen by its logged question text, named; two that fit are refused.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.shared_data import require_file


def _ai2d_log(path: Path, with_questions: bool = True) -> Path:
    """Another task's log with colliding ids 0..29 (its item under ``doc``, as many tasks log it)."""
    lines = []
    for i in range(30):
        doc = (
            {"id": i, "question": f"Which label marks the stamen in diagram {i}?"} if with_questions else None
        )
        lines.append(
            {
                "doc_id": i,
                **({"doc": doc} if doc else {}),
                "target": "A",
                "filtered_resps": ["A"],
                "ai2d_score": {"id": i, "score": 1.0},
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.fixture
def folder(shared_data: Path, tmp_path: Path) -> Path:
    """OUT/model/ with the real 0.6.1 vsibench log and an ai2d log that sorts before it."""
    model = tmp_path / "out" / "model"
    model.mkdir(parents=True)
    log = require_file(shared_data / "lmms_eval" / "lmms_eval_0.6.1_samples_vsibench.jsonl")
    shutil.copy(log, model / "20250101_120000_samples_vsibench.jsonl")
    _ai2d_log(model / "20250101_110000_samples_ai2d.jsonl")
    return tmp_path / "out"


def _score(shared_data: Path, predictions: Path, out: Path | None = None) -> tuple[int, str, str]:
    annotations = require_file(shared_data / "lmms_eval" / "demo_seed3_annotations.jsonl")
    args = ["score", "-a", str(annotations), "-p", str(predictions), "--extract", "official"]
    result = CliRunner().invoke(app, args + (["-o", str(out)] if out else []))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_the_vsibench_log_is_chosen_and_named(shared_data: Path, folder: Path, tmp_path: Path) -> None:
    code, stdout, _ = _score(shared_data, folder, tmp_path / "scores")
    assert code == 0
    scores = json.loads((tmp_path / "scores" / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(61.90029761904762, abs=1e-9)  # lmms-eval's own 0.6190
    model = folder / "model"
    assert (
        f"read the lmms-eval log {model / '20250101_120000_samples_vsibench.jsonl'} (task vsibench); "
        f"left out {model / '20250101_110000_samples_ai2d.jsonl'} (task ai2d: 0 of 30 logged questions "
        "are the annotations')"
    ) in stdout


def test_a_log_without_question_text_gives_way_to_the_one_that_matches(
    shared_data: Path, folder: Path, tmp_path: Path
) -> None:
    _ai2d_log(folder / "model" / "20250101_110000_samples_ai2d.jsonl", with_questions=False)
    code, _, _ = _score(shared_data, folder, tmp_path / "scores")
    assert code == 0
    scores = json.loads((tmp_path / "scores" / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(61.90029761904762, abs=1e-9)


def test_two_vsibench_logs_are_refused_naming_both(shared_data: Path, folder: Path, tmp_path: Path) -> None:
    model = folder / "model"
    shutil.copy(
        model / "20250101_120000_samples_vsibench.jsonl", model / "20250202_090000_samples_vsibench.jsonl"
    )
    code, _, stderr = _score(shared_data, folder, tmp_path / "new" / "scores")
    assert code == 2
    both = "; ".join(
        f"{model / name} (task vsibench: 66 of 66 logged questions are the annotations')"
        for name in ("20250101_120000_samples_vsibench.jsonl", "20250202_090000_samples_vsibench.jsonl")
    )
    assert stderr.splitlines() == [
        f"error: {folder}: 2 lmms-eval logs could hold these annotations' answers: "
        f"{both}; give the log to score itself"
    ]
    assert not (tmp_path / "new").exists()  # no --out folder left behind


def test_a_folder_of_another_task_only_is_refused(shared_data: Path, folder: Path) -> None:
    (folder / "model" / "20250101_120000_samples_vsibench.jsonl").unlink()
    code, _, stderr = _score(shared_data, folder)
    assert code == 2
    ai2d = folder / "model" / "20250101_110000_samples_ai2d.jsonl"
    assert stderr.splitlines() == [
        f"error: {folder}: no lmms-eval log here holds these annotations' questions: {ai2d} (task ai2d: "
        "0 of 30 logged questions are the annotations'); give the log to score itself"
    ]


def test_the_log_itself_is_read_as_before(shared_data: Path, folder: Path, tmp_path: Path) -> None:
    code, stdout, _ = _score(
        shared_data, folder / "model" / "20250101_120000_samples_vsibench.jsonl", tmp_path / "scores"
    )
    assert code == 0 and "read the lmms-eval log" not in stdout
    scores = json.loads((tmp_path / "scores" / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(61.90029761904762, abs=1e-9)


def test_import_of_the_folder_records_the_log_it_read(
    shared_data: Path, folder: Path, tmp_path: Path
) -> None:
    from spatialbench.api.importing import import_run

    model = folder / "model"
    (model / "20250101_120000_samples_vsibench.jsonl").rename(
        model / "lmms_eval_0.6.1_samples_vsibench.jsonl"
    )
    notes: list[str] = []
    annotations = require_file(shared_data / "lmms_eval" / "demo_seed3_annotations.jsonl")
    outcome = import_run(folder, "vsibench", annotations, tmp_path / "run", notify=notes.append)
    assert (outcome.tool, outcome.version, outcome.answered) == ("lmms-eval", "0.6.1", 66)
    recorded = json.loads((tmp_path / "run" / "config.json").read_text())["backend"]
    assert recorded["file"] == str((model / "lmms_eval_0.6.1_samples_vsibench.jsonl").absolute())
    assert notes[0].startswith(f"read the lmms-eval log {model / 'lmms_eval_0.6.1_samples_vsibench.jsonl'}")


def test_without_question_text_the_task_name_tells(tmp_path: Path) -> None:
    """Logs that log no question: the one whose task name holds the benchmark's name is read."""
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.scoring.predictions import read_predictions

    items = [
        Item(
            id=str(i),
            benchmark="vsibench",
            task="object_counting",
            question=f"How many chairs {i}?",
            ground_truth="2",
            answer_kind=AnswerKind.NUMERICAL,
        )
        for i in range(3)
    ]
    model = tmp_path / "model"
    model.mkdir()
    for task, answer in (("ai2d", "A"), ("vsibench_local", "2")):
        lines = [{"doc_id": i, "filtered_resps": [answer], f"{task}_score": {"id": i}} for i in range(3)]
        (model / f"20250101_samples_{task}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    read = read_predictions(tmp_path, items)
    assert read.responses == {"0": "2", "1": "2", "2": "2"}
    assert read.source == model / "20250101_samples_vsibench_local.jsonl"
