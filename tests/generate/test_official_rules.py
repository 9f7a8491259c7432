"""The rules of the official VSI-Bench questions (issue 10), each a named setting, by hand and on the data."""

import json
from collections import Counter, defaultdict

import numpy as np
import pytest

from spatialbench.generate.vsi import GenerationSettings, generate_vsibench
from spatialbench.generate.vsi.direction import near_boundary, rule_masks
from spatialbench.generate.vsi.tasks import abs_distance, rel_distance
from spatialbench.generate.vsi.tasks.rel_distance import is_ambiguous
from spatialbench.scene import Scene, load_meta_info, make_box
from spatialbench.scene.model import ObjectInstance
from support.shared_data import require_file

DIRECTION = [f"object_rel_direction_{level}" for level in ("easy", "medium", "hard")]


def scene_of(boxes, counts_order=None, room_size=20.0):
    """A scene of unique axis-aligned boxes {category: (centre, extent)} (object_counts in counts_order)."""
    objects = {c: (ObjectInstance(c, 0, make_box(ctr, ext)),) for c, (ctr, ext) in boxes.items()}
    counts = {c: 1 for c in (counts_order or boxes)}
    return Scene("hand", "synthetic", room_size, np.zeros(3), objects, counts)


@pytest.fixture(scope="module")
def official_scenes(shared_data):
    return load_meta_info(shared_data / "vsibench" / "meta_info")


def test_abs_distance_names_first_the_object_later_in_object_counts():
    # bbox order tv, sofa, lamp; object_counts order lamp, tv, sofa: pairs (lamp, tv) (lamp, sofa) (tv, sofa)
    boxes = {
        "tv": ([0, 0, 0.5], [1, 0.2, 1]),
        "sofa": ([3, 0, 0.5], [2, 1, 1]),
        "lamp": ([0, 3, 0.5], [0.3, 0.3, 1]),
    }
    scene = scene_of(boxes, counts_order=["lamp", "tv", "sofa"])
    named = [c.metadata["objects"] for c in abs_distance.generate(scene, GenerationSettings()).candidates]
    assert named == [["tv", "lamp"], ["sofa", "lamp"], ["sofa", "tv"]]
    bbox = abs_distance.generate(scene, GenerationSettings(abs_distance_order="bbox")).candidates
    assert [c.metadata["objects"] for c in bbox] == [["sofa", "tv"], ["lamp", "tv"], ["lamp", "sofa"]]


def test_abs_distance_floor_is_on_the_one_decimal_answer():
    # unit cubes: a-b faces 0.36 m apart (answer "0.4", asked), a-c 0.34 m ("0.3", not asked), b-c corner
    # (0.86, -0.5) to corner (0.5, -0.84): hypot(0.36, 0.34) = 0.495 m ("0.5")
    boxes = {
        "a": ([0, 0, 0.5], [1, 1, 1]),
        "b": ([1.36, 0, 0.5], [1, 1, 1]),
        "c": ([0, -1.34, 0.5], [1, 1, 1]),
    }
    result = abs_distance.generate(scene_of(boxes), GenerationSettings())
    assert [(c.metadata["objects"], c.answer) for c in result.candidates] == [
        (["b", "a"], "0.4"),
        (["c", "b"], "0.5"),
    ]
    assert result.removed["below_min_distance"] == 1
    lower = abs_distance.generate(scene_of(boxes), GenerationSettings(abs_distance_min_m=0.3))
    assert len(lower.candidates) == 3


def official_rows(shared_data):
    five = shared_data / "vsibench" / "official_samples" / "gemini3flash_5scenes" / "questions"
    rows = [r for f in sorted(five.glob("*.json")) for r in json.loads(f.read_text())["questions"]]
    subset = require_file(shared_data / "vsibench" / "official_samples" / "subset_300.jsonl")
    return rows + [json.loads(line) for line in subset.read_text().splitlines()]


def test_every_official_abs_distance_question_is_a_candidate_worded_alike(shared_data, official_scenes):
    rows = [r for r in official_rows(shared_data) if r["question_type"] == "object_abs_distance"]
    assert len(rows) == 64 and min(float(r["ground_truth"]) for r in rows) == 0.4
    everything = GenerationSettings(
        caps={}, abs_distance_min_m=0.3
    )  # exact distance is <= the official estimate
    for row in rows:
        texts = {
            c.question
            for c in abs_distance.generate(official_scenes[row["scene_name"]], everything).candidates
        }
        assert row["question"] in texts, row["question"]


