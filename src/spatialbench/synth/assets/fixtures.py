"""Doors, windows and wall or ceiling fixtures. Doors and windows are sized by their wall opening."""

from __future__ import annotations

import numpy as np

from spatialbench.synth.assets.registry import ASSETS, Rng
from spatialbench.synth.colors import METALS, WOODS, pick, shade
from spatialbench.synth.parts import Asset, Material, Part, box, cone, cylinder, ellipsoid, slab

SKY = (0.78, 0.88, 0.98)


def door(rng: Rng, width: float, height: float, wall_thickness: float) -> Asset:
    """Build a closed door filling a ``width`` × ``height`` opening: frame, panel with insets, lever handle.

    Local frame: centred in the wall, +y into the room; depth is the wall thickness plus trims.
    """
    wood, metal = pick(rng, WOODS + ((0.93, 0.93, 0.9),)), pick(rng, METALS)
    half_d, trim = wall_thickness / 2 + 0.015, 0.06
    w = width / 2
    parts = [
        slab(-w, -w + trim, -half_d, half_d, 0, height, shade(wood, 0.85), Material.WOOD),
        slab(w - trim, w, -half_d, half_d, 0, height, shade(wood, 0.85), Material.WOOD),
        slab(-w, w, -half_d, half_d, height - trim, height, shade(wood, 0.85), Material.WOOD),
        slab(-w + trim, w - trim, -0.02, 0.02, 0.0, height - trim, wood, Material.WOOD),
    ]
    for z0, z1 in ((0.2, height * 0.45), (height * 0.52, height - trim - 0.15)):
        for y0, y1 in ((0.02, 0.028), (-0.028, -0.02)):
            parts.append(
                slab(-w + trim + 0.1, w - trim - 0.1, y0, y1, z0, z1, shade(wood, 1.1), Material.WOOD)
            )
    hx = w - trim - 0.08
    for y0, y1 in ((0.028, 0.06), (-0.06, -0.028)):
        parts.append(cylinder(0.03, y0, y1, (hx, 1.0), metal, Material.METAL, axis="y"))
        lever_y = (0.055, 0.075) if y0 > 0 else (-0.075, -0.055)
        parts.append(slab(hx - 0.13, hx, *lever_y, 0.99, 1.01, metal, Material.METAL))
    return Asset("door", tuple(parts))


def window(rng: Rng, width: float, height: float, wall_thickness: float) -> Asset:
    """Build a window for a ``width`` × ``height`` opening: frame, sill, mullion and bright panes.

    Local frame: origin at the bottom centre of the opening, centred in the wall, +y into the room.
    """
    frame = pick(rng, ((0.95, 0.95, 0.94), (0.35, 0.25, 0.18), (0.25, 0.25, 0.27)))
    half_d, f = wall_thickness / 2 + 0.02, 0.05
    w = width / 2
    parts = [
        slab(-w, -w + f, -half_d, half_d, 0, height, frame),
        slab(w - f, w, -half_d, half_d, 0, height, frame),
        slab(-w, w, -half_d, half_d, height - f, height, frame),
        slab(-w, w, -half_d, half_d, 0, f, frame),
        slab(-0.02, 0.02, -0.03, 0.03, f, height - f, frame),
        slab(-w - 0.05, w + 0.05, -half_d, half_d + 0.12, -0.03, 0.0, shade(frame, 0.95)),
        slab(-w + f, w - f, -0.005, 0.005, f, height - f, SKY, Material.GLASS),
    ]
    if height > 1.0:
        parts.append(slab(-w + f, w - f, -0.03, 0.03, height * 0.62, height * 0.62 + 0.04, frame))
    return Asset("window", tuple(parts))


@ASSETS.register("ceiling light")
def ceiling_light(rng: Rng) -> Asset:
    """Build a flush round or square lamp; local origin on the ceiling, the lamp hangs down (-z)."""
    r = float(rng.uniform(0.18, 0.3))
    if rng.random() < 0.5:
        parts = [
            cylinder(r, -0.08, 0.0, (0.0, 0.0), (0.96, 0.96, 0.92), Material.EMISSIVE, sections=28),
            cylinder(r + 0.02, -0.02, 0.0, (0.0, 0.0), pick(rng, METALS), Material.METAL, sections=28),
        ]
    else:
        parts = [
            slab(-r, r, -r, r, -0.07, 0.0, (0.96, 0.96, 0.92), Material.EMISSIVE),
            slab(-r - 0.02, r + 0.02, -r - 0.02, r + 0.02, -0.02, 0.0, (0.9, 0.9, 0.9)),
        ]
    return Asset("ceiling light", tuple(parts))


@ASSETS.register("mirror")
def mirror(rng: Rng) -> Asset:
    """Build a framed mirror hung on a wall; origin at its bottom centre on the wall, +y into the room."""
    w, h = float(rng.uniform(0.45, 0.8)), float(rng.uniform(0.6, 1.0))
    frame = pick(rng, WOODS + METALS)
    parts = [
        slab(-w / 2, w / 2, 0.0, 0.03, 0.0, h, frame, Material.WOOD),
        slab(-w / 2 + 0.04, w / 2 - 0.04, 0.03, 0.035, 0.04, h - 0.04, (0.7, 0.78, 0.82), Material.SCREEN),
    ]
    return Asset("mirror", tuple(parts))


