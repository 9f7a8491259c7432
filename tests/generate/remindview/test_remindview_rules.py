"""Direction bins, distractor rules, name similarity, letter balance, distance levels (hand-computed)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import trimesh

from spatialbench.generate.remindview import generate_remindview, preset_config
from spatialbench.generate.remindview.choices import (
    LetterBalancer,
    PatternBalancer,
    direction_distractor_sets,
    official_distractors,
    similar,
)
from spatialbench.generate.remindview.naming import question_names
from spatialbench.generate.remindview.questions import QuestionSettings, templates
from spatialbench.generate.remindview.relations import DIRECTIONS, Viewer, bearing, gives_away
from spatialbench.prompting.templates import placeholders
from spatialbench.synth.parts import Asset, Part
from spatialbench.synth.rigs import RigSettings, level_distance
from spatialbench.synth.scene import SynthObject

EAST = Viewer(np.zeros(3), 0.0)  # at the origin facing +x


@pytest.mark.parametrize(
    ("point", "direction"),
    [
        ((2.0, 0.0), "front"),
        ((2.0, 2.0), "front-left"),  # +y is on the left of a viewer facing +x
        ((0.0, 2.0), "left"),
        ((-2.0, 0.1), "back"),
        ((-2.0, -0.1), "back"),
        ((1.0, -3.0), "right"),  # 71.6 degrees to the right (the right sector starts at 67.5)
        ((1.0, -2.0), "front-right"),  # 63.4 degrees
        ((2.0, -1.0), "front-right"),  # 26.6 degrees
        ((-1.0, -1.0), "back-right"),
    ],
)
def test_bearing_bins(point, direction):
    assert bearing(EAST, np.array([*point, 0.7])).direction == direction


def test_bearing_margin_is_the_distance_to_the_nearest_bin_edge():
    # 30 degrees to the left: front-left bin (22.5-67.5), 7.5 degrees from its edge
    found = bearing(EAST, np.array([np.cos(np.radians(30)), np.sin(np.radians(30)), 0.0]))
    assert (found.direction, round(found.margin_deg, 6)) == ("front-left", 7.5)


def test_turns_rotate_the_viewer():
    point = np.array([2.0, 0.0, 0.0])  # in front of EAST
    assert bearing(EAST.turned("left"), point).direction == "right"
    assert bearing(EAST.turned("right"), point).direction == "left"
    assert bearing(EAST.turned("back"), point).direction == "back"  # the official code's 180° turn


def test_direction_distractors_are_not_adjacent_and_never_give_the_answer_away():
    # front-left: the bins two or more steps away are front-right, right, back-right, back, back-left
    pool = {"front-right", "right", "back-right", "back", "back-left"}
    # {back, back-right} would leave front-left the only choice sharing no component with the others
    assert gives_away("front-left", ["front-left", "back", "back-right"])
    pairs = [set(p) for p in direction_distractor_sets("front-left", 2)]
    assert {"back", "back-right"} not in pairs and {"front-right", "right"} in pairs
    assert all(p <= pool for p in pairs)
    # a compound answer can have four choices (the official rule allowed it three at most)
    assert direction_distractor_sets("front-left", 3)
    assert all(not gives_away("back", ["back", *s]) for s in direction_distractor_sets("back", 3))


def test_official_direction_distractors_share_no_component_with_the_answer():
    rng = np.random.default_rng(0)
    # a compound answer has exactly three such directions: always the same four choices
    assert set(official_distractors("front-left", rng)) == {"right", "back", "back-right"}
    # a simple one has five (right, back-right, back, back-left, left); three are drawn
    drawn = [official_distractors("front", rng) for _ in range(50)]
    assert all(len(set(d)) == 3 for d in drawn)
    assert set().union(*drawn) == {"right", "back-right", "back", "back-left", "left"}


def test_the_balanced_direction_rule_is_kept_as_an_option(tmp_path):
    questions = QuestionSettings(direction_choices="balanced")
    config = preset_config(scenes=1, levels=(0,), max_targets=2, width=64, height=48, questions=questions)
    rows = generate_remindview(tmp_path / "set", config).rows
    directions = [r for r in rows if r["template"] in (9, 11, 13, 18, 20, 22)]
    assert directions
    for row in directions:
        choices = row["choices"].split(", ")
        assert not gives_away(row["ground_truth"], choices), row
    with pytest.raises(ValueError, match="official, balanced"):
        QuestionSettings(direction_choices="paper")


def test_pattern_balancer_makes_the_compound_pattern_uninformative():
    balancer, rng = PatternBalancer(), np.random.default_rng(0)
    answers = rng.choice(DIRECTIONS, size=4000)
    for answer in answers:
        balancer.pick(9, str(answer), 4, rng)
    for (_, k, c), (n, compound) in balancer.counts.items():
        assert abs(compound - c / k * n) <= 1.0, (k, c, n, compound)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("table", "coffee table", True),
        ("chair", "chair", True),
        ("trash bin", "bin", True),
        ("sofa", "chair", False),
    ],
)
def test_similar_names(a, b, expected):
    assert similar(a, b) is expected


def test_letter_balancer_stays_within_one_question_of_uniform():
    balancer = LetterBalancer(np.random.default_rng(0))
    rng = np.random.default_rng(1)
    counts, expected = Counter(), Counter()
    for _ in range(500):
        k = int(rng.choice([2, 3, 4], p=[0.185, 0.277, 0.538]))
        counts[balancer.position(7, k)] += 1
        for p in range(k):
            expected[p] += 1 / k
    assert all(abs(counts[p] - expected[p]) <= 1.0 for p in range(4))


def test_distance_levels_follow_the_paper_and_the_code():
    # D = 1 m, alpha = 3: paper d(n) = [n(alpha - 1.5) + 1.5] D; code D((alpha - 1.2) pct + 1.2)
    assert [level_distance(n, 1.0, 3.0, RigSettings().level_offset) for n in (0, 5, 10)] == [1.5, 2.25, 3.0]
    code = RigSettings.official_code().level_offset
    assert [round(level_distance(n, 1.0, 3.0, code), 9) for n in (0, 5, 10)] == [1.2, 2.1, 3.0]
    assert RigSettings().horizontal_fov_deg == 39.6 and (RigSettings().width, RigSettings().height) == (
        1024,
        768,
    )


def test_templates_are_the_22_of_table_6_with_named_placeholders():
    found = templates()
    assert [t.index for t in found] == list(range(1, 23))
    assert [t.relation for t in found].count("view-view") == 4
    assert [t.relation for t in found].count("view-object") == 10
    allowed = {"frame_1", "frame_2", "object_1", "object_2", "object_3", "direction", "turn"}
    assert all(placeholders(t.text) <= allowed for t in found)
    # the second template of its Table 6 row, numbered from 0 as the official code does
    assert found[19].query_type == "object-object|relative_direction|perspective_changing|1"


def _pillow(instance_id: int, rgb: tuple[int, int, int]) -> SynthObject:
    part = Part(trimesh.creation.box(extents=(0.5, 0.3, 0.1)), tuple(c / 255 for c in rgb))
    return SynthObject(instance_id, Asset("pillow", (part,)), np.zeros(3), 0.0)


def test_repeated_categories_are_named_by_colour_or_not_at_all():
    white, purple, purple_too = (
        _pillow(1, (246, 246, 244)),
        _pillow(2, (115, 76, 136)),
        _pillow(3, (118, 78, 132)),
    )
    assert question_names([white]) == {1: "pillow"}
    assert question_names([white, purple]) == {1: "white pillow", 2: "purple pillow"}
    # two purple pillows cannot be told apart: neither is asked about
    assert question_names([white, purple, purple_too]) == {1: "white pillow"}
    assert similar("white pillow", "purple pillow")  # never in one question (App. B.3)