def test_rel_distance_rules_by_hand():
    assert is_ambiguous([0.5, 1.0, 1.5, 2.0], 0.15, "data") is False
    assert is_ambiguous([0.5, 1.0, 1.1, 2.0], 0.30, "data") is True  # 1.0 / 1.1 within the small-room 0.15 m
    # large room: only the closest two need 0.30
    assert is_ambiguous([0.5, 1.0, 1.2, 2.0], 0.30, "data") is False
    assert is_ambiguous([0.5, 1.0, 1.2, 2.0], 0.30, "any_pair") is True  # the paper's words
    assert is_ambiguous([0.5, 0.7, 2.0, 3.0], 0.30, "closest") is True
    boxes = {
        "tv": ([0, 0, 0.5], [1, 1, 1]),
        "sofa": ([1.05, 0, 0.5], [1, 1, 1]),  # 0.05 m from the tv
        "bed": ([0, 2.5, 0.5], [1, 1, 1]),
        "lamp": ([-3, 0, 0.5], [1, 1, 1]),
        "chair": ([0, -5, 0.5], [1, 1, 1]),
        "table": ([6, 6, 0.5], [1, 1, 1]),
    }
    result = rel_distance.generate(scene_of(boxes), GenerationSettings(rel_distance_draws=100))
    clear = [c for c in result.candidates if c.metadata["primary"] == "tv"]
    assert clear and all("sofa" not in c.choices for c in clear)  # every tv set holding the sofa is refused
    # 6 primaries x C(5, 4) = 30 sets, all judged; refused: 4 tv sets with the sofa, 4 sofa sets with the tv
    assert result.removed["not_drawn"] == 0 and result.removed["too_close_to_reference"] == 8


def test_rel_distance_draws_a_fixed_number_of_candidates_per_scene():
    boxes = {c: ([3.0 * i, (i % 3) * 2.0, 0.5], [1, 1, 1]) for i, c in enumerate("abcdefgh")}
    result = rel_distance.generate(scene_of(boxes), GenerationSettings())
    total = 8 * 35  # 8 unique primaries x C(7, 4) choice sets
    judged = (
        len(result.candidates) + result.removed["ambiguous_gap"] + result.removed["too_close_to_reference"]
    )
    assert judged == 23 and result.removed["not_drawn"] == total - 23


def test_hard_margin_is_one_sided_by_default():
    # counter-clockwise bearings 5 (just past straight ahead), 355 (just before it), 85 (just before 90), 95
    angles = np.array([5.0, -5.0, 85.0, 95.0, -85.0])
    one_sided = near_boundary(angles, "hard", GenerationSettings())
    assert one_sided.tolist() == [False, True, True, False, False]
    both = near_boundary(angles, "hard", GenerationSettings(direction_hard_margin="both_sides"))
    assert both.tolist() == [True] * 5
    # medium boundaries 0, 135, 225: 130 is within 10 degrees of 135 on either setting
    assert near_boundary(np.array([130.0, 100.0]), "medium", GenerationSettings()).tolist() == [True, False]


def test_corner_rule_and_easy_back_zone_by_hand():
    # observer at the origin facing +y (the orienting box 4 m ahead); the querying box centred 0.5 m to the
    # left, 2 m ahead, 2 m wide: its 4 right-hand corners (x = +0.5) are to the right -> 4 > 2 corners
    boxes = {
        "p": ([0, 0, 0.5], [0.2, 0.2, 0.2]),
        "o": ([0, 4, 0.5], [0.2, 0.2, 0.2]),
        "wide": ([-0.5, 2, 0.5], [2.0, 0.2, 0.5]),
        "narrow": ([-0.5, 2, 0.5], [0.4, 0.2, 0.5]),
        "behind": ([-0.8, -1, 0.5], [0.2, 0.2, 0.2]),  # bearing atan2(3.2, -4) = 141.3 degrees: behind
    }
    scene = scene_of(boxes)
    triples = [("p", "o", "wide"), ("p", "o", "narrow"), ("p", "o", "behind")]
    centres = np.array([[scene.unique_box(c).center for c in t] for t in triples])
    from spatialbench.generate.vsi.direction import bearing_deg

    angles = bearing_deg(centres[:, 0], centres[:, 1], centres[:, 2])
    assert angles.tolist() == pytest.approx(
        np.degrees(np.arctan2([2.0, 2.0, 3.2], [8.0, 8.0, -4.0])).tolist()
    )
    easy = rule_masks(scene, triples, angles, "easy", GenerationSettings())
    assert easy["corner_sector"].tolist() == [True, False, False]
    assert easy["easy_back_zone"].tolist() == [False, False, True]
    assert "easy_back_zone" not in rule_masks(scene, triples, angles, "medium", GenerationSettings())
    loose = rule_masks(scene, triples, angles, "easy", GenerationSettings(direction_vertex_limit=None))
    assert "corner_sector" not in loose


