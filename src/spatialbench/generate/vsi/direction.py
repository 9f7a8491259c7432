"""Relative direction, shared by the three levels (Table 3, App. B.1).

An observer stands at the *positioning* object's centre and faces the *orienting* object's centre; the
*querying* object's bearing is the signed angle, on the floor plane (x, y; z up), from the facing
direction to the querying object's centre, positive counter-clockwise (to the observer's left).
This convention reproduces every resolvable official direction question in ``official_samples``.

Which questions are asked (``GenerationSettings.direction_sampling``): by default, as the official data
shows, ``direction_triples[level]`` triples of unique objects are drawn per scene among all
combinations (``object_counts`` order), and each is asked in the role orders 012, 021 and 102; the
paper's wording reads as every ordered triple (``"permutations"``, capped per scene by the pipeline).
Which triples a scene draws: alone, or with the level's total over all scenes fixed to its expectation
(``GenerationSettings.draw_allocation``, ``generate.vsi.allocation``; ``direction_plan`` gives the
questions each combination yields).

Ambiguity rules (App. B.1 names them; values measured on the official data, in GenerationSettings), in
this order, a question counted under the first it fails: ``not_drawn`` (its triple was not drawn),
``too_close`` / ``too_far`` (two of the three objects nearer than ``direction_min_distance_m`` or farther
than ``direction_max_distance_m``), ``corner_sector`` (more than ``direction_vertex_limit`` corners of the
querying box in another answer sector than its centre), ``angle_boundary`` (the bearing within
``direction_angle_margin_deg`` of a boundary between answers; one-sided for the hard level by default),
``easy_back_zone`` (easy level: the querying object behind the observer, ``direction_easy_max_turn_deg``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, permutations

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.vsi.allocation import DrawPlan
from spatialbench.generate.vsi.base import TaskResult
from spatialbench.generate.vsi.candidates import choice_candidate, unique_in_order
from spatialbench.generate.vsi.distances import category_distances
from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.generate.vsi.templates import render
from spatialbench.scene.categories import question_name
from spatialbench.scene.model import Scene

Labeller = Callable[[float, GenerationSettings], str]
Triple = tuple[str, str, str]


def bearing_deg(
    positioning: NDArray[np.float64], orienting: NDArray[np.float64], querying: NDArray[np.float64]
) -> NDArray[np.float64]:
    """Signed bearing(s) in degrees, (-180, 180], of querying seen from positioning facing orienting.

    Args:
        positioning: (..., 2) or (..., 3) observer position(s); only x and y are used (broadcast).
        orienting: the point(s) the observer faces, broadcastable to the same shape.
        querying: the point(s) whose bearing is returned, broadcastable to the same shape.
    """
    f = orienting[..., :2] - positioning[..., :2]
    v = querying[..., :2] - positioning[..., :2]
    cross = f[..., 0] * v[..., 1] - f[..., 1] * v[..., 0]
    return np.degrees(np.arctan2(cross, np.sum(f * v, axis=-1)))


#: Answers of each level by answer sector, counter-clockwise from straight ahead (``sectors``).
SECTOR_ANSWERS = {
    "easy": ("left", "right"),
    "medium": ("left", "back", "right"),
    "hard": ("front-left", "back-left", "back-right", "front-right"),
}


def _sector_answer(level: str, angle: float, settings: GenerationSettings) -> str:
    return SECTOR_ANSWERS[level][int(sectors(np.array([angle]), level, settings)[0])]


def easy_label(angle: float, settings: GenerationSettings) -> str:
    """Easy level: left (counter-clockwise bearing in [0°, 180°)) or right."""
    return _sector_answer("easy", angle, settings)


def medium_label(angle: float, settings: GenerationSettings) -> str:
    """Medium level: back for a turn of ``direction_back_deg`` or more (ccw [135°, 225°)), else left/right."""
    return _sector_answer("medium", angle, settings)


def hard_label(angle: float, settings: GenerationSettings) -> str:
    """Hard level: the quadrant, ccw from ahead: front-left [0°, 90°), back-left, back-right, front-right.

    Exactly straight ahead is front-left and exactly behind back-right, as the official sectors count
    (with the one-sided margin such bearings are asked).
    """
    return _sector_answer("hard", angle, settings)


def boundaries(level: str, settings: GenerationSettings) -> NDArray[np.float64]:
    """Counter-clockwise bearings in [0, 360] (degrees) separating two answers of ``level``."""
    back = settings.direction_back_deg
    return np.array(
        {"easy": [0.0, 180.0, 360.0], "medium": [0.0, back, 360.0 - back, 360.0]}.get(
            level, [0.0, 90.0, 180.0, 270.0, 360.0]
        )
    )


def sectors(angles: NDArray[np.float64], level: str, settings: GenerationSettings) -> NDArray[np.int64]:
    """Answer sector index of each signed bearing (degrees) at ``level`` (``SECTOR_ANSWERS`` order).

    Sectors are half-open counter-clockwise intervals [boundary, next boundary) of the bearing in [0, 360).
    """
    return np.digitize(np.mod(angles, 360.0), boundaries(level, settings)[1:-1])


def near_boundary(angles: NDArray[np.float64], level: str, settings: GenerationSettings) -> NDArray[np.bool_]:
    """Tell, per bearing, whether it lies within the angle margin of an answer boundary.

    ``direction_hard_margin="one_sided"``: at the hard level only the margin counter-clockwise *before*
    each boundary counts (the official data has hard questions 1° past a boundary, none just before).
    """
    ccw = np.mod(angles, 360.0)[:, None]
    edges = boundaries(level, settings)[None, :]
    if level == "hard" and settings.direction_hard_margin == "one_sided":
        ahead = np.where(edges > ccw, edges - ccw, np.inf)
        return np.asarray(ahead.min(axis=1) < settings.direction_angle_margin_deg)
    return np.asarray(np.abs(ccw - edges).min(axis=1) < settings.direction_angle_margin_deg)


def in_easy_back_zone(angles: NDArray[np.float64], settings: GenerationSettings) -> NDArray[np.bool_]:
    """Tell, per bearing, whether an easy question would ask about an object behind the observer.

    Behind: a turn of at least ``direction_easy_max_turn_deg`` less the angle margin (125° by default;
    no official easy question has a bearing beyond 115°, 4 to 5 of 38 expected otherwise).
    """
    limit = settings.direction_easy_max_turn_deg
    if limit is None:
        return np.zeros(len(angles), dtype=bool)
    return np.asarray(np.abs(angles) >= limit - settings.direction_angle_margin_deg)


def _combos(scene: Scene) -> list[Triple]:
    """Every triple of unique objects, in ``object_counts`` order (the units the role triples draw)."""
    return list(combinations(unique_in_order(scene, "counts"), 3))


def _in_role_orders(combos: list[Triple], settings: GenerationSettings) -> list[Triple]:
    """Each combination asked in every role order of ``direction_role_orders`` (combination-major)."""
    orders = [tuple(int(ch) for ch in order) for order in settings.direction_role_orders]
    return [(t[a], t[b], t[c]) for t in combos for a, b, c in orders]


def planned_triples(
    scene: Scene, task: str, level: str, settings: GenerationSettings, drawn: Sequence[int] | None = None
) -> tuple[list[Triple], int]:
    """Return the ordered (positioning, orienting, querying) triples to ask and how many were not drawn.

    ``drawn``: indices of the combinations to ask (an allocation across scenes); None: the
    ``direction_triples[level]`` combinations drawn independently for this scene.
    """
    if settings.direction_sampling == "permutations":
        return list(permutations(scene.unique_categories(), 3)), 0
    combos = _combos(scene)
    if drawn is None:
        k = min(settings.direction_triples.get(level, 0), len(combos))
        drawn = sorted(
            derived_rng(settings.seed, task, scene.scene_id).choice(len(combos), size=k, replace=False)
        )
    triples = _in_role_orders([combos[i] for i in drawn], settings)
    return triples, (len(combos) - len(drawn)) * len(settings.direction_role_orders)


def direction_plan(scene: Scene, level: str, settings: GenerationSettings) -> DrawPlan | None:
    """Return the combinations with the questions each yields after the rules (None: ``"permutations"``)."""
    if settings.direction_sampling == "permutations":
        return None
    combos = _combos(scene)
    triples = _in_role_orders(combos, settings)
    kept = np.zeros(len(triples), dtype=bool)
    if triples:
        masks = rule_masks(scene, triples, _bearings(scene, triples), level, settings).values()
        kept = ~np.logical_or.reduce(list(masks))
    yields = kept.reshape(len(combos), len(settings.direction_role_orders)).sum(axis=1)
    return DrawPlan(yields.astype(np.int64), min(settings.direction_triples.get(level, 0), len(combos)))


def _points(scene: Scene, triples: list[Triple], role: int, corners: bool = False) -> NDArray[np.float64]:
    """(T, 3) centres of the objects in ``role``; with ``corners`` (T, 9, 3): centre then 8 corners."""
    boxes = {c: scene.unique_box(c) for c in {t[role] for t in triples}}
    table = {c: np.vstack([b.center, b.corners()]) if corners else b.center for c, b in boxes.items()}
    return np.array([table[t[role]] for t in triples])


def _bearings(scene: Scene, triples: list[Triple]) -> NDArray[np.float64]:
    """(T,) bearing (degrees) of each triple's querying object (``bearing_deg`` of the centres)."""
    return bearing_deg(*(_points(scene, triples, role) for role in range(3)))


