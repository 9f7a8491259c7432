"""The asset registry (variant name → builder) and helpers shared by the asset modules."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spatialbench.registry import Registry
from spatialbench.synth.parts import Asset, Color, Material, Part, cylinder

#: The random generator every builder draws its sizes and colours from (one per asset, seeded by the caller).
Rng = np.random.Generator
AssetBuilder = Callable[[Rng], Asset]

#: Variant name (e.g. ``"office chair"``) → builder ``f(rng) -> Asset``; the asset carries its category.
ASSETS: Registry[AssetBuilder] = Registry("asset")


def legs(half_x: float, half_y: float, height: float, radius: float, color: Color) -> list[Part]:
    """Four cylindrical legs at (±half_x, ±half_y) from the floor up to ``height``."""
    return [
        cylinder(radius, 0.0, height, (sx * half_x, sy * half_y), color, Material.WOOD, sections=10)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]
