"""``audit vsibench --flags FLAGS`` shows each disagreement's latest review (serve's flags file)."""

import json

from typer.testing import CliRunner

from spatialbench.cli.main import app


def _row(**update):
    row = {"id": 1, "dataset": "arkitscenes", "scene_name": "41254432", "question_type": "object_counting",
           "question": "How many sofa(s) are in this room?", "options": None, "ground_truth": "2"}
    return {**row, **update}


def test_disagreements_carry_their_latest_review(shared_data, tmp_path):
    questions = tmp_path / "q.jsonl"
    rows = [_row(), _row(id=2, ground_truth="3"), _row(id=3, ground_truth="4")]
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
    flags = tmp_path / "flags.jsonl"
    reviews = [
        {"benchmark": "vsibench", "id": "2", "flag": "fine", "note": "", "reviewer": "a", "time": 1},
        {"benchmark": "vsibench", "id": "2", "flag": "wrong", "note": "two sofas", "reviewer": "b",
         "time": 2},
    ]
    flags.write_text("".join(json.dumps(r) + "\n" for r in reviews))
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, [
        "audit", "vsibench", "--meta-info", str(shared_data / "vsibench" / "meta_info"),
        "--questions", str(questions), "--flags", str(flags), "--out", str(tmp_path / "a"),
    ])
    assert result.exit_code == 0, result.output
    counting = json.loads((tmp_path / "a" / "audit.json").read_text())["tasks"]["object_counting"]
    by_id = {d["id"]: d for d in counting["disagreements"]}
    assert by_id["2"]["review"] == {"flag": "wrong", "note": "two sofas", "reviewer": "b"}
    assert by_id["3"]["review"] is None
    assert counting["reviewed"] == 1 and counting["not_reviewed"] == 1
    assert "id=2" in result.output and "[review: wrong — two sofas]" in result.output
    assert "[not reviewed]" in result.output


def test_a_bad_flags_file_is_one_line(shared_data, tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps(_row()) + "\n")
    flags = tmp_path / "flags.jsonl"
    flags.write_text('{"id": "1", "flag": "maybe"}\n')
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, [
        "audit", "vsibench", "--meta-info", str(shared_data / "vsibench" / "meta_info"),
        "--questions", str(questions), "--flags", str(flags),
    ])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: {flags}:1: field 'flag': 'maybe' is not one of wrong, ambiguous, fine"
    ]
