"""Small ``spatialbench score`` follow-ups: the extraction-mode error, nothing scored writes nothing."""

import json
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


def _annotations(tmp_path: Path) -> Path:
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps({"id": 1, "dataset": "scannet", "scene_name": "s", "question_type":
                                "object_counting", "question": "q?", "ground_truth": "2"}) + "\n")
    return path


def test_unknown_extraction_mode_lists_the_modes_plainly(tmp_path: Path) -> None:
    predictions = tmp_path / "p.jsonl"
    predictions.write_text('{"id": 1, "response": "2"}\n')
    code, output = _invoke("score", "-a", _annotations(tmp_path), "-p", predictions, "--extract", "fancy")
    assert code == 2
    assert output.strip() == ("error: benchmark 'vsibench' has no extraction mode 'fancy'; "
                              "allowed: lmms-eval-0.7.2, lmms-eval-0.7.3, official, robust, vlmevalkit")


def test_nothing_scored_writes_no_score_files(tmp_path: Path) -> None:
    garbage = tmp_path / "g.jsonl"
    garbage.write_text("garbage\n")
    out = tmp_path / "so2"
    annotations = _annotations(tmp_path)
    code, output = _invoke("score", "-b", "vsibench", "-a", annotations, "-p", garbage, "--out", out)
    assert code == 1 and "nothing was scored" in output, output
    assert not out.exists() or list(out.iterdir()) == []
    assert "wrote" not in output
