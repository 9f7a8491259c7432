"""Small and medium objects that sit on furniture or on the floor. Local frame as in ``synth.parts``."""

from __future__ import annotations

import numpy as np

from spatialbench.synth.assets.registry import ASSETS, Rng
from spatialbench.synth.colors import FABRICS, LIGHT_FABRICS, METALS, PLASTICS, WOODS, pick, shade
from spatialbench.synth.parts import Asset, Material, Part, cone, cylinder, ellipsoid, slab


@ASSETS.register("pillow")
def pillow(rng: Rng) -> Asset:
    """Build a soft flattened cushion."""
    w, d = float(rng.uniform(0.4, 0.6)), float(rng.uniform(0.3, 0.42))
    color = pick(rng, FABRICS + LIGHT_FABRICS)
    return Asset("pillow", (ellipsoid((w / 2, d / 2, 0.08), (0.0, 0.0, 0.08), color, Material.FABRIC),))


@ASSETS.register("cushion")
def cushion(rng: Rng) -> Asset:
    """Build a square throw pillow standing upright, leaning on a sofa back (category ``pillow``)."""
    side = float(rng.uniform(0.38, 0.5))
    color = pick(rng, FABRICS + LIGHT_FABRICS)
    parts = (ellipsoid((side / 2, 0.07, side / 2), (0.0, 0.0, side / 2), color, Material.FABRIC),)
    return Asset("pillow", parts)


@ASSETS.register("table lamp")
def table_lamp(rng: Rng) -> Asset:
    """Build a lamp for a nightstand or desk: round base, stem, glowing conical shade (category ``lamp``)."""
    h = float(rng.uniform(0.35, 0.55))
    base = pick(rng, METALS + WOODS)
    shade_r = float(rng.uniform(0.12, 0.17))
    parts = [
        cylinder(0.08, 0.0, 0.03, (0.0, 0.0), base, Material.METAL),
        cylinder(0.012, 0.03, h * 0.7, (0.0, 0.0), base, Material.METAL, sections=8),
        cone(
            shade_r,
            h * 0.55,
            h,
            (0.0, 0.0),
            pick(rng, LIGHT_FABRICS),
            Material.EMISSIVE,
            top_radius=shade_r * 0.65,
        ),
    ]
    return Asset("lamp", tuple(parts))


@ASSETS.register("floor lamp")
def floor_lamp(rng: Rng) -> Asset:
    """Build a standing lamp: heavy base, tall pole and a glowing shade (category ``lamp``)."""
    h = float(rng.uniform(1.4, 1.75))
    metal = pick(rng, METALS)
    parts = [
        cylinder(0.15, 0.0, 0.03, (0.0, 0.0), metal, Material.METAL),
        cylinder(0.015, 0.03, h - 0.2, (0.0, 0.0), metal, Material.METAL, sections=8),
        cone(0.22, h - 0.3, h, (0.0, 0.0), pick(rng, LIGHT_FABRICS), Material.EMISSIVE, top_radius=0.15),
    ]
    return Asset("lamp", tuple(parts))


@ASSETS.register("trash bin")
def trash_bin(rng: Rng) -> Asset:
    """Build a round or square bin with a rim and a dark opening."""
    h, r = float(rng.uniform(0.3, 0.5)), float(rng.uniform(0.12, 0.18))
    color = pick(rng, PLASTICS + METALS)
    if rng.random() < 0.5:
        parts: list[Part] = [
            cone(r * 0.85, 0.0, h, (0.0, 0.0), color, top_radius=r),
            cylinder(r * 0.9, h - 0.005, h + 0.002, (0.0, 0.0), (0.08, 0.08, 0.08)),
            cylinder(r * 1.03, h - 0.03, h, (0.0, 0.0), shade(color, 0.8)),
        ]
    else:
        parts = [
            slab(-r, r, -r * 0.8, r * 0.8, 0.0, h, color),
            slab(-r + 0.01, r - 0.01, -r * 0.8 + 0.01, r * 0.8 - 0.01, h, h + 0.002, (0.08, 0.08, 0.08)),
        ]
    return Asset("trash bin", tuple(parts))


@ASSETS.register("backpack")
def backpack(rng: Rng) -> Asset:
    """Build an upright backpack: boxy body with a rounded top, zipped front pocket, straps, top loop."""
    color = pick(rng, PLASTICS + FABRICS)
    dark, w, d, h = shade(color, 0.6), 0.3, 0.16, 0.36
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, h, color, Material.FABRIC),
        cylinder(w / 2, -d / 2, d / 2, (0.0, h), color, Material.FABRIC, axis="y", sections=20),
        slab(-0.11, 0.11, d / 2, d / 2 + 0.06, 0.04, 0.22, shade(color, 0.85), Material.FABRIC),
        slab(-0.1, 0.1, d / 2 + 0.06, d / 2 + 0.065, 0.2, 0.21, dark),  # pocket zip
        slab(-0.09, -0.05, -d / 2 - 0.03, -d / 2, 0.05, h + 0.08, dark),
        slab(0.05, 0.09, -d / 2 - 0.03, -d / 2, 0.05, h + 0.08, dark),
        cylinder(0.012, -0.04, 0.04, (0.0, h + w / 2 + 0.01), dark, axis="x", sections=8),
    ]
    return Asset("backpack", tuple(parts))


