"""The two VSI-Bench tasks that need a rendered scene: route planning and appearance order.

Route planning: routes planned on the scene's free-space map (:mod:`spatialbench.synth.routes`) between
unique objects, written in the route-file schema and phrased by :func:`route_candidate`. Appearance order:
the first-appearance timeline from the rendered instance masks, stored in the scene's meta-info entry
(``first_appearance``) where the registered ``obj_appearance_order`` generator reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.vsi.appearance_order import (
    AppearanceSettings,
    category_pixel_counts,
    first_appearances,
)
from spatialbench.generate.vsi.base import TaskResult
from spatialbench.generate.vsi.route import Route, route_candidate
from spatialbench.synth.freespace import BODY_HEIGHT, FreeSpaceMap
from spatialbench.synth.routes import PlannerSettings, RouteStats, RouteWorld, plan_scene_routes, route_record
from spatialbench.synth.scene import SYNTHETIC_DATASET, SynthScene


def route_world(
    scene: SynthScene, free_map: FreeSpaceMap, visible: Collection[str] | None = None
) -> RouteWorld:
    """Return the scene's route landmarks on its free-space map.

    Landmarks are objects whose category is unique in the scene, that stand on the floor or hang on a
    wall below a person's height (not small items on furniture, not ceiling lights), and, when
    ``visible`` is given, whose category appears in the video.
    """
    counts = Counter(obj.category for obj in scene.objects)
    footprints = {
        obj.category: obj.footprint()
        for obj in scene.objects
        if counts[obj.category] == 1
        and obj.support is None
        and obj.z_range()[0] < BODY_HEIGHT
        and (visible is None or obj.category in visible)
    }
    return RouteWorld(free_map, footprints)


def route_task(
    scene: SynthScene,
    free_map: FreeSpaceMap,
    rng: np.random.Generator,
    visible: Collection[str] | None = None,
    settings: PlannerSettings | None = None,
) -> tuple[TaskResult, list[dict[str, Any]]]:
    """Route-planning candidates of one scene and their route records (route-file JSON lines).

    Every ordered pair of landmarks is a candidate; ``removed`` counts the pairs each planner filter
    dropped (no start pose, no route within the move limit, ambiguous turns).
    """
    stats = RouteStats()
    routes = plan_scene_routes(route_world(scene, free_map, visible), rng, settings, stats=stats)
    records = [route_record(r, scene.scene_id, SYNTHETIC_DATASET) for r in routes]
    candidates = [route_candidate(Route.model_validate(rec), rng) for rec in records]
    return TaskResult(candidates, Counter(stats.removed)), records


def appearance_timeline(
    masks: Iterable[NDArray[np.integer]],
    scene: SynthScene,
    timestamps: list[float],
    settings: AppearanceSettings | None = None,
) -> dict[str, float]:
    """{category: seconds of first appearance} from a scene's per-frame instance masks (App. B.1)."""
    settings = settings or AppearanceSettings()
    id_to_category = {obj.instance_id: obj.category for obj in scene.objects}
    categories, counts = category_pixel_counts(masks, id_to_category)
    return first_appearances(categories, counts, timestamps, settings.min_pixels)
