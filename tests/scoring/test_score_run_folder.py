"""``spatialbench score --run RUN`` and ``breakdown --run RUN``: a run folder scored as it scored itself.

The run's benchmark, annotations, item selection (``ids`` / ``limit``) and scoring modes come from its
``config.json``; its answers from ``run.sqlite``.
"""

import json
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript

ROWS = [  # (question type, options, ground truth, the scripted model's answer)
    ("object_counting", None, "4", "4"),
    ("object_rel_direction_easy", ["A. left", "B. right"], "B", "A"),
    ("object_counting", None, "2", "3"),
    ("object_counting", None, "7", "7"),
]


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def _annotations(path: Path, rows: list[tuple[str, list[str] | None, str]]) -> Path:
    records = [{"id": k, "dataset": "scannet", "scene_name": "s", "question_type": t, "question": f"q{k}?",
                "options": o, "ground_truth": g} for k, (t, o, g) in enumerate(rows, 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_score_run_takes_answers_data_and_selection_from_the_folder(tmp_path: Path) -> None:
    annotations = _annotations(tmp_path / "test.jsonl", [(t, o, g) for t, o, g, _ in ROWS])
    answers = {f"q{k}?": row[3] for k, row in enumerate(ROWS, 1)}
    script = ServerScript(answer=lambda text: next(a for q, a in answers.items() if q in text))
    out = tmp_path / "run"
    with OpenAIServer(script) as server:
        code, output = _invoke("run", "--benchmark", "vsibench", "--data", annotations, "--model",
                               f"openai-compatible:{server.url}#m", "--out", out, "--no-progress", "--blind",
                               "--limit", "3")
    assert code == 0 and len(script.log) == 3, output
    code, output = _invoke("score", "--run", out, "--out", tmp_path / "s")
    assert code == 0, output
    scores = json.loads((tmp_path / "s" / "scores.json").read_text())
    own = json.loads((out / "scores.json").read_text())
    # counting: 4 vs 4 -> 1.0; 3 vs 2 (relative error 0.5) -> 0.1 (official <=); mean 55.0. Direction: 0.
    assert scores["object_counting"] == own["object_counting"] and round(scores["object_counting"], 6) == 55.0
    assert scores["n_items"] == own["n_items"] == 3 and scores["missing_predictions"] == 0
    assert scores["overall"] == own["overall"]
    code, output = _invoke("score", "--run", out, "-p", tmp_path / "p.jsonl")
    assert (code, output.strip()) == (2, "error: give exactly one of --predictions and --run")
    code, output = _invoke("score", "-b", "vsibench")
    assert (code, output.strip()) == (2, "error: give exactly one of --predictions and --run")
    code, output = _invoke("score", "--run", tmp_path / "nowhere")
    # the one message of every run-folder reader (runs.folder.open_run; was "no config.json in ...")
    expected = f"error: {tmp_path / 'nowhere'}: not a run folder (no config.json)"
    assert code == 2 and output.startswith(expected), output


def test_breakdown_of_a_baseline_run_uses_its_mra_and_limit(tmp_path: Path) -> None:
    truths = ["13", "13", "10", "100"]  # the run keeps the first 3 (limit 3)
    annotations = _annotations(tmp_path / "test.jsonl", [("object_counting", None, t) for t in truths])
    run_file = tmp_path / "run.yaml"
    run_file.write_text(f"out: {tmp_path / 'run'}\n"
                        f"data: {{benchmark: vsibench, path: {annotations}, limit: 3}}\n"
                        "model: {name: chance-frequency-restricted}\nscoring: {mra: paper}\n")
    code, output = _invoke("run", "--config", run_file, "--no-progress")
    assert code == 0, output
    own = json.loads((tmp_path / "run" / "scores.json").read_text())
    # best ground-truth constant (restricted) of 13, 13, 10: 13 (MRA 1, 1 and, for 10 at relative error
    # exactly 0.3, paper (<) 0.4),
    # mean 80.0; 10 gives (0.6 + 0.6 + 1) / 3 = 73.3. Over all four items with official MRA: 62.5.
    assert round(own["object_counting"], 6) == 80.0
    code, output = _invoke("breakdown", "--run", tmp_path / "run")
    assert code == 0, output
    assert "| MRA | 80.0 | 80.0 | - |" in output and "62.5" not in output, output  # counting: MRA (issue 24)
    code, output = _invoke("score", "--run", tmp_path / "run", "--mra", "official")
    assert code == 0 and "| all | 83.3 | 83.3 |" in output, output  # (1 + 1 + 0.5) / 3
