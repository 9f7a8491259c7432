"""Kitchen, bathroom and electronic appliances. Local frame as in ``synth.parts`` (front is +y)."""

from __future__ import annotations

import numpy as np

from spatialbench.synth.assets.registry import ASSETS, Rng
from spatialbench.synth.colors import APPLIANCE, METALS, PORCELAIN, WOODS, pick, shade
from spatialbench.synth.parts import Asset, Material, Part, cylinder, ellipsoid, slab

BLACK = (0.04, 0.04, 0.05)


@ASSETS.register("refrigerator")
def refrigerator(rng: Rng) -> Asset:
    """Build a tall box with a freezer door, a fridge door and two vertical bar handles."""
    w, d, h = float(rng.uniform(0.6, 0.8)), 0.68, float(rng.uniform(1.7, 1.95))
    body, metal = pick(rng, APPLIANCE, 0.02), pick(rng, METALS)
    split = h * 0.66
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.02, h, body, Material.METAL),
        slab(-w / 2 + 0.01, w / 2 - 0.01, d / 2, d / 2 + 0.005, split - 0.01, split + 0.01, shade(body, 0.6)),
        slab(
            w / 2 - 0.09,
            w / 2 - 0.06,
            d / 2 + 0.03,
            d / 2 + 0.05,
            split - 0.55,
            split - 0.1,
            metal,
            Material.METAL,
        ),
        slab(
            w / 2 - 0.09,
            w / 2 - 0.06,
            d / 2 + 0.03,
            d / 2 + 0.05,
            split + 0.08,
            split + 0.35,
            metal,
            Material.METAL,
        ),
    ]
    for z in (split - 0.3, split - 0.15, split + 0.12, split + 0.3):
        parts.append(
            slab(w / 2 - 0.09, w / 2 - 0.06, d / 2, d / 2 + 0.04, z, z + 0.02, metal, Material.METAL)
        )
    return Asset("refrigerator", tuple(parts))


@ASSETS.register("counter")
def counter(rng: Rng) -> Asset:
    """Build a kitchen counter: cabinets with doors under a stone worktop (0.9 m)."""
    w, d = float(rng.uniform(1.2, 2.4)), 0.62
    cab, top = (
        pick(rng, WOODS + APPLIANCE),
        pick(rng, ((0.3, 0.3, 0.32), (0.85, 0.85, 0.82), (0.55, 0.5, 0.45))),
    )
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2 - 0.03, 0.1, 0.87, cab, Material.WOOD),
        slab(-w / 2, w / 2, -d / 2, d / 2 - 0.08, 0.0, 0.1, shade(cab, 0.5)),
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.87, 0.91, top),
    ]
    doors = max(2, int(round(w / 0.5)))
    for i in range(doors):
        x0 = -w / 2 + i * w / doors
        parts.append(
            slab(
                x0 + 0.01,
                x0 + w / doors - 0.01,
                d / 2 - 0.03,
                d / 2 - 0.01,
                0.13,
                0.84,
                shade(cab, 1.1),
                Material.WOOD,
            )
        )
        parts.append(
            slab(
                x0 + w / doors / 2 - 0.05,
                x0 + w / doors / 2 + 0.05,
                d / 2 - 0.01,
                d / 2 + 0.01,
                0.76,
                0.78,
                pick(rng, METALS),
                Material.METAL,
            )
        )
    return Asset("counter", tuple(parts))


@ASSETS.register("stove")
def stove(rng: Rng) -> Asset:
    """Build a free-standing cooker: oven door with window and handle, black hob with four burners."""
    w, d, h = 0.6, 0.6, 0.9
    body, metal = pick(rng, APPLIANCE, 0.02), pick(rng, METALS)
    parts: list[Part] = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, h - 0.02, body, Material.METAL),
        slab(-w / 2, w / 2, -d / 2, d / 2, h - 0.02, h, BLACK, Material.SCREEN),
        slab(-w / 2 + 0.08, w / 2 - 0.08, d / 2, d / 2 + 0.005, 0.25, 0.6, BLACK, Material.SCREEN),
        cylinder(0.012, -w / 2 + 0.06, w / 2 - 0.06, (d / 2 + 0.04, 0.68), metal, Material.METAL, axis="x"),
    ]
    for x in (-0.14, 0.14):
        for y in (-0.14, 0.14):
            parts.append(cylinder(0.08 if x < 0 else 0.06, h, h + 0.01, (x, y), (0.2, 0.2, 0.2), sections=24))
    for x in np.linspace(-0.2, 0.2, 4):
        parts.append(cylinder(0.02, d / 2, d / 2 + 0.03, (float(x), 0.8), BLACK, axis="y", sections=10))
    return Asset("stove", tuple(parts))


