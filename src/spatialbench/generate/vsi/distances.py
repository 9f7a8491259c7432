"""Category-to-category distances in a scene: minimum over instance pairs (App. B.1, relative distance)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialbench.generate.vsi.seeding import derived_rng
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.scene.geometry import box_distance_sampled, box_distances
from spatialbench.scene.model import Scene


def category_distances(
    scene: Scene, pairs: Sequence[tuple[str, str]], settings: GenerationSettings
) -> dict[tuple[str, str], float]:
    """Distance (m) between the closest instances of each category pair, computed in one batch.

    Args:
        scene: the scene.
        pairs: (category a, category b) pairs; both must be in the scene.
        settings: ``distance_method`` selects exact box distance or the paper's sampled estimate
            (seeded from ``settings.seed``, the scene and the pair).

    Returns:
        pair -> minimum over instances of a × instances of b of the box distance.

    Raises:
        KeyError: a category not in the scene.
    """
    index: list[tuple[int, object, object]] = []
    for k, (a, b) in enumerate(pairs):
        index.extend((k, ia.box, ib.box) for ia in scene.instances(a) for ib in scene.instances(b))
    if settings.distance_method == "exact":
        values = box_distances([i[1] for i in index], [i[2] for i in index])  # type: ignore[misc]
    else:
        values = np.array([
            box_distance_sampled(ba, bb, settings.distance_samples,  # type: ignore[arg-type]
                                 derived_rng(settings.seed, scene.scene_id, "distance", str(k)))
            for k, ba, bb in index
        ])
    best = np.full(len(pairs), np.inf)
    np.minimum.at(best, np.array([i[0] for i in index], dtype=int), values)
    return {pair: float(best[k]) for k, pair in enumerate(pairs)}
