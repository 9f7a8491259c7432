"""Per-instance colour sampling: palettes of plausible indoor colours, jittered per instance."""

from __future__ import annotations

import colorsys

import numpy as np

from spatialbench.synth.parts import Color

WOODS: tuple[Color, ...] = (
    (0.55, 0.36, 0.2),
    (0.7, 0.52, 0.32),
    (0.38, 0.24, 0.14),
    (0.82, 0.68, 0.48),
    (0.3, 0.2, 0.13),
)
FABRICS: tuple[Color, ...] = (
    (0.25, 0.35, 0.55),
    (0.55, 0.2, 0.2),
    (0.35, 0.5, 0.35),
    (0.6, 0.58, 0.52),
    (0.3, 0.3, 0.32),
    (0.7, 0.55, 0.3),
    (0.45, 0.3, 0.5),
)
LIGHT_FABRICS: tuple[Color, ...] = (
    (0.92, 0.92, 0.9),
    (0.85, 0.88, 0.95),
    (0.95, 0.88, 0.8),
    (0.8, 0.85, 0.8),
)
METALS: tuple[Color, ...] = ((0.75, 0.76, 0.78), (0.2, 0.2, 0.22), (0.55, 0.56, 0.58))
APPLIANCE: tuple[Color, ...] = ((0.93, 0.93, 0.92), (0.78, 0.79, 0.8), (0.15, 0.15, 0.16))
PLASTICS: tuple[Color, ...] = (
    (0.2, 0.45, 0.75),
    (0.8, 0.25, 0.2),
    (0.95, 0.75, 0.2),
    (0.25, 0.6, 0.35),
    (0.15, 0.15, 0.15),
    (0.9, 0.9, 0.88),
)
WALLS: tuple[Color, ...] = (
    (0.9, 0.88, 0.82),
    (0.82, 0.86, 0.88),
    (0.88, 0.84, 0.76),
    (0.8, 0.84, 0.78),
    (0.93, 0.92, 0.9),
)
FLOORS: tuple[Color, ...] = ((0.6, 0.43, 0.28), (0.72, 0.6, 0.45), (0.45, 0.33, 0.24), (0.6, 0.6, 0.58))
TILE_FLOORS: tuple[Color, ...] = ((0.85, 0.85, 0.83), (0.55, 0.58, 0.6), (0.8, 0.76, 0.68))
PORCELAIN: Color = (0.95, 0.95, 0.94)


def pick(rng: np.random.Generator, palette: tuple[Color, ...], jitter: float = 0.06) -> Color:
    """One palette colour with a small random change of hue, saturation and value (per instance)."""
    base = palette[int(rng.integers(len(palette)))]
    hue, sat, val = colorsys.rgb_to_hsv(*base)
    dh, ds, dv = rng.uniform(-jitter, jitter, size=3)
    rgb = colorsys.hsv_to_rgb(
        (hue + dh * 0.3) % 1.0, float(np.clip(sat + ds, 0, 1)), float(np.clip(val + dv, 0, 1))
    )
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]))


def shade(color: Color, factor: float) -> Color:
    """``color`` scaled by ``factor`` and clipped to [0, 1] (darker trims, lighter cushions)."""
    r, g, b = (float(np.clip(c * factor, 0.0, 1.0)) for c in color)
    return (r, g, b)