@ASSETS.register("microwave")
def microwave(rng: Rng) -> Asset:
    """Build a countertop microwave: box, dark door window, control panel."""
    w, d, h = float(rng.uniform(0.45, 0.55)), 0.36, 0.28
    body = pick(rng, APPLIANCE, 0.02)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, h, body, Material.METAL),
        slab(-w / 2 + 0.03, w / 2 - 0.14, d / 2, d / 2 + 0.005, 0.04, h - 0.04, BLACK, Material.SCREEN),
        slab(w / 2 - 0.12, w / 2 - 0.03, d / 2, d / 2 + 0.005, 0.04, h - 0.04, shade(body, 0.7)),
    ]
    return Asset("microwave", tuple(parts))


@ASSETS.register("washer")
def washer(rng: Rng) -> Asset:
    """Build a front-loading washing machine: white cube, round dark porthole with rim, control strip."""
    body = pick(rng, APPLIANCE[:2], 0.02)
    parts = [
        slab(-0.3, 0.3, -0.3, 0.3, 0.0, 0.85, body, Material.METAL),
        cylinder(0.2, 0.3, 0.32, (0.0, 0.4), (0.7, 0.7, 0.72), Material.METAL, axis="y", sections=32),
        cylinder(0.15, 0.32, 0.33, (0.0, 0.4), (0.12, 0.14, 0.18), Material.SCREEN, axis="y", sections=32),
        slab(-0.28, 0.28, 0.3, 0.305, 0.7, 0.82, shade(body, 0.85)),
        cylinder(0.03, 0.3, 0.33, (0.18, 0.76), (0.5, 0.5, 0.5), axis="y", sections=12),
    ]
    return Asset("washer", tuple(parts))


@ASSETS.register("dishwasher")
def dishwasher(rng: Rng) -> Asset:
    """Build a built-in dishwasher: steel front with a top bar handle."""
    body = pick(rng, APPLIANCE, 0.02)
    parts = [
        slab(-0.3, 0.3, -0.3, 0.3, 0.0, 0.86, body, Material.METAL),
        slab(-0.3, 0.3, 0.3, 0.305, 0.74, 0.86, shade(body, 0.75)),
        cylinder(0.012, -0.2, 0.2, (0.34, 0.7), (0.7, 0.7, 0.72), Material.METAL, axis="x"),
    ]
    return Asset("dishwasher", tuple(parts))


@ASSETS.register("toilet")
def toilet(rng: Rng) -> Asset:
    """Porcelain pedestal, oval bowl with seat and lid up, cistern against the wall (-y)."""
    white = PORCELAIN
    parts = [
        cylinder(0.13, 0.0, 0.3, (0.0, 0.08), white, sections=20),
        ellipsoid((0.19, 0.25, 0.1), (0.0, 0.12, 0.33), white),
        ellipsoid((0.17, 0.23, 0.015), (0.0, 0.13, 0.42), pick(rng, ((0.95, 0.95, 0.95), (0.3, 0.3, 0.3)))),
        slab(-0.2, 0.2, -0.2, -0.04, 0.38, 0.78, white),
        slab(-0.21, 0.21, -0.21, -0.03, 0.78, 0.81, shade(white, 0.97)),
        cylinder(0.02, -0.03, -0.015, (0.12, 0.72), (0.75, 0.76, 0.78), Material.METAL, axis="y"),
    ]
    return Asset("toilet", tuple(parts))


@ASSETS.register("sink")
def sink(rng: Rng) -> Asset:
    """Build a vanity: cabinet, white basin and a chrome tap."""
    w = float(rng.uniform(0.55, 0.9))
    cab, chrome = pick(rng, WOODS + APPLIANCE), (0.8, 0.81, 0.83)
    parts = [
        slab(-w / 2, w / 2, -0.23, 0.23, 0.1, 0.82, cab, Material.WOOD),
        slab(-w / 2 + 0.01, w / 2 - 0.01, 0.23, 0.24, 0.15, 0.78, shade(cab, 1.1), Material.WOOD),
        slab(-w / 2, w / 2, -0.24, 0.24, 0.82, 0.86, PORCELAIN),
        ellipsoid((0.2, 0.15, 0.03), (0.0, 0.03, 0.865), (0.8, 0.82, 0.84), Material.METAL),
        cylinder(0.015, 0.86, 1.0, (0.0, -0.17), chrome, Material.METAL, sections=10),
        cylinder(0.012, -0.17, -0.06, (0.0, 0.99), chrome, Material.METAL, axis="y", sections=10),
    ]
    return Asset("sink", tuple(parts))


