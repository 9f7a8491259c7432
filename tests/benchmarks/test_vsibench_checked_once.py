"""Options and letter answers checked once per distinct value (issue 25, item 3): repeats keep every error."""

import json

from spatialbench.benchmarks.vsibench import load_vsibench


def _row(k, options, truth):
    return {"id": k, "dataset": "scannet", "scene_name": "s1", "question_type": "route_planning",
            "question": f"Q{k}?", "options": options, "ground_truth": truth}


def test_repeated_values_are_checked_as_the_first(tmp_path):
    good = ["A. left", "B. right"]
    rows = [_row(0, good, "b"), _row(1, ["A. left", 2], "A"), _row(2, [["A. left"]], "A"), _row(3, good, "C"),
            _row(4, good, "C"), _row(5, ["options", ("A. left", "B. right")], "A"),
            _row(6, list(good), " a "), _row(7, ["letter", "b", 2], "A")]
    path = tmp_path / "test.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    items = load_vsibench(path)
    assert [(i.id, i.options, i.ground_truth) for i in items] == [
        ("0", ("A. left", "B. right"), "B"), ("6", ("A. left", "B. right"), "A")]
    assert items[0].options is items[1].options
    assert [(e.line, e.field, e.message) for e in items.errors] == [
        (2, "options", "every option must be a string such as 'A. sofa'"),
        (3, "options", "every option must be a string such as 'A. sofa'"),
        (4, "ground_truth", "'C' is not one of the option letters 'AB'"),
        (5, "ground_truth", "'C' is not one of the option letters 'AB'"),
        (6, "options", "every option must be a string such as 'A. sofa'"),
        (8, "options", "every option must be a string such as 'A. sofa'"),
    ]
