"""Relative distance (Table 3, App. B.1): which of four categories is closest to a unique object.

The primary object is unique; choices may have several instances, their distance being the minimum over
instances (closest-point box distance). Rules, in order (``GenerationSettings``, defaults from the
official data, issue 10): ``not_drawn`` (by default ``rel_distance_draws`` (primary, choice set)
candidates are drawn per scene among all of them, alone or with the total over all scenes fixed to
its expectation, ``draw_allocation``), ``too_close_to_reference`` (the correct choice within
``rel_distance_min_clearance_m`` of the primary object), ``ambiguous_gap`` (``rel_distance_gap_rule``:
two choice distances within 0.15 m, or the closest two within 0.30 m in rooms above 40 m²).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from itertools import accumulate, combinations
from math import comb

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.vsi.allocation import DrawPlan
from spatialbench.generate.vsi.base import Candidate, Drawing, TaskGenerator, TaskResult
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
Plan = tuple[str, tuple[str, ...]]


def ambiguity_gap(scene: Scene, settings: GenerationSettings) -> float:
    """Minimum separation (m) of choice distances for this scene's room size (App. B.1)."""
    large = scene.room_size > settings.rel_distance_large_room_m2
    return settings.rel_distance_gap_large_m if large else settings.rel_distance_gap_small_m


def ambiguous_rows(
    distances: NDArray[np.float64], gap: float, rule: str = "any_pair", small_gap: float = 0.15
) -> NDArray[np.bool_]:
    """Tell, per row of (n, 4) choice distances (metres), whether the choice set is ambiguous.

    ``rule="any_pair"``: two of the distances within ``gap`` of each other (the paper's words, App. B.1);
    ``"closest"``: the two smallest within ``gap``; ``"data"``: two within ``small_gap`` (the small-room
    gap) or the two smallest within ``gap`` (what every official question but one follows).
    """
    d = np.diff(np.sort(distances, axis=1), axis=1)
    if rule == "any_pair":
        return np.asarray((d < gap).any(axis=1))
    closest = d[:, 0] < gap
    return np.asarray(closest | (d < small_gap).any(axis=1)) if rule == "data" else closest


def is_ambiguous(distances: list[float], gap: float, rule: str = "any_pair", small_gap: float = 0.15) -> bool:
    """Tell whether one choice set is ambiguous (:func:`ambiguous_rows` of its distances, metres)."""
    return bool(ambiguous_rows(np.asarray([distances], dtype=float), gap, rule, small_gap)[0])


#: Rules a judged choice set can fail, in the order they are checked (``failed_rule`` numbers them from 1).
RULES = ("too_close_to_reference", "ambiguous_gap")


def failed_rule(
    distances: NDArray[np.float64], scene: Scene, settings: GenerationSettings
) -> NDArray[np.int64]:
    """(n,) first rule each row of (n, 4) choice distances (m) fails: 0 none, k ``RULES[k - 1]``."""
    close = distances.min(axis=1) < settings.rel_distance_min_clearance_m
    gap, small = ambiguity_gap(scene, settings), settings.rel_distance_gap_small_m
    ambiguous = ambiguous_rows(distances, gap, settings.rel_distance_gap_rule, small)
    return np.where(close, 1, np.where(ambiguous, 2, 0)).astype(np.int64)


def _draw(n: int, k: int, rng: np.random.Generator) -> list[int]:
    """``min(k, n)`` distinct indices below ``n``, drawn at random, in increasing order."""
    return [int(i) for i in sorted(rng.choice(n, size=min(k, n), replace=False))]


@cache
def _combination_rows(n: int) -> NDArray[np.int64]:
    """(C(n, 4), 4) indices of every four of ``n`` items, in ``itertools.combinations`` order."""
    return np.array(list(combinations(range(n), N_CHOICES)), dtype=np.int64).reshape(-1, N_CHOICES)


