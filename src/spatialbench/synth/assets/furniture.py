"""Parametric furniture: beds, seating, tables, storage. Local frame as in ``synth.parts``."""

from __future__ import annotations

import numpy as np
from trimesh.transformations import rotation_matrix

from spatialbench.synth.assets.registry import ASSETS, Rng, legs
from spatialbench.synth.colors import FABRICS, LIGHT_FABRICS, METALS, WOODS, pick, shade
from spatialbench.synth.parts import Asset, Material, Part, box, cylinder, slab


@ASSETS.register("bed")
def bed(rng: Rng) -> Asset:
    """Frame, mattress, headboard at the back (-y) and a folded duvet; pillows are separate objects."""
    width = float(rng.choice([0.95, 1.45, 1.65, 1.85]))
    length, frame_h = float(rng.uniform(2.0, 2.15)), float(rng.uniform(0.25, 0.35))
    wood, sheet, duvet = pick(rng, WOODS), pick(rng, LIGHT_FABRICS), pick(rng, FABRICS)
    hx, hy = width / 2, length / 2
    mattress_top = frame_h + 0.22
    parts = [
        slab(-hx, hx, -hy, hy, 0.08, frame_h, wood, Material.WOOD),
        *legs(hx - 0.05, hy - 0.05, 0.08, 0.04, wood),
        slab(-hx + 0.03, hx - 0.03, -hy + 0.05, hy - 0.03, frame_h, mattress_top, sheet, Material.FABRIC),
        slab(
            -hx + 0.01,
            hx - 0.01,
            -hy + 0.7,
            hy - 0.01,
            mattress_top - 0.12,
            mattress_top + 0.04,
            duvet,
            Material.FABRIC,
        ),
        slab(
            -hx,
            hx,
            -hy - 0.06,
            -hy + 0.02,
            0.0,
            float(rng.uniform(0.9, 1.15)),
            shade(wood, 0.85),
            Material.WOOD,
        ),
    ]
    return Asset("bed", tuple(parts))


@ASSETS.register("nightstand")
def nightstand(rng: Rng) -> Asset:
    """Build a small cabinet with a drawer front and knob."""
    w, d, h = float(rng.uniform(0.4, 0.55)), float(rng.uniform(0.35, 0.45)), float(rng.uniform(0.45, 0.6))
    wood = pick(rng, WOODS)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.05, h, wood, Material.WOOD),
        *legs(w / 2 - 0.03, d / 2 - 0.03, 0.05, 0.02, shade(wood, 0.7)),
        slab(
            -w / 2 + 0.03,
            w / 2 - 0.03,
            d / 2,
            d / 2 + 0.01,
            h - 0.17,
            h - 0.03,
            shade(wood, 1.15),
            Material.WOOD,
        ),
        cylinder(0.015, d / 2, d / 2 + 0.03, (0.0, h - 0.1), pick(rng, METALS), Material.METAL, axis="y"),
    ]
    return Asset("nightstand", tuple(parts))


@ASSETS.register("chair")
def chair(rng: Rng) -> Asset:
    """Four legs, a seat and a backrest at -y (the sitter faces +y)."""
    w, d = float(rng.uniform(0.42, 0.5)), float(rng.uniform(0.42, 0.5))
    seat_h, back_h = float(rng.uniform(0.43, 0.48)), float(rng.uniform(0.85, 1.0))
    frame = pick(rng, WOODS + METALS)
    seat = pick(rng, FABRICS + WOODS)
    parts = [
        *legs(w / 2 - 0.03, d / 2 - 0.03, seat_h - 0.04, 0.018, frame),
        slab(-w / 2, w / 2, -d / 2, d / 2, seat_h - 0.05, seat_h, seat, Material.FABRIC),
        slab(-w / 2 + 0.01, -w / 2 + 0.04, -d / 2, -d / 2 + 0.03, seat_h, back_h, frame),
        slab(w / 2 - 0.04, w / 2 - 0.01, -d / 2, -d / 2 + 0.03, seat_h, back_h, frame),
        slab(-w / 2, w / 2, -d / 2, -d / 2 + 0.035, back_h - 0.22, back_h, seat, Material.FABRIC),
    ]
    return Asset("chair", tuple(parts))


