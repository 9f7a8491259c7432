"""Relative direction, shared by the three levels (Table 3, App. B.1).

An observer stands at the *positioning* object's centre and faces the *orienting* object's centre; the
*querying* object's bearing is the signed angle, on the floor plane (x, y; z up), from the facing
direction to the querying object's centre, positive counter-clockwise (to the observer's left).
This convention reproduces every resolvable official direction question in ``official_samples``.

Ambiguity rules (App. B.1 names them; the values are ours, in GenerationSettings):
``too_close``: two of the three centres closer than ``direction_min_distance_m`` on the floor plane;
``too_far``: two farther apart than ``direction_max_distance_m``; ``angle_boundary``: the bearing within
``direction_angle_margin_deg`` of a boundary between two answers of the level. A triple is counted under
the first rule it fails, in that order.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.vsi.base import TaskResult
from spatialbench.generate.vsi.candidates import choice_candidate
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

Labeller = Callable[[float, GenerationSettings], str]


def bearing_deg(
    positioning: NDArray[np.float64], orienting: NDArray[np.float64], querying: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Signed bearing(s) in degrees, (-180, 180], of querying seen from positioning facing orienting.

    Args:
        positioning: (..., 2) or (..., 3) observer position(s); only x and y are used.
        orienting: same shape, the point(s) the observer faces.
        querying: same shape, the point(s) whose bearing is returned.
    """
    f = orienting[..., :2] - positioning[..., :2]
    v = querying[..., :2] - positioning[..., :2]
    cross = f[..., 0] * v[..., 1] - f[..., 1] * v[..., 0]
    return np.degrees(np.arctan2(cross, np.sum(f * v, axis=-1)))


def easy_label(angle: float, settings: GenerationSettings) -> str:
    """Easy level: left or right of the facing direction."""
    return "left" if angle > 0 else "right"


def medium_label(angle: float, settings: GenerationSettings) -> str:
    """Medium level: back when a turn of at least ``direction_back_deg`` (135°) is needed, else left/right."""
    if abs(angle) >= settings.direction_back_deg:
        return "back"
    return "left" if angle > 0 else "right"


def hard_label(angle: float, settings: GenerationSettings) -> str:
    """Hard level: quadrant with the observer at the origin facing +y (front = |angle| < 90°)."""
    return ("front-" if abs(angle) < 90.0 else "back-") + ("left" if angle > 0 else "right")


def boundaries(level: str, settings: GenerationSettings) -> NDArray[np.float64]:
    """Bearings (degrees) separating two answers of ``level``."""
    back = settings.direction_back_deg
    return np.array(
        {
            "easy": [0.0, 180.0, -180.0],
            "medium": [0.0, back, -back],
            "hard": [0.0, 90.0, -90.0, 180.0, -180.0],
        }[level]
    )


def _floor_distances(points: NDArray[np.float64]) -> NDArray[np.float64]:
    """(T,) smallest and largest pairwise floor distances of (T, 3, 3) triples, as (T, 2)."""
    pairs = [(0, 1), (0, 2), (1, 2)]
    d = np.stack([np.linalg.norm(points[:, i, :2] - points[:, j, :2], axis=-1) for i, j in pairs], axis=1)
    return np.stack([d.min(axis=1), d.max(axis=1)], axis=1)


def direction_candidates(
    scene: Scene,
    task: str,
    level: str,
    choices: tuple[str, ...],
    label: Labeller,
    settings: GenerationSettings,
) -> TaskResult:
    """All unambiguous (positioning, orienting, querying) triples of distinct unique objects."""
    result = TaskResult()
    unique = scene.unique_categories()
    triples = list(permutations(unique, 3))
    if not triples:
        return result
    centers = {c: scene.unique_box(c).center for c in unique}
    pts = np.array([[centers[c] for c in t] for t in triples])  # (T, 3 objects, 3)
    angles = bearing_deg(pts[:, 0], pts[:, 1], pts[:, 2])
    extremes = _floor_distances(pts)
    too_close = extremes[:, 0] < settings.direction_min_distance_m
    too_far = ~too_close & (extremes[:, 1] > settings.direction_max_distance_m)
    bad_distance = too_close | too_far
    margin = np.abs(angles[:, None] - boundaries(level, settings)[None, :]).min(axis=1)
    near_boundary = margin < settings.direction_angle_margin_deg
    result.removed["too_close"] += int(too_close.sum())
    result.removed["too_far"] += int(too_far.sum())
    result.removed["angle_boundary"] += int((near_boundary & ~bad_distance).sum())
    for k in np.flatnonzero(~bad_distance & ~near_boundary):
        positioning, orienting, querying = triples[k]
        names = {"positioning": positioning, "orienting": orienting, "querying": querying}
        question = render(task, **{role: question_name(c) for role, c in names.items()})
        metadata = {"objects": [positioning, orienting, querying], "bearing_deg": round(float(angles[k]), 3)}
        answer = label(float(angles[k]), settings)
        result.candidates.append(choice_candidate(task, scene, question, answer, choices, metadata))
    return result