def _pair_distances(scene: Scene, triples: list[Triple], settings: GenerationSettings) -> NDArray[np.float64]:
    """(T, 3) distances (m) of the pairs (0, 1), (0, 2), (1, 2) of each triple (box or centre distance)."""
    pairs = [(t[i], t[j]) for t in triples for i, j in ((0, 1), (0, 2), (1, 2))]
    if settings.direction_distance == "box":
        lookup = category_distances(scene, sorted(set(pairs)), settings, settings.rule_distance_method)
        return np.array([lookup[p] for p in pairs]).reshape(-1, 3)
    centre = {c: scene.unique_box(c).center[:2] for t in triples for c in t}
    return np.array([np.linalg.norm(centre[a] - centre[b]) for a, b in pairs]).reshape(-1, 3)


def _corner_outliers(
    scene: Scene, triples: list[Triple], level: str, settings: GenerationSettings
) -> NDArray[np.int64]:
    """(T,) number of corners of the querying box in another answer sector than its centre."""
    pos, ori = (_points(scene, triples, role)[:, None, :] for role in (0, 1))
    query = _points(scene, triples, 2, corners=True)
    sector = sectors(bearing_deg(pos, ori, query), level, settings)  # (T, 9): centre then 8 corners
    return np.asarray((sector[:, 1:] != sector[:, :1]).sum(axis=1))


