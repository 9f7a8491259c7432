"""Every question of a generated 3-scene set, re-derived from the scene's object boxes and the cameras.

The checks here are written from the paper (Table 6, App. B.3) and the official code's rules (issue 27) and
do not call the generator's geometry: object centres and fronts come from ``scene.json`` (box centroid;
front = yaw + 90°, the local +y, for the templates file's facing categories), cameras from
``frame_set.json``; directions are the 45° sector of the angle between a heading and an XY offset, counted
counter-clockwise (left positive); distances are 3D between centres.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from spatialbench.benchmarks.remindview import load_remindview

LEFT_SIDE = ["front", "front-left", "left", "back-left", "back"]
RIGHT_SIDE = ["front", "front-right", "right", "back-right", "back"]
TURN_DEG = {"left": 90.0, "right": -90.0, "back": 180.0}
#: templates 3 and 4: the official words for where the other camera stands (front, front-left, front-right)
MOVE = {
    "front": "go opposite",
    "front-left": "go left and go forward",
    "front-right": "go right and go forward",
}
WHERE = {"front": "opposite", "front-left": "left", "front-right": "right"}
DATA = Path(__file__).parents[3] / "src/spatialbench/generate/remindview/data/templates.json"
DISTANCE = {1: "min", 2: "max", 5: "min", 6: "max", 7: "min", 8: "max", 15: "min", 16: "max"}
IN_DIRECTION = {4, 10, 12, 14, 17, 19, 21}
DIRECTION = {9, 11, 13, 18, 20, 22}
FRAME_VIEW = {5, 6, 9, 10, 17, 18}  # templates asked from a frame's perspective


def sector(position, heading_deg, point) -> str:
    """The 8-way direction of ``point`` seen from ``position`` facing ``heading_deg`` (test's own code)."""
    angle = math.degrees(math.atan2(point[1] - position[1], point[0] - position[0])) - heading_deg
    angle = (angle + 180.0) % 360.0 - 180.0  # (-180, 180], left positive
    index = min(4, int((abs(angle) + 22.5) // 45))
    return (LEFT_SIDE if angle >= 0 else RIGHT_SIDE)[index]


def camera(frame_set, k):
    pose = frame_set["cam_to_world"][k]
    return [pose[0][3], pose[1][3], pose[2][3]], math.degrees(math.atan2(pose[1][2], pose[0][2]))


def facing(obj, turn=None) -> float:
    return obj["front_deg"] + (TURN_DEG[turn] if turn else 0.0)


def scene_objects(folder: Path, frame_set: dict) -> dict[int, dict]:
    """Question objects by id: name from ``frame_set.json``; centre and front from ``scene.json``."""
    scene = json.loads((folder.parents[1] / "scene.json").read_text())
    facing_categories = set(json.loads(DATA.read_text())["facing_categories"])
    boxes = {o["instance_id"]: o for o in scene["objects"]}
    out = {}
    for named in frame_set["objects"]:
        box = boxes[named["instance_id"]]
        front = box["yaw_deg"] + 90.0 if box["category"] in facing_categories else None
        out[named["instance_id"]] = {"name": named["name"], "center": box["centroid"], "front_deg": front}
    return out


def viewer(t, b, frame_set, objects):
    """(position, heading) of templates' viewers, straight from Table 6's wording."""
    turn = b.get("turn")
    if t in (9, 10):  # from the perspective of frame k
        return camera(frame_set, b["frame_1"])
    if t in (17, 18):  # frame k's perspective, at object_1
        return objects[b["object_1"]]["center"], camera(frame_set, b["frame_1"])[1]
    if t in (11, 12, 13, 14):  # positioned where object_1 is, facing its direction (then turning)
        return objects[b["object_1"]]["center"], facing(objects[b["object_1"]], turn)
    if t in (19, 21):  # at object_1's facing (turned), relation of <answer> to object_2
        return objects[b["object_2"]]["center"], facing(objects[b["object_1"]], turn)
    if t in (20, 22):  # at object_1's facing (turned), relation of object_2 to object_3
        return objects[b["object_3"]]["center"], facing(objects[b["object_1"]], turn)
    raise AssertionError(t)


def shares_component(a: str, b: str) -> bool:
    return bool(set(a.split("-")) & set(b.split("-")))


def adjacent_or_same(a: str, b: str) -> bool:
    order = ["front", "front-right", "right", "back-right", "back", "back-left", "left", "front-left"]
    steps = abs(order.index(a) - order.index(b)) % 8
    return min(steps, 8 - steps) <= 1


def similar(a: str, b: str) -> bool:
    return a == b or a in b or b in a or a.split()[-1] == b.split()[-1]


@pytest.fixture(scope="module")
def questions(three_scenes: Path) -> list[tuple[dict, dict, dict]]:
    out = []
    for table in sorted(three_scenes.glob("*_qa.csv")):
        for row in pd.read_csv(table, dtype=str, keep_default_na=False).to_dict(orient="records"):
            folder = three_scenes / row["folder_path"]
            frame_set = json.loads((folder / "frame_set.json").read_text())
            frame_set["geometry"] = scene_objects(folder, frame_set)
            out.append((row, json.loads(row["bindings"]), frame_set))
    return out


def _distance(a, b) -> float:
    return math.dist(a, b)


def _check(row, b, frame_set) -> None:
    t = int(row["template"])
    objects = frame_set["geometry"]
    by_name = {o["name"]: o for o in objects.values()}
    choices = row["choices"].split(", ")
    answer = row["ground_truth"]
    assert answer in choices and len(choices) == len(set(choices))
    if t in DISTANCE:
        if t <= 2:
            origin = camera(frame_set, b["frame_1"])[0]
            points = {c: camera(frame_set, int(c.removeprefix("frame")))[0] for c in choices}
        else:
            origin = camera(frame_set, b["frame_1"])[0] if t in (5, 6) else objects[b["object_1"]]["center"]
            points = {c: by_name[c]["center"] for c in choices}
        d = {c: _distance(origin, p) for c, p in points.items()}
        others = [v for c, v in d.items() if c != answer]
        if DISTANCE[t] == "min":
            assert all(v - d[answer] >= 0.15 for v in others), (row, d)
        else:
            assert all(d[answer] - v >= 0.15 for v in others), (row, d)
    elif t in (3, 4):
        position, heading = camera(frame_set, b["frame_1"])
        where = {
            c: sector(position, heading, camera(frame_set, int(c.removeprefix("frame")))[0])
            for c in (f"frame{f}" for f in range(len(frame_set["cam_to_world"])))
        }
        if t == 3:
            assert MOVE[where[f"frame{b['frame_2']}"]] == answer and sorted(choices) == sorted(MOVE.values())
        else:
            words = [WHERE[where[c]] for c in choices]
            assert WHERE[where[answer]] == b["direction"] and len(set(words)) == len(words), (row, where)
    elif t in DIRECTION:
        position, heading = viewer(t, b, frame_set, objects)
        target = b["object_1"] if t == 9 else b["object_2"]
        assert sector(position, heading, objects[target]["center"]) == answer, row
    else:
        assert t in IN_DIRECTION
        position, heading = viewer(t, b, frame_set, objects)
        found = {c: sector(position, heading, by_name[c]["center"]) for c in choices}
        assert found[answer] == b["direction"], (row, found)
        assert not any(adjacent_or_same(found[c], b["direction"]) for c in choices if c != answer), row


def test_every_answer_re_derived_from_saved_poses_and_boxes(questions):
    assert len(questions) >= 150
    for row, b, frame_set in questions:
        _check(row, b, frame_set)
    assert {int(r["template"]) for r, _, _ in questions} == set(range(1, 23))


def test_direction_answers_have_four_choices_sharing_no_component_with_the_answer(questions):
    # the official rule: answer + 3 of the directions sharing no component with it ("back" for 180°)
    direction_rows = [row for row, _, _ in questions if int(row["template"]) in DIRECTION]
    assert len(direction_rows) >= 60
    for row in direction_rows:
        answer, choices = row["ground_truth"], row["choices"].split(", ")
        assert len(choices) == 4 and not any(shares_component(c, answer) for c in choices if c != answer), row
    turns = {json.loads(row["bindings"]).get("turn") for row, _, _ in questions}
    assert {"left", "right", "back"} <= turns


def test_named_objects_are_never_choices_and_names_are_never_similar(questions):
    for row, b, frame_set in questions:
        objects = {i: o["name"] for i, o in frame_set["geometry"].items()}
        named = [objects[v] for k, v in b.items() if k.startswith("object_")]
        offered = [c for c in row["choices"].split(", ") if c in objects.values()]
        assert not set(named) & set(offered), row
        names = named + offered
        assert not any(similar(a, c) for i, a in enumerate(names) for c in names[i + 1 :]), row
        for name in named:
            assert f"the {name}" in row["query"]


def test_cross_frame_follows_the_visibility_of_the_queried_objects(questions):
    for row, b, frame_set in questions:
        t = int(row["template"])
        if t <= 4:
            assert row["cross_frame"] == "True"
            continue
        names = {o["name"]: o["instance_id"] for o in frame_set["objects"]}
        ids = {v for k, v in b.items() if k.startswith("object_")}
        ids |= {names[c] for c in row["choices"].split(", ") if c in names}
        frames = [b["frame_1"]] if t in FRAME_VIEW else range(len(frame_set["cam_to_world"]))
        seen = [
            {int(i) for i, r in frame_set["visibility"][f].items() if r > frame_set["threshold"]}
            for f in frames
        ]
        co_observed = any(ids <= s for s in seen)
        assert row["cross_frame"] == str(not co_observed), row


def test_answer_letters_are_balanced_per_template(questions):
    letters: dict[int, Counter] = {}
    expected: dict[int, Counter] = {}
    for row, _, _ in questions:
        t, choices = int(row["template"]), row["choices"].split(", ")
        letters.setdefault(t, Counter())["ABCD"[choices.index(row["ground_truth"])]] += 1
        for letter in "ABCD"[: len(choices)]:
            expected.setdefault(t, Counter())[letter] += 1 / len(choices)
    for t, counts in letters.items():
        for letter, share in expected[t].items():
            # within 15 % of a uniform draw (or one question, for templates with few questions)
            assert abs(counts[letter] - share) <= max(0.15 * share, 1.0), (t, counts, expected[t])


def test_the_loader_reads_every_row_with_its_letter(three_scenes, questions):
    loaded = load_remindview(three_scenes)
    assert not loaded.errors and len(loaded) == len(questions)
    for item in loaded:
        assert item.metadata["answer_text"] == item.options[ord(item.ground_truth) - 65][3:]


def test_every_query_is_its_template_filled_with_its_own_bindings(questions):
    # no stale values: the text comes from this row's bindings only (official 13, 14 reused old ones)
    texts = {t["index"]: t["text"] for t in json.loads(DATA.read_text())["templates"]}
    for row, b, frame_set in questions:
        names = {o["instance_id"]: o["name"] for o in frame_set["objects"]}
        values = {k: names[v] if k.startswith("object_") else v for k, v in b.items()}
        assert row["query"] == texts[int(row["template"])].format(**values)
