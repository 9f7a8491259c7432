"""Relative distance (Table 3, App. B.1): which of four categories is closest to a unique object.

The primary object is unique; choices may have several instances, their distance being the minimum over
instances (closest-point box distance). Rules, in order (``GenerationSettings``, defaults from the
official data, issue 10): ``not_drawn`` (by default ``rel_distance_draws`` (primary, choice set)
candidates are drawn per scene among all of them), ``too_close_to_reference`` (the correct choice within
``rel_distance_min_clearance_m`` of the primary object), ``ambiguous_gap`` (``rel_distance_gap_rule``:
two choice distances within 0.15 m, or the closest two within 0.30 m in rooms above 40 m²).
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


def is_ambiguous(distances: list[float], gap: float, rule: str = "any_pair", small_gap: float = 0.15) -> bool:
    """Tell whether a choice set is ambiguous.

    ``rule="any_pair"``: two of ``distances`` within ``gap`` of each other (the paper's words, App. B.1);
    ``"closest"``: the two smallest within ``gap``; ``"data"``: two within ``small_gap`` (the small-room
    gap) or the two smallest within ``gap`` (what every official question but one follows).
    """
    d = np.diff(np.sort(np.asarray(distances)))
    if rule == "any_pair":
        return bool(np.any(d < gap))
    return bool(d[0] < gap or (rule == "data" and np.any(d < small_gap)))


def _draw(n: int, k: int, rng: np.random.Generator) -> list[int]:
    """``min(k, n)`` distinct indices below ``n``, drawn at random, in increasing order."""
    return [int(i) for i in sorted(rng.choice(n, size=min(k, n), replace=False))]


def planned_sets(
    scene: Scene, settings: GenerationSettings, result: TaskResult
) -> list[tuple[str, tuple[str, ...]]]:
    """Return the (primary, four-choice set) candidates to judge, drawn as ``rel_distance_sampling`` says.

    The candidates not drawn are counted in ``result.removed["not_drawn"]``; primaries with fewer than
    four other categories in ``result.removed["too_few_categories"]``.
    """
    rng = derived_rng(settings.seed, TASK, scene.scene_id)
    per_primary: list[list[tuple[str, tuple[str, ...]]]] = []
    for primary in scene.unique_categories():
        others = [c for c in scene.objects if c != primary]
        if len(others) < N_CHOICES:
            result.removed["too_few_categories"] += 1
            continue
        sets = [(primary, s) for s in combinations(others, N_CHOICES)]
        if settings.rel_distance_sampling == "per_primary":
            kept = [sets[i] for i in _draw(len(sets), settings.rel_distance_sets_per_primary, rng)]
            result.removed["not_drawn"] += len(sets) - len(kept)
            sets = kept
        per_primary.append(sets)
    plans = [plan for sets in per_primary for plan in sets]
    if settings.rel_distance_sampling == "per_primary":
        return plans
    drawn = [plans[i] for i in _draw(len(plans), settings.rel_distance_draws, rng)]
    result.removed["not_drawn"] += len(plans) - len(drawn)
    return drawn


def generate(scene: Scene, settings: GenerationSettings) -> TaskResult:
    """Drawn (primary, choice set) candidates, kept when clear and unambiguous (module docstring)."""
    result = TaskResult()
    plans = planned_sets(scene, settings, result)
    needed = sorted({(p, c) for p, s in plans for c in s})
    distances = category_distances(scene, needed, settings)
    for primary, choice_set in plans:
        candidate = choice_set_candidate(scene, primary, choice_set, distances, settings)
        if isinstance(candidate, str):
            result.removed[candidate] += 1
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
) -> Candidate | str:
    """Build the question for one primary object and choice set, or name the rule that rejects it.

    Args:
        scene: the scene (its room size selects the ambiguity threshold).
        primary: the unique primary category.
        choice_set: four other categories (meta-info names).
        settings: gap rule and thresholds.
        distances: (primary, choice) -> minimum distance over instances, metres (``category_distances``).
    """
    d = [distances[(primary, c)] for c in choice_set]
    if min(d) < settings.rel_distance_min_clearance_m:
        return "too_close_to_reference"
    gap, small = ambiguity_gap(scene, settings), settings.rel_distance_gap_small_m
    if is_ambiguous(d, gap, settings.rel_distance_gap_rule, small):
        return "ambiguous_gap"
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