def role_order(scene, objects):
    order = [c for c in scene.counts if c in objects]
    return "".join(str(order.index(c)) for c in objects)


def test_direction_questions_come_in_role_triples_in_official_orders(official_scenes):
    scenes = list(official_scenes.values())
    bench = generate_vsibench(scenes, DIRECTION, GenerationSettings())
    by_id = {s.scene_id: s for s in scenes}
    orders = Counter(role_order(by_id[i.scene_id], i.metadata["objects"]) for i in bench.items)
    assert set(orders) == {"012", "021", "102"}
    per_scene = defaultdict(Counter)
    triples = defaultdict(set)
    for item in bench.items:
        per_scene[item.task][item.scene_id] += 1
        triples[(item.task, item.scene_id)].add(frozenset(item.metadata["objects"]))
    for task, k in zip(DIRECTION, (1, 2, 2), strict=True):
        counts = [per_scene[task][s.scene_id] for s in scenes]
        assert min(counts) == 0 and max(counts) == 3 * k  # official spread 0-6 (easy 0-3)
        assert max(len(triples[(task, s.scene_id)]) for s in scenes) == k


def test_official_direction_questions_use_only_three_role_orders(shared_data, official_scenes):
    import re

    from spatialbench.scene.categories import scene_category

    pattern = re.compile(r"standing by the (.+?) and facing the (.+?), is the (.+?) to ")
    orders = Counter()
    for row in official_rows(shared_data):
        if row["question_type"] in DIRECTION:
            scene = official_scenes[row["scene_name"]]
            objects = [scene_category(scene, n) for n in pattern.search(row["question"]).groups()]
            orders[role_order(scene, objects)] += 1
    assert sum(orders.values()) == 142 and set(orders) == {"012", "021", "102"}


def test_deterministic_counts_over_the_288_scenes_are_within_3_percent(official_scenes):
    from spatialbench.generate.vsi.fidelity import OFFICIAL_COUNTS

    tasks = ["object_counting", "object_abs_distance", "object_size_estimation", "room_size_estimation"]
    bench = generate_vsibench(official_scenes.values(), tasks, GenerationSettings())
    counts = {t: bench.manifest["tasks"][t]["count"] for t in tasks}
    assert counts == {  # official 565, 834, 953, 288
        "object_counting": 570,
        "object_abs_distance": 859,  # the sampled estimate (default); exact distances give 853
        "object_size_estimation": 955,
        "room_size_estimation": 288,
    }
    bound = {"object_abs_distance": 0.032}  # 859 against 834: +3.0 %
    assert all(abs(counts[t] - OFFICIAL_COUNTS[t]) <= bound.get(t, 0.03) * OFFICIAL_COUNTS[t] for t in tasks)


@pytest.mark.slow
def test_independent_draw_counts_match_the_official_ones_on_average_over_seeds(official_scenes):
    # the independent draw varies by 12-18 questions a seed (3-5 %): the official counts are one such draw;
    # the mean over 8 seeds lands within 3 % of each (measured 708.8, 215.0, 381.0, 368.8; official 710, 217,
    # 378, 373); the default fixed-total draw hits each expectation every seed (test_draw_allocation.py)
    from spatialbench.generate.vsi.fidelity import OFFICIAL_COUNTS

    tasks = ["object_rel_distance", *DIRECTION]
    runs = [
        generate_vsibench(
            official_scenes.values(), tasks, GenerationSettings(seed=s, draw_allocation="independent")
        )
        for s in range(8)
    ]
    for task in tasks:
        mean = np.mean([run.manifest["tasks"][task]["count"] for run in runs])
        assert abs(mean - OFFICIAL_COUNTS[task]) <= 0.03 * OFFICIAL_COUNTS[task], (task, mean)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("direction_role_orders", ("012", "013"), "permutations of '012'"),
        ("direction_triples", {"easy": 1, "hardest": 2}, "maps easy/medium/hard"),
        ("direction_triples", {"easy": -1}, "counts >= 0"),
    ],
)
def test_bad_direction_settings_name_the_field(field, value, message):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=message) as err:
        GenerationSettings.model_validate({field: value})
    assert field in str(err.value)
