"""Absolute distance (Table 3): closest-point distance between two unique objects, metres, one decimal."""

from __future__ import annotations

from itertools import combinations

from spatialbench.generate.vsi.base import TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import numeric_candidate
from spatialbench.generate.vsi.distances import category_distances
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_abs_distance"
MIN_DISTANCE_M = 0.05  # rounds to "0.0" or "0.1": not a meaningful question and MRA divides by the truth


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """One question per pair of unique categories; the pair's order in the text is drawn at random."""
    result = TaskResult()
    pairs = list(combinations(scene.unique_categories(), 2))
    distances = category_distances(scene, pairs, settings)
    rng = derived_rng(settings.seed, TASK, scene.scene_id)
    for a, b in pairs:
        d = distances[(a, b)]
        if d < MIN_DISTANCE_M:
            result.removed["touching"] += 1
            continue
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        question = render(TASK, object_1=question_name(first), object_2=question_name(second))
        result.candidates.append(numeric_candidate(TASK, scene, question, d, 1, {"objects": [first, second]}))
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.NUMERICAL, generate)
