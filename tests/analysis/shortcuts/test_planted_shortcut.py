"""A planted text-only shortcut is flagged; the same benchmark without it scores near chance."""

from __future__ import annotations

import numpy as np

from spatialbench.analysis.shortcuts import stress_test
from support.planted_shortcuts import planted_choices, planted_sizes


def test_planted_answer_object_is_far_above_chance_and_ranked_first():
    items, marked = planted_choices(400, planted=True)
    result = stress_test(items, "random")
    task = result.tasks["object_rel_distance"]
    assert task.chance == 25.0
    assert task.score > 55.0  # half the items are answered by "lamp": ~62.5 % reachable text-only
    ranked = sorted(result.items, key=lambda i: (-round(result.items[i], 12), i))
    top = ranked[: len(marked) // 2]
    assert sum(i in marked for i in top) / len(top) > 0.95


def test_without_the_shortcut_relative_distance_is_near_chance():
    items, _ = planted_choices(400, planted=False)
    task = stress_test(items, "random").tasks["object_rel_distance"]
    assert abs(task.score - 25.0) < 8.0


def test_planted_sizes_far_above_the_constant_baseline_and_control_near_it():
    planted = stress_test(planted_sizes(300, planted=True), "grouped").tasks["object_size_estimation"]
    control = stress_test(planted_sizes(300, planted=False), "grouped").tasks["object_size_estimation"]
    assert planted.score > 85.0 and planted.score - planted.chance > 50.0
    assert abs(control.score - control.chance) < 10.0


def test_scores_are_per_item_probabilities_of_the_gold_answer():
    items, _ = planted_choices(200, planted=True)
    values = np.array(list(stress_test(items, "random").items.values()))
    assert len(values) == 200 and values.min() >= 0.0 and values.max() <= 1.0
