"""Decor for cluttered rooms (issue 27: frame sets that show 3–9 objects).

Small objects for table tops and counters, low objects for the floor along walls, pictures for walls.
Each has its own category, so a room holding one of each names them all without colours. Local frame as in
``synth.parts`` (origin at the bottom centre, +y the front, metres).
"""

from __future__ import annotations

from spatialbench.synth.assets.registry import ASSETS, Rng
from spatialbench.synth.colors import LIGHT_FABRICS, METALS, PLASTICS, WOODS, pick, shade
from spatialbench.synth.parts import Asset, Material, cone, cylinder, ellipsoid, slab

#: warm ceramic and glass tones of vases, bowls and bottles
GLAZES = ((0.2, 0.35, 0.6), (0.75, 0.3, 0.2), (0.9, 0.88, 0.8), (0.25, 0.5, 0.4), (0.55, 0.35, 0.6))


@ASSETS.register("vase")
def vase(rng: Rng) -> Asset:
    """Build a vase: a bulging body narrowing to a neck (0.2-0.35 m)."""
    h, r = float(rng.uniform(0.2, 0.35)), float(rng.uniform(0.05, 0.08))
    color = pick(rng, GLAZES)
    return Asset(
        "vase",
        (
            cone(r * 0.7, 0.0, h * 0.45, (0.0, 0.0), color, top_radius=r),
            cone(r, h * 0.45, h * 0.85, (0.0, 0.0), color, top_radius=r * 0.45),
            cylinder(r * 0.45, h * 0.85, h, (0.0, 0.0), color, sections=16),
        ),
    )


@ASSETS.register("bowl")
def bowl(rng: Rng) -> Asset:
    """Build a wide fruit bowl with a few fruits in it."""
    r = float(rng.uniform(0.1, 0.15))
    parts = [cone(r * 0.5, 0.0, 0.07, (0.0, 0.0), pick(rng, GLAZES + WOODS), top_radius=r)]
    fruits = ((0.85, 0.2, 0.15), (0.95, 0.75, 0.15), (0.4, 0.65, 0.2))
    for k in range(int(rng.integers(2, 4))):
        x = (k - 1) * r * 0.45
        parts.append(ellipsoid((0.035, 0.035, 0.035), (x, 0.0, 0.085), pick(rng, fruits), subdivisions=1))
    return Asset("bowl", tuple(parts))


@ASSETS.register("bottle")
def bottle(rng: Rng) -> Asset:
    """Build a glass bottle with a cap (0.25-0.32 m)."""
    h = float(rng.uniform(0.25, 0.32))
    color = pick(rng, ((0.15, 0.4, 0.2), (0.45, 0.25, 0.1), (0.6, 0.75, 0.8)))
    return Asset(
        "bottle",
        (
            cylinder(0.035, 0.0, h * 0.65, (0.0, 0.0), color, Material.METAL, sections=16),
            cone(0.035, h * 0.65, h * 0.85, (0.0, 0.0), color, Material.METAL, top_radius=0.013),
            cylinder(0.014, h * 0.85, h, (0.0, 0.0), shade(color, 0.5), sections=10),
        ),
    )


@ASSETS.register("candle")
def candle(rng: Rng) -> Asset:
    """Build a pillar candle on a small metal dish."""
    h = float(rng.uniform(0.1, 0.18))
    return Asset(
        "candle",
        (
            cylinder(0.06, 0.0, 0.01, (0.0, 0.0), pick(rng, METALS), Material.METAL, sections=16),
            cylinder(0.035, 0.01, h, (0.0, 0.0), pick(rng, LIGHT_FABRICS), sections=16),
            cylinder(0.004, h, h + 0.015, (0.0, 0.0), (0.1, 0.1, 0.1), sections=6),
        ),
    )


@ASSETS.register("basket")
def basket(rng: Rng) -> Asset:
    """Build a woven storage basket with two handles."""
    w, d, h = float(rng.uniform(0.22, 0.32)), float(rng.uniform(0.16, 0.22)), float(rng.uniform(0.1, 0.16))
    color = pick(rng, WOODS)
    return Asset(
        "basket",
        (
            slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, h, color, Material.FABRIC),
            slab(-w / 2 - 0.02, -w / 2, -0.03, 0.03, h * 0.6, h * 0.9, shade(color, 0.8)),
            slab(w / 2, w / 2 + 0.02, -0.03, 0.03, h * 0.6, h * 0.9, shade(color, 0.8)),
        ),
    )


