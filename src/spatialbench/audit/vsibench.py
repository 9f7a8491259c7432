"""Audit VSI-Bench answers against the scene meta-information (issue 3, item 6).

Each question is parsed with its template, its objects are looked up in the scene, and the answer is
recomputed with the generator's own rules (``generate.vsi``). A question is ``agree`` / ``disagree``
when it can be recomputed, ``unresolved`` otherwise (unknown scene, unparsable wording, a category not in
the scene or not unique where the task needs it); tasks not derived from meta-info (appearance order,
route planning) are ``skipped``. Numerical tasks also record the signed difference recomputed − official
(absolute distance unrounded, in metres; the others after official rounding). A relative-distance question
whose options are not the objects its text lists is a disagreement whatever its letter (``reason`` says why).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from spatialbench.audit.parse import parse_question
from spatialbench.errors import SpatialBenchError
from spatialbench.generate.vsi.direction import bearing_deg, easy_label, hard_label, medium_label
from spatialbench.generate.vsi.distances import category_distances
from spatialbench.generate.vsi.options import format_number
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.records.item import Item
from spatialbench.scene.categories import scene_category
from spatialbench.scene.model import Scene


class Unresolvable(SpatialBenchError):
    """The question cannot be recomputed from this scene; the message says why."""


@dataclass(frozen=True)
class Recomputed:
    """A recomputed answer: ``answer`` compares to the official ground truth (a letter or number text)."""

    answer: str | None
    difference: float | None = None  # numerical tasks: recomputed − official
    details: Mapping[str, Any] = field(default_factory=dict)
    defect: str = ""  # a flaw of the question itself that makes it a disagreement whatever the letter


@dataclass(frozen=True)
class AuditRecord:
    """The audit of one question."""

    id: str
    task: str
    scene_id: str
    status: str  # agree | disagree | unresolved | skipped
    official: str
    recomputed: str | None = None
    difference: float | None = None
    reason: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)


Recompute = Callable[[Item, dict[str, str], Scene, GenerationSettings], Recomputed]


def _category(scene: Scene, name: str) -> str:
    """Return the scene category a question's name refers to (through the remapping table)."""
    category = scene_category(scene, name)
    if category is None:
        raise Unresolvable(f"category {name!r} not in scene {scene.scene_id}")
    return category


def _unique(scene: Scene, name: str) -> str:
    category = _category(scene, name)
    if category not in scene.unique_categories():
        raise Unresolvable(
            f"category {category!r} is not unique in scene {scene.scene_id} (count {scene.count(category)})"
        )
    return category


def _letter_of(item: Item, text: str) -> str:
    for i, option in enumerate(item.options):
        if option.split(". ", 1)[-1].strip().lower() == text.lower():
            return chr(ord("A") + i)
    raise Unresolvable(f"recomputed answer {text!r} is not among the options {list(item.options)}")


def _official_number(item: Item) -> float:
    # the loader refuses these rows; items built another way must not crash the whole audit
    try:
        official = float(item.ground_truth)
    except ValueError:
        official = math.nan
    if not math.isfinite(official):
        raise Unresolvable(f"official ground truth {item.ground_truth!r} is not a finite number")
    return official


def _numeric(recomputed: float, decimals: int, item: Item, raw: float | None = None) -> Recomputed:
    text = format_number(recomputed, decimals)
    official = _official_number(item)
    diff = (raw if raw is not None else float(text)) - official
    return Recomputed(text, diff, {"value": round(raw if raw is not None else recomputed, 4)})


def _counting(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
    return _numeric(scene.count(_category(scene, f["category"])), 0, item)


def _size(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
    return _numeric(scene.unique_box(_unique(scene, f["category"])).longest_side * 100.0, 0, item)


def _room(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
    return _numeric(scene.room_size, 1, item)


def _abs_distance(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
    a, b = _unique(scene, f["object_1"]), _unique(scene, f["object_2"])
    d = category_distances(scene, [(a, b)], s)[(a, b)]
    return _numeric(d, 1, item, raw=d)


def _rel_distance(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
    primary = _unique(scene, f["category"])
    names = [f[k] for k in ("choice_a", "choice_b", "choice_c", "choice_d")]
    choices = [_category(scene, n) for n in names]
    dist = category_distances(scene, [(primary, c) for c in choices], s)
    d = [dist[(primary, c)] for c in choices]
    details = {"distances": {n: round(x, 3) for n, x in zip(names, d, strict=True)}}
    shown = [o.split(". ", 1)[-1].strip() for o in item.options]
    if sorted(shown) != sorted(names):
        # the options must offer exactly the objects the question lists; otherwise no letter is right
        closest = names[int(np.argmin(d))]
        return Recomputed(
            _letter_of(item, closest) if closest in shown else None,
            details=details,
            defect=f"options {shown} do not match the question's choices {names}",
        )
    return Recomputed(_letter_of(item, names[int(np.argmin(d))]), details=details)


def _direction(label: Callable[[float, GenerationSettings], str]) -> Recompute:
    def recompute(item: Item, f: dict[str, str], scene: Scene, s: GenerationSettings) -> Recomputed:
        p, o, q = (
            scene.unique_box(_unique(scene, f[k])).center for k in ("positioning", "orienting", "querying")
        )
        angle = float(bearing_deg(p, o, q))
        return Recomputed(_letter_of(item, label(angle, s)), details={"bearing_deg": round(angle, 2)})

    return recompute


RECOMPUTE: dict[str, Recompute] = {
    "object_counting": _counting,
    "object_size_estimation": _size,
    "room_size_estimation": _room,
    "object_abs_distance": _abs_distance,
    "object_rel_distance": _rel_distance,
    "object_rel_direction_easy": _direction(easy_label),
    "object_rel_direction_medium": _direction(medium_label),
    "object_rel_direction_hard": _direction(hard_label),
}


def audit_item(item: Item, scenes: Mapping[str, Scene], settings: GenerationSettings) -> AuditRecord:
    """Recompute one question's answer and compare it with the official ground truth."""
    base = AuditRecord(item.id, item.task, item.scene_id or "", status="skipped", official=item.ground_truth)
    recompute = RECOMPUTE.get(item.task)
    if recompute is None:
        return replace(base, reason="task not derived from meta-information")
    scene = scenes.get(item.scene_id or "")
    fields = parse_question(item.task, item.question)
    try:
        if scene is None:
            raise Unresolvable(f"scene {item.scene_id!r} not in the meta-info")
        if fields is None:
            raise Unresolvable("question does not follow the official template")
        result = recompute(item, fields, scene, settings)
    except Unresolvable as err:
        return replace(base, status="unresolved", reason=str(err))
    status = "agree" if result.answer == item.ground_truth and not result.defect else "disagree"
    return replace(
        base,
        status=status,
        recomputed=result.answer,
        difference=result.difference,
        reason=result.defect,
        details=dict(result.details),
    )


def audit_items(
    items: Iterable[Item], scenes: Mapping[str, Scene], settings: GenerationSettings | None = None
) -> list[AuditRecord]:
    """Audit every item (see :func:`audit_item`); ``settings`` selects the distance method."""
    settings = settings or GenerationSettings()
    return [audit_item(it, scenes, settings) for it in items]
