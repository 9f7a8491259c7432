"""A generated benchmark's features come from the generator's slots, not its text (issue 23 item 2).

On the 3-scene demo benchmark (seed 0, 6 s: 123 items): the file stores each question's objects by role, the
loader reads them back, and the stress-test's keys are those slots (blanking every question text leaves
them unchanged); they equal what the official regular expressions parse from the text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from spatialbench.analysis.shortcuts import check_label_invariance, question_table, stress_test
from spatialbench.analysis.shortcuts.sets import FEATURE_SETS
from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.vsibench.format import RowProblem, record_to_item

# key columns of each question type with objects, by the official TsT feature names
KEYS = {
    "object_counting": ["object"],
    "object_size_estimation": ["object"],
    "object_abs_distance": ["object_pair"],
    "object_rel_distance": ["object_1", "object_2", "object_3", "object_4", "target_object"],
    "object_rel_direction": ["positioning_object", "orienting_object", "querying_object"],
    "route_planning": ["beginning_object", "facing_object", "target_object"],
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from spatialbench.demo import run_demo

    root = tmp_path_factory.mktemp("slots-demo")
    run_demo(root, scenes=3, seed=0, seconds=6.0, log=lambda line: None)
    return root / "benchmark"


@pytest.fixture(scope="module")
def table(demo: Path) -> pd.DataFrame:
    return question_table(get_benchmark("vsibench").load_items(demo / "test.jsonl"))


def test_the_file_stores_each_questions_slots(demo: Path):
    records = [json.loads(line) for line in (demo / "test.jsonl").read_text().splitlines()]
    first = {r["question_type"]: r for r in reversed(records)}  # the first question of each type
    # read off the questions: "How many pillow(s) ...", "standing by the closet and facing the trash bin,
    # is the mirror ...", "beginning at the closet facing the bed. ... navigate to the mirror."
    assert json.loads(first["object_counting"]["slots"]) == {"object": "pillow"}
    assert json.loads(first["object_rel_direction_easy"]["slots"]) == {
        "positioning_object": "closet",
        "orienting_object": "trash bin",
        "querying_object": "mirror",
    }
    assert json.loads(first["route_planning"]["slots"]) == {
        "beginning_object": "closet",
        "facing_object": "bed",
        "target_object": "mirror",
    }
    assert first["room_size_estimation"]["slots"] is None  # names no object
    with_objects = [
        r for r in records if r["question_type"] not in ("room_size_estimation", "obj_appearance_order")
    ]
    assert all(r["slots"] for r in with_objects)


@pytest.mark.parametrize("task", sorted(KEYS))
def test_keys_come_from_the_slots_and_equal_the_text_parse(table: pd.DataFrame, task: str):
    fs = FEATURE_SETS[task]
    rows = table[table["task"] == task].reset_index(drop=True)
    assert rows["slots"].map(bool).all()
    from_text = fs.keys(rows.drop(columns=["slots"]))[KEYS[task]]
    from_slots = fs.keys(rows.assign(question=""))[KEYS[task]]  # no text to parse
    assert from_slots.notna().all().all()
    pd.testing.assert_frame_equal(from_slots, from_text)


@pytest.mark.parametrize("task", sorted(KEYS))
def test_slot_keys_pass_the_leak_check(table: pd.DataFrame, task: str):
    fs = FEATURE_SETS[task]
    rows = fs.keys(table[table["task"] == task].assign(question="")).reset_index(drop=True)
    half = len(rows) // 2
    assert half >= 1
    assert check_label_invariance(fs, rows.iloc[:half], rows.iloc[half:]) == []


def test_stress_test_runs_on_the_demo_from_its_slots(table: pd.DataFrame):
    blind = stress_test(table.assign(question=""), "random", k=2)
    assert blind.items == stress_test(table, "random", k=2).items
    assert set(blind.tasks) >= {"object_counting", "object_abs_distance", "object_rel_distance"}


@pytest.mark.parametrize(
    ("slots", "why"), [("{oops", "not JSON"), ('["a"]', "not an object"), ('{"object": 3}', "not an object")]
)
def test_malformed_slots_are_a_row_problem(slots: str, why: str):
    record = {
        "id": 1,
        "dataset": "synthetic",
        "scene_name": "s",
        "question_type": "object_counting",
        "question": "How many chair(s) are in this room?",
        "ground_truth": "2",
        "slots": slots,
    }
    with pytest.raises(RowProblem, match=why) as caught:
        record_to_item(record)
    assert caught.value.field == "slots"