@ASSETS.register("bathtub")
def bathtub(rng: Rng) -> Asset:
    """Build a white tub: hollow shell with a rim, pale-blue basin inside and a chrome tap at one end."""
    w, d, h = float(rng.uniform(1.5, 1.75)), float(rng.uniform(0.7, 0.8)), 0.56
    rim, basin, chrome = 0.08, (0.8, 0.86, 0.92), (0.8, 0.81, 0.83)
    parts = [
        slab(-w / 2, w / 2, -d / 2, d / 2, 0.0, 0.12, PORCELAIN),
        slab(-w / 2 + rim, w / 2 - rim, -d / 2 + rim, d / 2 - rim, 0.12, 0.14, basin),
        slab(-w / 2, w / 2, -d / 2, -d / 2 + rim, 0.12, h, PORCELAIN),
        slab(-w / 2, w / 2, d / 2 - rim, d / 2, 0.12, h, PORCELAIN),
        slab(-w / 2, -w / 2 + rim, -d / 2 + rim, d / 2 - rim, 0.12, h, PORCELAIN),
        slab(w / 2 - rim, w / 2, -d / 2 + rim, d / 2 - rim, 0.12, h, PORCELAIN),
        cylinder(0.02, h, h + 0.15, (-w / 2 + 0.04, 0.0), chrome, Material.METAL, sections=10),
        cylinder(0.015, -w / 2 + 0.04, -w / 2 + 0.18, (0.0, h + 0.14), chrome, Material.METAL, axis="x"),
    ]
    return Asset("bathtub", tuple(parts))


@ASSETS.register("tv")
def tv(rng: Rng) -> Asset:
    """Build a flat screen (dark, glossy) in a thin bezel on a pedestal stand; origin under the stand."""
    diag = float(rng.uniform(0.8, 1.4))
    w, h = diag * 0.87, diag * 0.49
    bezel = pick(rng, ((0.05, 0.05, 0.06), (0.15, 0.15, 0.16)))
    lift = 0.08
    parts = [
        slab(-w / 2, w / 2, -0.03, 0.0, lift, lift + h, bezel),
        slab(
            -w / 2 + 0.015,
            w / 2 - 0.015,
            0.0,
            0.004,
            lift + 0.015,
            lift + h - 0.015,
            (0.06, 0.08, 0.12),
            Material.SCREEN,
        ),
        slab(-0.03, 0.03, -0.06, -0.03, 0.01, lift + 0.15, bezel),
        slab(-0.18, 0.18, -0.14, 0.06, 0.0, 0.015, bezel),
    ]
    return Asset("tv", tuple(parts))


@ASSETS.register("monitor")
def monitor(rng: Rng) -> Asset:
    """Build a computer monitor: dark screen in a bezel, neck and foot."""
    w = float(rng.uniform(0.48, 0.62))
    h = w * 0.6
    black = (0.06, 0.06, 0.07)
    parts = [
        slab(-w / 2, w / 2, -0.025, 0.0, 0.1, 0.1 + h, black),
        slab(-w / 2 + 0.01, w / 2 - 0.01, 0.0, 0.003, 0.11, 0.09 + h, (0.08, 0.12, 0.2), Material.SCREEN),
        slab(-0.025, 0.025, -0.07, -0.025, 0.01, 0.25, black),
        slab(-0.11, 0.11, -0.14, 0.04, 0.0, 0.012, black),
    ]
    return Asset("monitor", tuple(parts))


@ASSETS.register("computer tower")
def computer_tower(rng: Rng) -> Asset:
    """Build a desktop PC case standing on the floor, with a power light."""
    black = pick(rng, ((0.08, 0.08, 0.09), (0.85, 0.85, 0.85)))
    parts = [
        slab(-0.1, 0.1, -0.22, 0.22, 0.0, 0.45, black, Material.METAL),
        slab(-0.08, 0.08, 0.22, 0.225, 0.35, 0.42, shade(black, 1.5)),
        cylinder(0.008, 0.22, 0.23, (0.0, 0.3), (0.2, 0.5, 1.0), Material.EMISSIVE, axis="y", sections=8),
    ]
    return Asset("computer tower", tuple(parts))


@ASSETS.register("printer")
def printer(rng: Rng) -> Asset:
    """Build an office printer: body, paper tray and output slot."""
    body = pick(rng, ((0.9, 0.9, 0.88), (0.2, 0.2, 0.22)))
    parts = [
        slab(-0.22, 0.22, -0.2, 0.2, 0.0, 0.22, body),
        slab(-0.18, 0.18, 0.2, 0.3, 0.05, 0.07, shade(body, 0.9)),
        slab(-0.15, 0.15, -0.05, 0.15, 0.22, 0.225, (0.98, 0.98, 0.98)),
        slab(0.1, 0.2, 0.2, 0.205, 0.15, 0.2, (0.1, 0.3, 0.5), Material.SCREEN),
    ]
    return Asset("printer", tuple(parts))
