"""No interval from one scene (issue 23 newcomer check, item 1).

A scene bootstrap of one cluster draws that cluster every time: its "interval" was the point itself,
``37.1 [37.1, 37.1] n=7``. Now every table, the answerability split and TsT-RF print ``-`` and say
``1 scene``; JSON writes null.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from spatialbench.analysis.answerability import accuracy_by_answerability, answerability_grid
from spatialbench.analysis.shortcuts import stress_test
from spatialbench.analysis.shortcuts.document import stress_table, write_stress_test
from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring.grouped import Group, grouped
from spatialbench.scoring.uncertainty import interval_text, masked_mean, table_ci


def _rows(scores: list[float], scenes: list[str], tasks: list[str] | None = None) -> pd.DataFrame:
    return pd.DataFrame({"id": [f"q{i}" for i in range(len(scores))], "scene_id": scenes,
                         "task": tasks or ["object_counting"] * len(scores), "score": scores,
                         "answered": True})


def test_a_table_of_one_scene_has_no_interval() -> None:
    rows = _rows([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], ["s0"] * 7)  # 3 of 7 right: 42.9
    table = grouped(rows, [Group.of("Obj. Count", "object_counting", task="object_counting")])
    assert table.average == pytest.approx(300 / 7)
    assert table_ci(table) == {"overall": None, "object_counting": None}
    assert masked_mean(rows, rows["task"].eq("object_counting").to_numpy()) == (pytest.approx(300 / 7), None)
    assert interval_text(None, 7, 1) == "- n=7 (1 scene)"


def test_two_scenes_keep_their_interval() -> None:
    # s0 all right, s1 all wrong: a resample of 2 scenes is {s0, s0} 100, {s0, s1} 50 or {s1, s1} 0, each
    # pure draw with probability 1/4, so the 2.5th and 97.5th percentiles are 0 and 100
    rows = _rows([1.0, 1.0, 0.0, 0.0], ["s0", "s0", "s1", "s1"])
    table = grouped(rows, [Group.of("Obj. Count", "object_counting", task="object_counting")])
    assert table_ci(table)["overall"] == (0.0, 100.0)
    assert interval_text((0.0, 100.0), 4, 2) == "[0.0, 100.0] n=4"


def test_the_answerability_split_of_one_scene_says_1_scene() -> None:
    tasks = ["object_counting"] * 7 + ["route_planning"]
    rows = _rows([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0], ["s0"] * 8, tasks)
    verdicts = {f"q{i}": {"answerable": i in (0, 1, 2, 3, 7)} for i in range(8)}
    split = accuracy_by_answerability(rows, verdicts)
    # counting: answerable q0-q3 (3 right of 4: 75.0), unanswerable q4-q6 (0.0); overall 4 of 5 = 80.0
    assert split["object_counting"]["answerable"] == {"score": 75.0, "ci95": None, "n": 4, "scenes": 1}
    assert split["overall"]["answerable"] == {"score": 80.0, "ci95": None, "n": 5, "scenes": 1}
    grid = answerability_grid(split, "t")
    assert grid.rows == (
        ("object_counting", ("75.0 - n=4 (1 scene)", "0.0 - n=3 (1 scene)")),
        ("route_planning", ("100.0 - n=1 (1 scene)", "-")),
        ("overall", ("80.0 - n=5 (1 scene)", "0.0 - n=3 (1 scene)")),  # last, after route_planning (item 4)
    )


def _choices(scenes: int) -> list[Item]:
    """10 two-option questions (5 answer A, 5 B) spread over ``scenes`` scenes: chance 50.0."""
    return [Item(id=str(i), benchmark="toy", task="toy_choice", question=f"Which side, {i}?",
                 options=("A. left", "B. right"), ground_truth="AB"[i % 2],
                 answer_kind=AnswerKind.MULTIPLE_CHOICE, scene_id=f"s{i % scenes}") for i in range(10)]


def test_tst_rf_of_one_scene_has_no_interval() -> None:
    one = stress_test(_choices(1), "random")
    task = one.tasks["toy_choice"]
    assert (task.n, task.scenes, task.chance, task.interval) == (10, 1, 50.0, None)
    row = dict(stress_table(one, stress_test(_choices(1), "grouped")).rows)["toy_choice"]
    assert row[1:4] == (50.0, task.score, "- (1 scene)")
    two = stress_test(_choices(2), "random").tasks["toy_choice"]
    assert two.scenes == 2 and two.interval is not None


def test_grouped_folds_of_one_scene_write_strict_json_and_dashes(tmp_path: Path) -> None:
    # one scene cannot be split into k=5 scene-grouped folds: the grouped kind scores no type, so its
    # overall is undefined. stress_test.json must stay strict JSON (null, never NaN) and the table "-".
    random, grouped_kind = stress_test(_choices(1), "random"), stress_test(_choices(1), "grouped")
    assert grouped_kind.tasks == {}
    write_stress_test(tmp_path, random, grouped_kind, {"benchmark": "toy"})
    text = (tmp_path / "stress_test.json").read_text()
    doc = json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in stress_test.json"))
    assert doc["grouped"]["overall"] == {"score": None, "chance": None, "n": 0}
    assert doc["overall"]["chance"] == 50.0
    rows = dict(stress_table(random, grouped_kind).rows)
    assert rows["toy_choice"][4:6] == (None, None)  # grouped score and CI: "-"
    assert rows["overall"][4] is None
    csv_overall = (tmp_path / "stress_test.csv").read_text().splitlines()[-1]
    assert "nan" not in csv_overall.lower()