def rule_masks(
    scene: Scene, triples: list[Triple], angles: NDArray[np.float64], level: str, settings: GenerationSettings
) -> dict[str, NDArray[np.bool_]]:
    """Rule name -> (T,) mask of the questions it removes, each question under the first rule it fails."""
    dist = _pair_distances(scene, triples, settings)
    tests: dict[str, Callable[[], NDArray[np.bool_]]] = {
        "too_close": lambda: dist.min(axis=1) < settings.direction_min_distance_m,
        "too_far": lambda: dist.max(axis=1) > settings.direction_max_distance_m,
    }
    if settings.direction_vertex_limit is not None:
        limit = settings.direction_vertex_limit
        tests["corner_sector"] = lambda: _corner_outliers(scene, triples, level, settings) > limit
    tests["angle_boundary"] = lambda: near_boundary(angles, level, settings)
    if level == "easy":
        tests["easy_back_zone"] = lambda: in_easy_back_zone(angles, settings)
    masks: dict[str, NDArray[np.bool_]] = {}
    removed = np.zeros(len(triples), dtype=bool)
    for rule, test in tests.items():
        masks[rule] = ~removed & test()
        removed |= masks[rule]
    return masks


def direction_candidates(
    scene: Scene,
    task: str,
    level: str,
    choices: tuple[str, ...],
    label: Labeller,
    settings: GenerationSettings,
    drawn: Sequence[int] | None = None,
) -> TaskResult:
    """Return the unambiguous questions of one level about one scene (rules in the module docstring).

    ``drawn``: the combinations to ask (indices into the ``object_counts``-order combinations), as an
    allocation across scenes chose them; None: drawn for this scene alone.
    """
    result = TaskResult()
    triples, not_drawn = planned_triples(scene, task, level, settings, drawn)
    if not_drawn:
        result.removed["not_drawn"] += not_drawn
    if not triples:
        return result
    angles = _bearings(scene, triples)
    kept = np.ones(len(triples), dtype=bool)
    for rule, mask in rule_masks(scene, triples, angles, level, settings).items():
        result.removed[rule] += int(mask.sum())
        kept &= ~mask
    for k in np.flatnonzero(kept):
        names = dict(zip(("positioning", "orienting", "querying"), triples[k], strict=True))
        question = render(task, **{role: question_name(c) for role, c in names.items()})
        slots = {f"{role}_object": question_name(c) for role, c in names.items()}
        metadata = {"objects": list(triples[k]), "bearing_deg": round(float(angles[k]), 3), "slots": slots}
        answer = label(float(angles[k]), settings)
        result.candidates.append(choice_candidate(task, scene, question, answer, choices, metadata))
    return result
