"""``score --exclude FLAGS`` leaves out the items whose latest review flag is wrong or ambiguous."""

import json
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _annotations(tmp_path: Path) -> Path:
    rows = [
        {"id": i, "dataset": "scannet", "scene_name": "scene0000_00", "question_type": "object_counting",
         "question": f"How many chairs ({i})?", "options": None, "ground_truth": "2"}
        for i in range(1, 5)
    ]
    return _write(tmp_path / "test.jsonl", rows)


def test_flagged_items_are_left_out_of_the_score(tmp_path: Path) -> None:
    annotations = _annotations(tmp_path)
    predictions = _write(tmp_path / "p.jsonl", [{"id": i, "response": r} for i, r in
                                                 [(1, "2"), (2, "2"), (3, "9"), (4, "9")]])
    flags = _write(tmp_path / "flags.jsonl", [
        {"benchmark": "vsibench", "id": "3", "flag": "wrong", "note": "", "reviewer": "a", "time": 1},
        {"benchmark": "vsibench", "id": "4", "flag": "ambiguous", "note": "", "reviewer": "a", "time": 2},
        {"benchmark": "vsibench", "id": "2", "flag": "wrong", "note": "", "reviewer": "a", "time": 3},
        {"benchmark": "vsibench", "id": "2", "flag": "fine", "note": "ok", "reviewer": "b", "time": 4},
    ])
    plain = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(predictions)])
    kept = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(predictions),
                                    "--exclude", str(flags), "--out", str(tmp_path / "o")])
    assert plain.exit_code == 0 and kept.exit_code == 0, kept.output
    assert "excluded 2 flagged item(s)" in kept.output
    assert "match no item" not in kept.output  # the flagged items' predictions are not "unmatched"
    scores = json.loads((tmp_path / "o" / "scores.json").read_text())
    # items 1 and 2 answer 2 for truth 2 (MRA 1.0); 3 and 4 (9 for 2) are the flagged ones
    assert scores["object_counting"] == 100.0 and scores["n_items"] == 2, scores


def test_a_bad_flags_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    annotations = _annotations(tmp_path)
    predictions = _write(tmp_path / "p.jsonl", [{"id": 1, "response": "2"}])
    missing = CliRunner().invoke(app, ["score", "-a", str(annotations), "-p", str(predictions),
                                       "--exclude", str(tmp_path / "none.jsonl")])
    assert missing.exit_code == 2 and "none.jsonl" in missing.output
    bad = _write(tmp_path / "bad.jsonl", [{"id": "1"}])
    args = ["score", "-a", str(annotations), "-p", str(predictions), "--exclude", str(bad)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "bad.jsonl" in result.output
