"""Relative distance (Table 3, App. B.1): which of four categories is closest to a unique object.

The primary object is unique; choices may have several instances, their distance being the minimum over
instances (closest-point box distance). A question is ambiguous when two of the four choice distances
lie within 0.30 m (rooms above 40 m²) or 0.15 m (otherwise) of each other.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from spatialbench.generate.vsi.base import Candidate, TaskGenerator, TaskResult
from spatialbench.generate.vsi.candidates import choice_candidate
from spatialbench.generate.vsi.distances import category_distances
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.records.item import AnswerKind
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

TASK = "object_rel_distance"
N_CHOICES = 4


def ambiguity_gap(scene: Scene, settings: GenerationSettings) -> float:
    """Minimum separation (m) of choice distances for this scene's room size (App. B.1)."""
    large = scene.room_size > settings.rel_distance_large_room_m2
    return settings.rel_distance_gap_large_m if large else settings.rel_distance_gap_small_m


def is_ambiguous(distances: list[float], gap: float, rule: str = "any_pair") -> bool:
    """Tell whether a choice set is ambiguous.

    True when two of ``distances`` are within ``gap`` of each other (``rule="any_pair"``, App. B.1), or
    the two smallest are (``rule="closest"``, what the official data follows).
    """
    d = np.diff(np.sort(np.asarray(distances)))
    return bool(np.any(d < gap) if rule == "any_pair" else d[0] < gap)


def _choice_sets(
    others: list[str], settings: GenerationSettings, rng: np.random.Generator
) -> list[tuple[str, ...]]:
    """Up to ``rel_distance_sets_per_primary`` distinct random 4-sets of ``others``, in sorted order."""
    all_sets = list(combinations(others, N_CHOICES))
    k = min(settings.rel_distance_sets_per_primary, len(all_sets))
    return [all_sets[i] for i in sorted(rng.choice(len(all_sets), size=k, replace=False))]


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """Random choice sets per unique primary object, kept when unambiguous."""
    result = TaskResult()
    rng = derived_rng(settings.seed, TASK, scene.scene_id)
    plans: list[tuple[str, tuple[str, ...]]] = []
    for primary in scene.unique_categories():
        others = [c for c in scene.objects if c != primary]
        if len(others) < N_CHOICES:
            result.removed["too_few_categories"] += 1
            continue
        plans.extend((primary, s) for s in _choice_sets(others, settings, rng))
    needed = sorted({(p, c) for p, s in plans for c in s})
    distances = category_distances(scene, needed, settings)
    for primary, choice_set in plans:
        candidate = choice_set_candidate(scene, primary, choice_set, distances, settings)
        if candidate is None:
            result.removed["ambiguous_gap"] += 1
        else:
            result.candidates.append(candidate)
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.MULTIPLE_CHOICE, generate)


def choice_set_candidate(
    scene: Scene,
    primary: str,
    choice_set: tuple[str, ...],
    distances: dict[tuple[str, str], float],
    settings: GenerationSettings,
) -> Candidate | None:
    """Build the question for one primary object and choice set, or None when it is ambiguous.

    Args:
        scene: the scene (its room size selects the ambiguity threshold).
        primary: the unique primary category.
        choice_set: four other categories (meta-info names).
        settings: gap rule and thresholds.
        distances: (primary, choice) -> minimum distance over instances, metres (``category_distances``).
    """
    d = [distances[(primary, c)] for c in choice_set]
    if is_ambiguous(d, ambiguity_gap(scene, settings), settings.rel_distance_gap_rule):
        return None
    return choice_candidate(
        TASK,
        scene,
        render(TASK, category=question_name(primary)),
        answer=question_name(choice_set[int(np.argmin(d))]),
        choices=tuple(map(question_name, choice_set)),
        metadata={
            "primary": primary,
            "distances": {c: round(x, 4) for c, x in zip(choice_set, d, strict=True)},
        },
    )