@ASSETS.register("office chair")
def office_chair(rng: Rng) -> Asset:
    """Build a swivel chair: star base, column, padded seat and back (category ``chair``)."""
    dark, fabric = pick(rng, ((0.12, 0.12, 0.13), (0.3, 0.3, 0.32))), pick(rng, FABRICS)
    parts: list[Part] = [cylinder(0.03, 0.05, 0.42, (0.0, 0.0), dark, Material.METAL)]
    for angle in np.linspace(0, 2 * np.pi, 5, endpoint=False):
        tip = (0.28 * np.cos(angle), 0.28 * np.sin(angle))
        parts.append(box((0.3, 0.04, 0.03), (tip[0] / 2, tip[1] / 2, 0.06), dark))
        parts[-1].mesh.apply_transform(_rot_about(angle, tip[0] / 2, tip[1] / 2))
        parts.append(cylinder(0.03, 0.0, 0.05, tip, dark))
    parts += [
        slab(-0.25, 0.25, -0.24, 0.24, 0.42, 0.5, fabric, Material.FABRIC),
        slab(-0.22, 0.22, -0.27, -0.2, 0.58, 1.05, fabric, Material.FABRIC),
        slab(-0.03, 0.03, -0.27, -0.22, 0.45, 0.6, dark),
    ]
    return Asset("chair", tuple(parts))


def _rot_about(angle: float, x: float, y: float) -> np.ndarray:
    """Rotation about the vertical axis through (x, y)."""
    return rotation_matrix(angle, (0, 0, 1), point=(x, y, 0))


def _table(rng: Rng, size: tuple[float, float, float], top_color: tuple[float, float, float]) -> Asset:
    w, d, h = size
    leg = pick(rng, WOODS + METALS)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, h - 0.04, h, top_color, Material.WOOD),
        slab(
            -w / 2 + 0.04,
            w / 2 - 0.04,
            -d / 2 + 0.04,
            d / 2 - 0.04,
            h - 0.12,
            h - 0.04,
            shade(top_color, 0.8),
        ),
        *legs(w / 2 - 0.05, d / 2 - 0.05, h - 0.04, 0.025, leg),
    ]
    return Asset("table", tuple(parts))


@ASSETS.register("dining table")
def dining_table(rng: Rng) -> Asset:
    """Build a rectangular table, 0.74-0.78 m high, sized for 2-8 chairs (category ``table``)."""
    w, d = float(rng.uniform(1.2, 2.0)), float(rng.uniform(0.8, 1.0))
    return _table(rng, (w, d, float(rng.uniform(0.74, 0.78))), pick(rng, WOODS))


@ASSETS.register("desk")
def desk(rng: Rng) -> Asset:
    """Build a work desk placed against a wall (category ``table``)."""
    w, d = float(rng.uniform(1.1, 1.6)), float(rng.uniform(0.6, 0.75))
    return _table(rng, (w, d, 0.74), pick(rng, WOODS + ((0.9, 0.9, 0.88),)))


@ASSETS.register("coffee table")
def coffee_table(rng: Rng) -> Asset:
    """Build a low table in front of a sofa (category ``table``)."""
    w, d = float(rng.uniform(0.9, 1.2)), float(rng.uniform(0.5, 0.65))
    return _table(rng, (w, d, float(rng.uniform(0.4, 0.46))), pick(rng, WOODS))


@ASSETS.register("tv table")
def tv_table(rng: Rng) -> Asset:
    """Build a long low cabinet that carries the TV (category ``table``)."""
    w, d, h = float(rng.uniform(1.3, 1.8)), float(rng.uniform(0.4, 0.5)), float(rng.uniform(0.45, 0.55))
    wood = pick(rng, WOODS)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.06, h, wood, Material.WOOD),
        *legs(w / 2 - 0.04, d / 2 - 0.04, 0.06, 0.02, shade(wood, 0.6)),
        slab(-w / 2 + 0.03, -0.01, d / 2, d / 2 + 0.01, 0.1, h - 0.04, shade(wood, 1.12), Material.WOOD),
        slab(0.01, w / 2 - 0.03, d / 2, d / 2 + 0.01, 0.1, h - 0.04, shade(wood, 1.12), Material.WOOD),
    ]
    return Asset("table", tuple(parts))


