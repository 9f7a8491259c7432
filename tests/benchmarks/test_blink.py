"""BLINK: the per-subtask Parquet release and the VLMEvalKit TSV load alike; a loopback run scores as the
official ``eval/evaluate.py`` does.

``_official_total`` transcribes ``eval_prediction`` (github zeyofu/BLINK_Benchmark): the subtask read from
``idx``, a hit when the prediction equals the gold ``"(X)"``, Total = mean of the subtask accuracies. The
official answer matching is GPT-3.5 (``multiple_choice.py``); the predictions fed to it here are the letters
spatialbench read, written as ``"(X)"``, so per-item hits and Total agree (Δ 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.image_tables import png, tsv_image, write_parquet, write_tsv
from support.scripted_runs import run_items, scripted_run

# (subtask, choices, answer, images, response)
CASES = [
    ("Relative_Depth", ["A", "B"], "(A)", 1, "(A)"),
    ("Relative_Depth", ["A", "B"], "(B)", 1, "(A) Point A"),
    ("Relative_Depth", ["A", "B"], "(B)", 1, "B"),
    ("Jigsaw", ["the first image", "the second image"], "(B)", 3, "(B)"),
    ("Multi-view_Reasoning", ["left", "right"], "(A)", 2, "The answer is (A)."),
    ("Multi-view_Reasoning", ["left", "right"], "(B)", 2, "(A)"),
]
HITS = [1, 0, 1, 1, 1, 0]  # by hand from the responses' letters


def _prompt(k: int, choices: list[str]) -> str:
    lines = [f"Question {k}: which point is closer?\nSelect from the following choices."]
    return "\n".join(lines + [f"({'AB'[j]}) {c}" for j, c in enumerate(choices)])


def write_release(folder: Path) -> Path:
    """``<Subtask>/val-00000-of-00001.parquet`` per subtask, images as ``{"bytes", "path"}``."""
    tables: dict[str, list[dict[str, object]]] = {}
    for k, (task, choices, answer, n, _) in enumerate(CASES):
        count = sum(1 for c in CASES[:k] if c[0] == task) + 1
        row: dict[str, object] = {
            "idx": f"val_{task}_{count}",
            "question": f"Question {k}: which point is closer?",
            "sub_task": task.replace("_", " "),
            "choices": choices,
            "answer": answer,
            "prompt": _prompt(k, choices),
            "explanation": "",
        }
        for j in range(4):
            row[f"image_{j + 1}"] = {"bytes": png(10 * k + j), "path": f"{k}_{j}.png"} if j < n else None
        tables.setdefault(task, []).append(row)
    for task, rows in tables.items():
        write_parquet(rows, folder / task / "val-00000-of-00001.parquet")
    return folder


def _official_total(gold: dict[str, str], predictions: dict[str, str]) -> tuple[dict[str, float], float]:
    """``eval_prediction``: per subtask accuracy and their mean (over the subtasks present here)."""
    right: dict[str, int] = {}
    count: dict[str, int] = {}
    for idx, answer in gold.items():
        task = "_".join(idx.split("val")[1][1:].split("_")[:-1])
        count[task] = count.get(task, 0) + 1
        right[task] = right.get(task, 0) + int(idx in predictions and predictions[idx] == answer)
    accuracy = {task: right[task] / count[task] for task in count}
    return accuracy, sum(accuracy.values()) / len(accuracy)


def kit_rows() -> list[dict[str, str]]:
    """The cases as rows of VLMEvalKit's ``BLINK.tsv`` (subtask with spaces, options in ``A``/``B``)."""
    return [
        {
            "index": f"val_{c[0]}_{k}",
            "question": f"Question {k}: which point is closer?",
            "A": c[1][0],
            "B": c[1][1],
            "answer": c[2][1],
            "category": c[0].replace("_", " "),
            "image": tsv_image([png(10 * k + j) for j in range(c[3])]),
        }
        for k, c in enumerate(CASES)
    ]


def test_release_and_tsv_give_the_same_items(tmp_path: Path) -> None:
    spec = get_benchmark("blink")
    release = spec.load_items(write_release(tmp_path / "hf"))
    kit = spec.load_items(write_tsv(kit_rows(), tmp_path / "kit" / "BLINK.tsv"))
    assert not release.errors and not kit.errors and len(release) == len(kit) == len(CASES)
    by_question = {i.question: i for i in release}
    for b in kit:
        a = by_question[b.question]
        assert (a.task, a.options, a.ground_truth) == (b.task, b.options, b.ground_truth)
        assert [Path(m.path).read_bytes() for m in a.media] == [Path(m.path).read_bytes() for m in b.media]
    spatial = spec.load_items(tmp_path / "hf", subset="spatial")
    assert sorted({i.task for i in spatial}) == ["Multi-view_Reasoning", "Relative_Depth"]


@pytest.mark.slow
def test_loopback_run_scores_the_official_total(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_release(tmp_path / "hf")
    responses = {_prompt(k, c[1]): c[4] for k, c in enumerate(CASES)}
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    script = scripted_run("blink", data, out, responses)
    assert sorted(r.n_images for r in script.answered()) == sorted(c[3] for c in CASES)
    items = get_benchmark("blink").load_items(data)
    gold = {i.id: f"({i.ground_truth})" for i in items}
    read = {str(i): f"({e})" for i, e in run_items(out)["extracted"].items()}
    per_task, total = _official_total(gold, read)
    assert [int(read[i.id] == gold[i.id]) for i in items] == [HITS[_case(i.question)] for i in items]
    scores = json.loads((out / "scores.json").read_text())
    assert (
        scores["overall"] == pytest.approx(100 * total) == pytest.approx(100 * (2 / 3 + 1 + 1 / 2) / 3)
    )  # Δ 0
    assert scores["Relative_Depth"] == pytest.approx(100 * per_task["Relative_Depth"])
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "report" / "index.html").read_text()
    assert "<th>Jigsaw</th>" in html and "<th>Relative Depth</th>" in html  # the paper's names, no underscore


def _case(prompt: str) -> int:
    return next(k for k, c in enumerate(CASES) if _prompt(k, c[1]) == prompt)


@pytest.mark.parametrize(("subset", "note"), [
    ((), "Avg. is over 3 of 14 tasks (Relative Depth, Jigsaw, Multi-view Reasoning); no items for: Visual"),
    (("--subset", "spatial"), "Avg. is over 2 of 4 tasks (Relative Depth, Multi-view Reasoning); no items "
                              "for: Spatial Relation, Object Localization."),
])
def test_avg_over_fewer_subtasks_than_blink_defines_says_so(tmp_path: Path, subset, note) -> None:
    # issue 24: BLINK's Avg. over 3 of its 14 subtasks carried no note (ReVSI's table has one)
    args = ["run", "--benchmark", "blink", "--data", str(write_release(tmp_path / "hf")), *subset,
            "--model", "chance-random", "--out", str(tmp_path / "run"), "--no-progress"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and note in result.output, result.output
    scores = json.loads((tmp_path / "run" / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(50.0)  # two-option subtasks: 1/2 each, mean over those present
    assert len(scores["missing_tasks"]) == (2 if subset else 11)
    assert scores["averaged_over"] == (["Relative_Depth", "Multi-view_Reasoning"] if subset
                                       else ["Relative_Depth", "Jigsaw", "Multi-view_Reasoning"])