def primaries(scene: Scene, result: TaskResult | None = None) -> list[tuple[str, list[str]]]:
    """Return the unique primary objects (meta-info order), each with its other categories.

    The candidates of a scene are, primary after primary, every four of its others in
    ``itertools.combinations`` order. Primaries with fewer than four others are left out and counted in
    ``result.removed["too_few_categories"]``.
    """
    units = []
    for primary in scene.unique_categories():
        others = [c for c in scene.objects if c != primary]
        if len(others) >= N_CHOICES:
            units.append((primary, others))
        elif result is not None:
            result.removed["too_few_categories"] += 1
    return units


def planned_sets(
    scene: Scene, settings: GenerationSettings, result: TaskResult, drawn: Sequence[int] | None = None
) -> list[Plan]:
    """Return the (primary, four-choice set) candidates to judge, drawn as ``rel_distance_sampling`` says.

    ``drawn``: indices into all the scene's candidates (``primaries`` order) chosen by an allocation
    across scenes; None: drawn for this scene alone. The candidates not drawn are counted in
    ``result.removed["not_drawn"]``; primaries with fewer than four other categories in
    ``result.removed["too_few_categories"]``.
    """
    rng = derived_rng(settings.seed, TASK, scene.scene_id)
    units = primaries(scene, result)
    sizes = [comb(len(others), N_CHOICES) for _, others in units]
    starts = [0, *accumulate(sizes)][:-1]
    if settings.rel_distance_sampling == "per_primary":
        per = settings.rel_distance_sets_per_primary
        drawn = [start + i for start, n in zip(starts, sizes, strict=True) for i in _draw(n, per, rng)]
    elif drawn is None:
        drawn = _draw(sum(sizes), settings.rel_distance_draws, rng)
    result.removed["not_drawn"] += sum(sizes) - len(drawn)
    plans = []
    for index in drawn:
        k = bisect_right(starts, index) - 1
        primary, others = units[k]
        plans.append((primary, tuple(others[j] for j in _combination_rows(len(others))[index - starts[k]])))
    return plans


def _distances(scene: Scene, plans: list[Plan], settings: GenerationSettings) -> dict[tuple[str, str], float]:
    needed = sorted({(p, c) for p, s in plans for c in s})
    return category_distances(scene, needed, settings, settings.rule_distance_method)


def rel_distance_plan(scene: Scene, settings: GenerationSettings) -> DrawPlan | None:
    """Return every candidate with the questions it yields (1: passes the rules; None: ``"per_primary"``)."""
    if settings.rel_distance_sampling == "per_primary":
        return None
    units = primaries(scene)
    pairs = [(p, c) for p, others in units for c in others]
    lookup = category_distances(scene, pairs, settings, settings.rule_distance_method) if pairs else {}
    tables = [
        np.array([lookup[(p, c)] for c in others])[_combination_rows(len(others))] for p, others in units
    ]
    table = np.concatenate(tables) if tables else np.zeros((0, N_CHOICES))
    yields = (failed_rule(table, scene, settings) == 0).astype(np.int64)
    return DrawPlan(yields, min(settings.rel_distance_draws, len(yields)))


def generate(scene: Scene, settings: GenerationSettings, drawn: Sequence[int] | None = None) -> TaskResult:
    """Drawn (primary, choice set) candidates, kept when clear and unambiguous (module docstring)."""
    result = TaskResult()
    plans = planned_sets(scene, settings, result, drawn)
    distances = _distances(scene, plans, settings)
    for primary, choice_set in plans:
        candidate = choice_set_candidate(scene, primary, choice_set, distances, settings)
        if isinstance(candidate, str):
            result.removed[candidate] += 1
        else:
            result.candidates.append(candidate)
    return result


GENERATOR = TaskGenerator(TASK, AnswerKind.MULTIPLE_CHOICE, generate, Drawing(rel_distance_plan, generate))


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
    rule = int(failed_rule(np.array([d]), scene, settings)[0])
    if rule:
        return RULES[rule - 1]
    return choice_candidate(
        TASK,
        scene,
        render(TASK, category=question_name(primary)),
        answer=question_name(choice_set[int(np.argmin(d))]),
        choices=tuple(map(question_name, choice_set)),
        metadata={
            "primary": primary,
            "slots": {"target_object": question_name(primary)},
            "distances": {c: round(x, 4) for c, x in zip(choice_set, d, strict=True)},
        },
    )