@ASSETS.register("sofa")
def sofa(rng: Rng) -> Asset:
    """Build a base, seat cushions, backrest at -y and two arms; pillows are separate objects."""
    seats = int(rng.integers(2, 4))
    w, d = seats * float(rng.uniform(0.6, 0.7)) + 0.4, float(rng.uniform(0.85, 0.95))
    cloth = pick(rng, FABRICS)
    cushion = shade(cloth, 1.12)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.08, 0.4, cloth, Material.FABRIC),
        *legs(w / 2 - 0.05, d / 2 - 0.05, 0.08, 0.025, (0.2, 0.15, 0.1)),
        slab(-w / 2, w / 2, -d / 2, -d / 2 + 0.22, 0.4, 0.85, cloth, Material.FABRIC),
        slab(-w / 2, -w / 2 + 0.18, -d / 2, d / 2, 0.4, 0.62, shade(cloth, 0.92), Material.FABRIC),
        slab(w / 2 - 0.18, w / 2, -d / 2, d / 2, 0.4, 0.62, shade(cloth, 0.92), Material.FABRIC),
    ]
    inner = w - 0.36
    for i in range(seats):
        x0 = -inner / 2 + i * inner / seats
        parts.append(
            slab(
                x0 + 0.01,
                x0 + inner / seats - 0.01,
                -d / 2 + 0.22,
                d / 2 - 0.02,
                0.4,
                0.5,
                cushion,
                Material.FABRIC,
            )
        )
    return Asset("sofa", tuple(parts))


@ASSETS.register("armchair")
def armchair(rng: Rng) -> Asset:
    """Build a one-seat upholstered chair (category ``chair``)."""
    cloth = pick(rng, FABRICS)
    w, d = 0.8, 0.8
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.08, 0.42, cloth, Material.FABRIC),
        *legs(w / 2 - 0.05, d / 2 - 0.05, 0.08, 0.025, (0.2, 0.15, 0.1)),
        slab(-w / 2, w / 2, -d / 2, -d / 2 + 0.18, 0.42, 0.9, cloth, Material.FABRIC),
        slab(-w / 2, -w / 2 + 0.15, -d / 2, d / 2, 0.42, 0.62, shade(cloth, 0.9), Material.FABRIC),
        slab(w / 2 - 0.15, w / 2, -d / 2, d / 2, 0.42, 0.62, shade(cloth, 0.9), Material.FABRIC),
        slab(
            -w / 2 + 0.15, w / 2 - 0.15, -d / 2 + 0.18, d / 2, 0.42, 0.52, shade(cloth, 1.12), Material.FABRIC
        ),
    ]
    return Asset("chair", tuple(parts))


@ASSETS.register("stool")
def stool(rng: Rng) -> Asset:
    """Build a round seat on three or four thin legs."""
    h, r = float(rng.uniform(0.45, 0.75)), float(rng.uniform(0.16, 0.2))
    metal, seat = pick(rng, METALS), pick(rng, WOODS + FABRICS)
    parts: list[Part] = [cylinder(r, h - 0.05, h, (0.0, 0.0), seat, Material.WOOD)]
    for angle in np.linspace(0, 2 * np.pi, 4, endpoint=False) + np.pi / 4:
        parts.append(
            cylinder(
                0.015,
                0.0,
                h - 0.05,
                (0.8 * r * np.cos(angle), 0.8 * r * np.sin(angle)),
                metal,
                Material.METAL,
                sections=8,
            )
        )
    parts.append(cylinder(0.7 * r, 0.22, 0.24, (0.0, 0.0), metal, Material.METAL))
    return Asset("stool", tuple(parts))


