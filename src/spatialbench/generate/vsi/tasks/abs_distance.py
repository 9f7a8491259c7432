"""Absolute distance (Table 3): closest-point distance between two unique objects, metres, one decimal.

Rules (``GenerationSettings``, defaults from the official data, issue 10): the question names first the
object listed later in the meta-info (``abs_distance_order``, ``object_counts`` order), and answers below
``abs_distance_min_m`` (0.4 m) are not asked (removed as ``below_min_distance``).
"""

from __future__ import annotations

from itertools import combinations

from spatialbench.generate.vsi.base import TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import numeric_candidate, unique_in_order
from spatialbench.generate.vsi.distances import category_distances
from spatialbench.generate.vsi.options import format_number
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_abs_distance"


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per pair of unique categories whose answer is at least ``abs_distance_min_m``."""
    result = TaskResult()
    pairs = list(combinations(unique_in_order(scene, settings.abs_distance_order), 2))
    distances = category_distances(scene, pairs, settings)
    rng = derived_rng(settings.seed, TASK, scene.scene_id)
    for earlier, later in pairs:
        d = distances[(earlier, later)]
        if float(format_number(d, 1)) < settings.abs_distance_min_m:
            result.removed["below_min_distance"] += 1
            continue
        flip = settings.abs_distance_order == "random" and rng.random() < 0.5
        first, second = (earlier, later) if flip else (later, earlier)
        slots = {"object_1": question_name(first), "object_2": question_name(second)}
        metadata = {"objects": [first, second], "slots": slots}
        result.candidates.append(numeric_candidate(TASK, scene, render(TASK, **slots), d, 1, metadata))
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.NUMERICAL, generate)