@ASSETS.register("whiteboard")
def whiteboard(rng: Rng) -> Asset:
    """Build a wall-mounted whiteboard: grey aluminium frame, white board, marker strokes, a tray."""
    w, h = float(rng.uniform(1.2, 1.8)), float(rng.uniform(0.9, 1.2))
    frame = (0.5, 0.52, 0.55)
    parts = [
        slab(-w / 2, w / 2, 0.0, 0.03, 0.0, h, frame, Material.METAL),
        slab(-w / 2 + 0.04, w / 2 - 0.04, 0.03, 0.035, 0.04, h - 0.04, (0.98, 0.98, 0.98)),
        slab(-w / 3, w / 3, 0.0, 0.08, -0.03, 0.0, frame, Material.METAL),
    ]
    ink = pick(rng, ((0.1, 0.15, 0.55), (0.1, 0.1, 0.1), (0.6, 0.1, 0.1)), 0.0)
    for row in range(int(rng.integers(2, 5))):  # a few lines of "writing"
        z = h - 0.15 - row * 0.12
        x0 = -w / 2 + 0.12 + float(rng.uniform(0.0, 0.1))
        x1 = x0 + float(rng.uniform(0.25, w * 0.6))
        parts.append(slab(x0, x1, 0.035, 0.037, z, z + 0.015, ink))
    for i, color in enumerate(((0.1, 0.1, 0.6), (0.1, 0.1, 0.1), (0.7, 0.1, 0.1))):
        x = -0.08 + i * 0.07
        parts.append(cylinder(0.01, x - 0.06, x + 0.06, (0.04, 0.01), color, axis="x", sections=8))
    return Asset("whiteboard", tuple(parts))


@ASSETS.register("clock")
def clock(rng: Rng) -> Asset:
    """Build a round wall clock: rim, white face and two hands."""
    r = float(rng.uniform(0.13, 0.2))
    rim = pick(rng, WOODS + METALS)
    parts = [
        cylinder(r, 0.0, 0.04, (0.0, r), rim, axis="y", sections=32),
        cylinder(r - 0.015, 0.04, 0.045, (0.0, r), (0.96, 0.96, 0.94), axis="y", sections=32),
        slab(-0.006, 0.006, 0.045, 0.05, r, r + 0.7 * r, (0.05, 0.05, 0.05)),
        slab(0.0, 0.5 * r, 0.045, 0.05, r - 0.006, r + 0.006, (0.05, 0.05, 0.05)),
    ]
    return Asset("clock", tuple(parts))


@ASSETS.register("radiator")
def radiator(rng: Rng) -> Asset:
    """Build a ribbed panel heater under a window (category ``radiator``)."""
    w, h = float(rng.uniform(0.6, 1.1)), float(rng.uniform(0.45, 0.6))
    white = (0.92, 0.92, 0.9)
    parts: list[Part] = [slab(-w / 2, w / 2, 0.02, 0.05, 0.12, 0.12 + h, white, Material.METAL)]
    for x in np.arange(-w / 2 + 0.04, w / 2 - 0.02, 0.06):
        parts.append(
            box((0.035, 0.06, h - 0.04), (float(x), 0.08, 0.12 + h / 2), shade(white, 0.97), Material.METAL)
        )
    return Asset("radiator", tuple(parts))


def _plant(rng: Rng, pot_r: float, pot_h: float, height: float) -> Asset:
    pot = pick(rng, ((0.7, 0.35, 0.2), (0.9, 0.9, 0.88), (0.2, 0.2, 0.22), (0.5, 0.55, 0.6)))
    parts: list[Part] = [
        cone(pot_r, 0.0, pot_h, (0.0, 0.0), pot, top_radius=pot_r * 1.2),
        cylinder(pot_r * 1.12, pot_h - 0.02, pot_h - 0.01, (0.0, 0.0), (0.25, 0.17, 0.1)),
        cylinder(
            0.012 * (0.5 + height), pot_h, pot_h + height * 0.8, (0.0, 0.0), (0.3, 0.25, 0.12), sections=6
        ),
    ]
    greens = ((0.22, 0.5, 0.2), (0.15, 0.4, 0.15), (0.3, 0.55, 0.25))
    for _ in range(int(rng.integers(6, 11))):
        cx, cy = rng.normal(0, pot_r * 0.6, size=2)
        cz = pot_h + float(rng.uniform(0.35, 0.85)) * height
        size = float(rng.uniform(0.35, 0.6)) * (0.12 + 0.25 * height)
        parts.append(
            ellipsoid(
                (size, size, size * 1.2), (float(cx), float(cy), cz), pick(rng, greens), Material.FABRIC, 1
            )
        )
    return Asset("plant", tuple(parts))


@ASSETS.register("plant")
def plant(rng: Rng) -> Asset:
    """Build a floor plant: a flared pot with soil, a stem and a clump of foliage blobs (0.4-1.1 m)."""
    return _plant(
        rng, float(rng.uniform(0.12, 0.18)), float(rng.uniform(0.2, 0.32)), float(rng.uniform(0.4, 1.0))
    )


@ASSETS.register("small plant")
def small_plant(rng: Rng) -> Asset:
    """Build a potted plant for tables and counters (category ``plant``, 0.25-0.45 m)."""
    return _plant(
        rng, float(rng.uniform(0.06, 0.09)), float(rng.uniform(0.08, 0.12)), float(rng.uniform(0.15, 0.3))
    )
