"""Category-to-category distances in a scene: minimum over instance pairs (App. B.1, relative distance)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.scene.box import OrientedBox
from spatialbench.scene.geometry import box_distance_sampled, box_distances
from spatialbench.scene.model import Scene


def category_distances(
    scene: Scene, pairs: Sequence[tuple[str, str]], settings: GenerationSettings, method: str | None = None
) -> dict[tuple[str, str], float]:
    """Distance (m) between the closest instances of each category pair, computed in one batch.

    Args:
        scene: the scene.
        pairs: (category a, category b) pairs; both must be in the scene.
        settings: ``distance_method`` selects exact box distance or the paper's sampled estimate
            (seeded from ``settings.seed``, the scene and the pair's names, so a pair's estimate does
            not depend on which other pairs are asked with it).
        method: ``"exact"`` or ``"sampled"`` instead of ``settings.distance_method`` (the drawn tasks'
            rules use ``settings.rule_distance_method``).

    Returns:
        pair -> minimum over instances of a × instances of b of the box distance.

    Raises:
        KeyError: a category not in the scene.
    """
    owner: list[int] = []  # pair index of each instance pair
    boxes_a: list[OrientedBox] = []
    boxes_b: list[OrientedBox] = []
    for k, (a, b) in enumerate(pairs):
        for ia in scene.instances(a):
            for ib in scene.instances(b):
                owner.append(k)
                boxes_a.append(ia.box)
                boxes_b.append(ib.box)
    if (method or settings.distance_method) == "exact":
        values = box_distances(boxes_a, boxes_b)
    else:
        rngs = (derived_rng(settings.seed, scene.scene_id, "distance", *pairs[k]) for k in owner)
        values = np.array(
            [
                box_distance_sampled(a, b, settings.distance_samples, r)
                for a, b, r in zip(boxes_a, boxes_b, rngs, strict=True)
            ]
        )
    best = np.full(len(pairs), np.inf)
    np.minimum.at(best, np.array(owner, dtype=int), values)
    return {pair: float(best[k]) for k, pair in enumerate(pairs)}