@ASSETS.register("keyboard")
def keyboard(rng: Rng) -> Asset:
    """Build a flat keyboard with a lighter key field."""
    body = pick(rng, ((0.1, 0.1, 0.1), (0.9, 0.9, 0.9)))
    return Asset(
        "keyboard",
        (
            slab(-0.22, 0.22, -0.07, 0.07, 0.0, 0.02, body),
            slab(-0.2, 0.2, -0.055, 0.055, 0.02, 0.028, shade(body, 0.75 if body[0] > 0.5 else 2.5)),
        ),
    )


@ASSETS.register("computer mouse")
def computer_mouse(rng: Rng) -> Asset:
    """Build a small rounded mouse."""
    color = pick(rng, ((0.1, 0.1, 0.1), (0.85, 0.85, 0.85)))
    return Asset(
        "computer mouse", (ellipsoid((0.035, 0.06, 0.02), (0.0, 0.0, 0.02), color, Material.PLAIN, 2),)
    )


@ASSETS.register("laptop")
def laptop(rng: Rng) -> Asset:
    """Build an open laptop: base with keys, lid tilted back with a lit screen."""
    metal = pick(rng, METALS)
    lid = slab(-0.17, 0.17, -0.01, 0.0, 0.0, 0.23, metal, Material.METAL)
    screen = slab(-0.155, 0.155, 0.0, 0.002, 0.015, 0.215, (0.15, 0.25, 0.4), Material.SCREEN)
    tilt = np.eye(4)
    tilt[:3, :3] = [[1, 0, 0], [0, np.cos(0.3), -np.sin(0.3)], [0, np.sin(0.3), np.cos(0.3)]]
    tilt[:3, 3] = (0.0, -0.11, 0.018)
    for part in (lid, screen):
        part.mesh.apply_transform(tilt)
    return Asset(
        "laptop",
        (
            slab(-0.17, 0.17, -0.12, 0.12, 0.0, 0.018, metal, Material.METAL),
            slab(-0.15, 0.15, -0.05, 0.09, 0.018, 0.02, (0.1, 0.1, 0.1)),
            lid,
            screen,
        ),
    )


@ASSETS.register("cup")
def cup(rng: Rng) -> Asset:
    """Build a mug with a handle."""
    color = pick(rng, PLASTICS + ((0.95, 0.95, 0.95),))
    return Asset(
        "cup",
        (
            cylinder(0.04, 0.0, 0.1, (0.0, 0.0), color, sections=16),
            cylinder(0.034, 0.099, 0.1005, (0.0, 0.0), (0.25, 0.15, 0.1), sections=16),
            slab(0.04, 0.065, -0.008, 0.008, 0.02, 0.08, color),
        ),
    )


@ASSETS.register("telephone")
def telephone(rng: Rng) -> Asset:
    """Build a desk phone: sloped base with keypad and a handset on top."""
    color = pick(rng, ((0.12, 0.12, 0.12), (0.85, 0.85, 0.82)))
    return Asset(
        "telephone",
        (
            slab(-0.1, 0.1, -0.1, 0.1, 0.0, 0.06, color),
            slab(-0.06, 0.04, 0.0, 0.09, 0.06, 0.065, shade(color, 0.6 if color[0] > 0.5 else 3.0)),
            slab(0.05, 0.09, -0.1, 0.1, 0.06, 0.1, color),
        ),
    )


@ASSETS.register("towel")
def towel(rng: Rng) -> Asset:
    """Build a towel hanging from a wall rail; origin at its bottom centre on the wall, +y into the room."""
    color = pick(rng, LIGHT_FABRICS + FABRICS)
    w, h = float(rng.uniform(0.3, 0.5)), float(rng.uniform(0.45, 0.6))
    return Asset(
        "towel",
        (
            slab(-w / 2, w / 2, 0.03, 0.06, 0.0, h, color, Material.FABRIC),
            cylinder(
                0.012,
                -w / 2 - 0.08,
                w / 2 + 0.08,
                (0.05, h),
                (0.8, 0.81, 0.83),
                Material.METAL,
                axis="x",
                sections=10,
            ),
            slab(-w / 2 - 0.09, -w / 2 - 0.07, 0.0, 0.06, h - 0.02, h + 0.02, (0.8, 0.81, 0.83)),
        ),
    )


@ASSETS.register("kettle")
def kettle(rng: Rng) -> Asset:
    """Build an electric kettle on its base."""
    color = pick(rng, METALS + PLASTICS)
    return Asset(
        "kettle",
        (
            cylinder(0.09, 0.0, 0.02, (0.0, 0.0), (0.1, 0.1, 0.1), sections=20),
            cone(0.085, 0.02, 0.22, (0.0, 0.0), color, Material.METAL, top_radius=0.06),
            slab(-0.015, 0.015, -0.12, -0.06, 0.06, 0.22, (0.1, 0.1, 0.1)),
            cone(0.02, 0.15, 0.2, (0.0, 0.09), color, Material.METAL, top_radius=0.01),
        ),
    )


@ASSETS.register("books")
def books(rng: Rng) -> Asset:
    """Build a small stack of books lying on a surface (category ``book``)."""
    parts = []
    z = 0.0
    for _ in range(int(rng.integers(2, 5))):
        t = float(rng.uniform(0.025, 0.05))
        w, d = float(rng.uniform(0.15, 0.24)), float(rng.uniform(0.2, 0.3))
        parts.append(slab(-w / 2, w / 2, -d / 2, d / 2, z, z + t, pick(rng, PLASTICS + WOODS)))
        z += t
    return Asset("book", tuple(parts))