@ASSETS.register("bookshelf")
def bookshelf(rng: Rng) -> Asset:
    """Build an open shelf unit with rows of coloured books."""
    w, d, h = float(rng.uniform(0.8, 1.2)), 0.32, float(rng.uniform(1.5, 2.0))
    wood = pick(rng, WOODS)
    shelves = int(h // 0.38)
    parts = [
        slab(-w / 2, -w / 2 + 0.02, -d / 2, d / 2, 0, h, wood, Material.WOOD),
        slab(w / 2 - 0.02, w / 2, -d / 2, d / 2, 0, h, wood, Material.WOOD),
        slab(-w / 2, w / 2, -d / 2, -d / 2 + 0.015, 0, h, shade(wood, 0.8), Material.WOOD),
    ]
    for i in range(shelves + 1):
        z = 0.04 + i * (h - 0.06) / shelves
        parts.append(slab(-w / 2, w / 2, -d / 2, d / 2, z, z + 0.02, wood, Material.WOOD))
        if i < shelves and rng.random() < 0.85:
            parts += _books(rng, w - 0.06, d, z + 0.02)
    return Asset("bookshelf", tuple(parts))


def _books(rng: Rng, width: float, depth: float, z: float) -> list[Part]:
    x, parts = -width / 2, []
    end = width / 2 - float(rng.uniform(0.0, 0.3))
    while x < end - 0.03:
        t, h = float(rng.uniform(0.02, 0.05)), float(rng.uniform(0.18, 0.3))
        color = pick(
            rng, ((0.6, 0.1, 0.1), (0.1, 0.25, 0.5), (0.15, 0.4, 0.2), (0.8, 0.7, 0.3), (0.2, 0.2, 0.2))
        )
        parts.append(slab(x, x + t, -depth / 2 + 0.03, depth / 2 - 0.04, z, z + h, color))
        x += t + 0.004
    return parts


@ASSETS.register("closet")
def closet(rng: Rng) -> Asset:
    """Build a tall wardrobe with two doors and handles."""
    w, d, h = float(rng.uniform(0.9, 1.4)), 0.6, float(rng.uniform(1.9, 2.2))
    wood, metal = pick(rng, WOODS + ((0.92, 0.92, 0.9),)), pick(rng, METALS)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.05, h, wood, Material.WOOD),
        slab(-w / 2, w / 2, -d / 2 + 0.02, d / 2 - 0.02, 0.0, 0.05, shade(wood, 0.6)),
        slab(-0.004, 0.004, d / 2, d / 2 + 0.005, 0.1, h - 0.05, shade(wood, 0.6)),
    ]
    for side in (-1, 1):
        parts.append(cylinder(0.012, h * 0.45, h * 0.6, (side * 0.05, d / 2 + 0.025), metal, Material.METAL))
        parts.append(
            slab(side * 0.045 - 0.004, side * 0.045 + 0.004, d / 2, d / 2 + 0.03, h * 0.47, h * 0.48, metal)
        )
    return Asset("closet", tuple(parts))


@ASSETS.register("cabinet")
def cabinet(rng: Rng) -> Asset:
    """Build a waist-high sideboard with doors (dining rooms, offices)."""
    w, d, h = float(rng.uniform(1.0, 1.6)), 0.45, float(rng.uniform(0.75, 0.9))
    wood = pick(rng, WOODS)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.08, h, wood, Material.WOOD),
        *legs(w / 2 - 0.04, d / 2 - 0.04, 0.08, 0.02, shade(wood, 0.6)),
    ]
    doors = 2 if w < 1.3 else 3
    for i in range(doors):
        x0 = -w / 2 + 0.02 + i * (w - 0.04) / doors
        parts.append(
            slab(
                x0 + 0.01,
                x0 + (w - 0.04) / doors - 0.01,
                d / 2,
                d / 2 + 0.01,
                0.12,
                h - 0.04,
                shade(wood, 1.12),
                Material.WOOD,
            )
        )
    return Asset("cabinet", tuple(parts))