@ASSETS.register("speaker")
def speaker(rng: Rng) -> Asset:
    """Build a small box speaker with two round drivers on its front."""
    h = float(rng.uniform(0.18, 0.26))
    color = pick(rng, PLASTICS + WOODS)
    cone_color = shade(color, 0.4)
    return Asset(
        "speaker",
        (
            slab(-0.06, 0.06, -0.07, 0.07, 0.0, h, color),
            cylinder(0.04, 0.07, 0.075, (0.0, h * 0.35), cone_color, axis="y", sections=16),
            cylinder(0.022, 0.07, 0.075, (0.0, h * 0.78), cone_color, axis="y", sections=12),
        ),
    )


def _framed(rng: Rng, category: str, w: float, h: float, frame: tuple[float, float, float]) -> Asset:
    """Build a flat picture for a wall: a frame and a coloured picture; origin bottom centre, +y the room."""
    picture = pick(rng, GLAZES + PLASTICS + LIGHT_FABRICS)
    return Asset(
        category,
        (
            slab(-w / 2, w / 2, 0.0, 0.02, 0.0, h, frame),
            slab(-w / 2 + 0.03, w / 2 - 0.03, 0.02, 0.025, 0.03, h - 0.03, picture),
            slab(-w / 6, w / 6, 0.025, 0.027, h * 0.3, h * 0.7, shade(picture, 0.5)),
        ),
    )


@ASSETS.register("painting")
def painting(rng: Rng) -> Asset:
    """Build a landscape painting in a wooden frame (0.6-1.0 m wide)."""
    w = float(rng.uniform(0.6, 1.0))
    return _framed(rng, "painting", w, w * float(rng.uniform(0.6, 0.75)), pick(rng, WOODS))


@ASSETS.register("poster")
def poster(rng: Rng) -> Asset:
    """Build a portrait poster in a thin black frame (0.45-0.6 m wide)."""
    w = float(rng.uniform(0.45, 0.6))
    return _framed(rng, "poster", w, w * 1.4, (0.08, 0.08, 0.08))


@ASSETS.register("calendar")
def calendar(rng: Rng) -> Asset:
    """Build a wall calendar: a white page under a picture (0.3-0.4 m wide)."""
    w = float(rng.uniform(0.3, 0.4))
    return _framed(rng, "calendar", w, w * 1.5, (0.95, 0.95, 0.93))


@ASSETS.register("storage box")
def storage_box(rng: Rng) -> Asset:
    """Build a lidded storage box for the floor (0.35-0.5 m wide)."""
    w, d, h = float(rng.uniform(0.35, 0.5)), float(rng.uniform(0.28, 0.38)), float(rng.uniform(0.25, 0.35))
    color = pick(rng, PLASTICS + WOODS)
    return Asset(
        "storage box",
        (
            slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, h - 0.03, color),
            slab(-w / 2 - 0.01, w / 2 + 0.01, -d / 2 - 0.01, d / 2 + 0.01, h - 0.03, h, shade(color, 0.8)),
        ),
    )


@ASSETS.register("pouf")
def pouf(rng: Rng) -> Asset:
    """Build a round upholstered pouf (0.4-0.5 m across)."""
    r, h = float(rng.uniform(0.2, 0.25)), float(rng.uniform(0.35, 0.45))
    color = pick(rng, GLAZES + LIGHT_FABRICS)
    return Asset(
        "pouf",
        (
            cylinder(r, 0.0, h - 0.05, (0.0, 0.0), color, Material.FABRIC),
            ellipsoid((r, r, 0.06), (0.0, 0.0, h - 0.05), color, Material.FABRIC),
        ),
    )


@ASSETS.register("guitar")
def guitar(rng: Rng) -> Asset:
    """Build an acoustic guitar standing upright against a wall: body, neck and head (about 1 m tall)."""
    wood = pick(rng, WOODS)
    return Asset(
        "guitar",
        (
            ellipsoid((0.19, 0.06, 0.22), (0.0, 0.0, 0.22), wood),
            ellipsoid((0.15, 0.055, 0.15), (0.0, 0.0, 0.5), wood),
            cylinder(0.045, 0.061, 0.063, (0.0, 0.38), (0.08, 0.06, 0.05), axis="y", sections=16),
            slab(-0.025, 0.025, -0.02, 0.02, 0.6, 0.95, shade(wood, 0.5)),
            slab(-0.04, 0.04, -0.02, 0.02, 0.95, 1.05, shade(wood, 0.4)),
        ),
    )
