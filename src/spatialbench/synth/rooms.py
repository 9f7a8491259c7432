"""Room recipes: which objects a room type gets and how they relate.

In the spirit of ReMindView-Bench App. B.1: large furniture first under wall/adjacency constraints, then
medium and small objects on supports).

Each recipe places the room's anchor furniture, then its optional items, whose counts depend on the
density ("sparse" or "dense"). Recipes only call the placement primitives; all randomness is ``layout.rng``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spatialbench.registry import Registry
from spatialbench.synth.assets import ASSETS
from spatialbench.synth.parts import Asset
from spatialbench.synth.placement import (
    GAP,
    Layout,
    against_wall,
    facing_yaw,
    free_standing,
    on_top,
    relative_to,
)
from spatialbench.synth.plan import OpeningKind
from spatialbench.synth.scene import SynthObject

Recipe = Callable[[Layout, int, bool], None]
#: Room type → recipe ``f(layout, room_index, dense)``.
ROOM_TYPES: Registry[Recipe] = Registry("room type")

#: Optional floor items per room type: variant name → (count if sparse, count if dense), upper bounds.
OPTIONAL = {
    "bedroom": {
        "closet": (1, 1),
        "trash bin": (1, 1),
        "backpack": (0, 2),
        "plant": (0, 2),
        "bookshelf": (0, 1),
    },
    "living room": {
        "floor lamp": (1, 2),
        "plant": (1, 3),
        "bookshelf": (1, 2),
        "stool": (0, 2),
        "trash bin": (1, 1),
        "backpack": (0, 1),
    },
    "kitchen": {
        "trash bin": (1, 2),
        "stool": (0, 3),
        "plant": (0, 1),
        "dishwasher": (0, 1),
        "washer": (0, 1),
    },
    "bathroom": {"trash bin": (1, 1), "washer": (1, 1), "plant": (0, 1)},
    "dining room": {"cabinet": (1, 2), "plant": (1, 3), "floor lamp": (0, 1), "trash bin": (0, 1)},
    "office": {"bookshelf": (1, 2), "trash bin": (1, 3), "backpack": (0, 2), "plant": (0, 2)},
}
WALL_MOUNTED = {
    "mirror": 1.05,
    "whiteboard": 0.9,
    "clock": 1.8,
    "towel": 1.0,
    "radiator": 0.0,
    "painting": 1.45,
    "poster": 1.3,
    "calendar": 1.35,
}


def make(layout: Layout, name: str) -> Asset:
    """Build a fresh instance of the asset variant ``name`` from the layout's generator."""
    return ASSETS.get(name)(layout.rng)


def anchor_on_wall(layout: Layout, name: str, room: int, clearance: float) -> SynthObject | None:
    """Place a room's anchor (bed, sofa, toilet...) against a wall; None only when even a bare fit fails.

    The front clearance is relaxed and the asset redrawn (another size) until it fits.
    """
    for factor in (1.0, 0.6, 0.3, 0.0):
        placed = against_wall(layout, make(layout, name), room, front_clearance=clearance * factor)
        if placed is not None:
            return placed
    return None


def anchor_in_open(
    layout: Layout, name: str, room: int, margin: float, center_bias: float
) -> SynthObject | None:
    """Place a free-standing anchor (dining table), shrinking the walkway margin around it until it fits."""
    for factor in (1.0, 0.75, 0.5, 0.3):
        placed = free_standing(
            layout, make(layout, name), room, margin=margin * factor, center_bias=center_bias
        )
        if placed is not None:
            return placed
    return None


def _count(layout: Layout, bounds: tuple[int, int], dense: bool) -> int:
    high = bounds[1] if dense else bounds[0]
    low = 1 if bounds[0] >= 1 else 0
    return int(layout.rng.integers(low, high + 1)) if high >= low else 0


def optional_items(layout: Layout, room: int, room_type: str, dense: bool) -> None:
    """Place the optional floor items of ``room_type`` against walls (or free-standing when no wall fits)."""
    for name, bounds in OPTIONAL[room_type].items():
        for _ in range(_count(layout, bounds, dense)):
            asset = make(layout, name)
            placed = against_wall(layout, asset, room, front_clearance=0.4)
            if placed is None and asset.extent()[2] < 1.0:  # small items may stand in the open
                free_standing(layout, asset, room, margin=0.4)


def on_wall(layout: Layout, name: str, room: int, z: float | None = None) -> SynthObject | None:
    """Hang the variant ``name`` on a wall of ``room`` at its usual height (or ``z``)."""
    return against_wall(layout, make(layout, name), room, z=WALL_MOUNTED.get(name, 1.0) if z is None else z)


def radiators(layout: Layout, room: int, probability: float) -> None:
    """Put a radiator on the floor under each window of ``room`` with ``probability`` (before furniture)."""
    for face in layout.faces(room):
        for opening in face.openings:
            if opening.kind is not OpeningKind.WINDOW or layout.rng.random() >= probability:
                continue
            asset = make(layout, "radiator")
            low, high = asset.bounds()
            if high[0] - low[0] > opening.width or high[2] > opening.bottom:
                continue
            xy = face.point(opening.center, -low[1] + GAP)
            layout.add(asset, np.array([xy[0], xy[1], 0.0]), facing_yaw(face.normal), room)


def ceiling_lights(layout: Layout, room: int, count: int) -> None:
    """Spread ``count`` ceiling lights over the room's floor polygon (on a jittered grid)."""
    polygon = layout.plan.rooms[room]
    x0, y0, x1, y1 = polygon.bounds
    columns = int(np.ceil(np.sqrt(count * (x1 - x0) / (y1 - y0))))
    rows = int(np.ceil(count / columns))
    spots = [
        (x0 + (i + 0.5) * (x1 - x0) / columns, y0 + (j + 0.5) * (y1 - y0) / rows)
        for i in range(columns)
        for j in range(rows)
    ]
    for index in layout.rng.permutation(len(spots))[:count]:
        x, y = spots[int(index)]
        layout.add(make(layout, "ceiling light"), np.array([x, y, layout.plan.height]), 0.0, room)


def pillows(
    layout: Layout, support: SynthObject, count: int, back_offset: float, variant: str = "pillow"
) -> None:
    """Line up to ``count`` pillows side by side on ``support``, resting on the part below them.

    They start ``back_offset`` metres in front of its back (in front of a headboard or a sofa's backrest).
    """
    low, high = support.asset.bounds()
    assets = [make(layout, variant) for _ in range(count)]
    widths = [a.extent()[0] for a in assets]
    span = high[0] - low[0] - 0.1
    while assets and sum(widths) + 0.03 * len(widths) > span:
        assets.pop(), widths.pop()
    x = -(sum(widths) + 0.03 * (len(widths) - 1)) / 2
    for asset, width in zip(assets, widths, strict=True):
        y = low[1] + back_offset + asset.extent()[1] / 2
        z = _top_height(support, np.array([x + width / 2, y]))
        relative_to(layout, asset, support, np.array([x + width / 2, y, z]), 0.0, support.instance_id)
        x += width + 0.03


def _top_height(support: SynthObject, xy: np.ndarray) -> float:
    """Height of the support's highest part under local point ``xy`` (mattress, sofa seat), metres."""
    tops = [
        p.mesh.bounds[1][2]
        for p in support.asset.parts
        if np.all(p.mesh.bounds[0][:2] <= xy) and np.all(xy <= p.mesh.bounds[1][:2])
    ]
    return float(max(tops)) + 0.001 if tops else float(support.asset.bounds()[1][2]) + 0.001


def chairs_around(layout: Layout, table: SynthObject, variant: str, ends: bool) -> None:
    """Seat chairs along both long sides of ``table`` (one per 0.6 m), and at the ends when ``ends``."""
    low, high = table.asset.bounds()
    per_side = max(1, int((high[0] - low[0]) // 0.62))
    xs = low[0] + (np.arange(per_side) + 0.5) * (high[0] - low[0]) / per_side
    seats = [(float(x), side) for x in xs for side in (-1, 1)]
    for x, side in seats:
        chair = make(layout, variant)
        c_low, c_high = chair.bounds()
        y = (high[1] + GAP * 2 + c_high[1]) if side > 0 else (low[1] - GAP * 2 - c_high[1])
        relative_to(layout, chair, table, np.array([x, y, 0.0]), np.pi if side > 0 else 0.0)
    if ends:
        for side in (-1, 1):
            chair = make(layout, variant)
            x = (
                (high[0] + GAP * 2 + chair.bounds()[1][1])
                if side > 0
                else (low[0] - GAP * 2 - chair.bounds()[1][1])
            )
            relative_to(layout, chair, table, np.array([x, 0.0, 0.0]), np.pi / 2 if side > 0 else -np.pi / 2)


def tv_facing(layout: Layout, room: int, viewer: SynthObject) -> SynthObject | None:
    """Place a TV table facing ``viewer`` (sofa or bed) and the TV on it.

    The table goes against the wall opposite the viewer (first keeping 0.3 m in front free, then not); when
    no such wall has room, it stands free 1.8-3 m in front of the viewer, turned to face it.
    """
    front = viewer.pose()[:2, 1]
    faces = [f for f in layout.faces(room) if float(np.dot(f.normal, front)) < -0.9]
    table = None
    for face, clearance in ((f, c) for c in (0.3, 0.0) for f in faces):
        asset = make(layout, "tv table")
        table = against_wall(
            layout, asset, room, face=face, tries=25, front_clearance=clearance, load_height=0.8
        )
        if table is not None:
            break
    reach = viewer.asset.bounds()[1][1]
    for distance in (3.0, 2.6, 2.2, 1.8) if table is None else ():
        asset = make(layout, "tv table")
        offset = np.array([0.0, reach + distance - asset.bounds()[1][1], 0.0])
        table = relative_to(layout, asset, viewer, offset, np.pi)
        if table is not None:
            break
    if table is not None:
        _tv_on(layout, table)
    return table


def _tv_on(layout: Layout, table: SynthObject) -> None:
    tv = make(layout, "tv")
    for _ in range(5):  # a TV that fits the table
        if tv.extent()[0] < table.asset.extent()[0] - 0.1:
            break
        tv = make(layout, "tv")
    top = table.asset.bounds()[1][2] + 0.001
    relative_to(layout, tv, table, np.array([0.0, 0.0, top]), 0.0, table.instance_id)


def scatter_on(layout: Layout, supports: list[SynthObject], names: list[str], probability: float) -> None:
    """Each variant in ``names`` goes, with ``probability``, onto a random one of ``supports``."""
    for name in names:
        if supports and layout.rng.random() < probability:
            on_top(layout, make(layout, name), supports[int(layout.rng.integers(len(supports)))])


#: small objects for surfaces (``tabletop_items``): variant → its category (each its own, so none needs a
#: colour to be named)
TABLETOP = {
    "books": "book",
    "cup": "cup",
    "small plant": "plant",
    "vase": "vase",
    "bowl": "bowl",
    "bottle": "bottle",
    "candle": "candle",
    "basket": "basket",
    "speaker": "speaker",
    "kettle": "kettle",
    "telephone": "telephone",
    "laptop": "laptop",
    "table lamp": "lamp",
}
#: categories whose top takes small objects, and the highest top that still shows them (metres)
SURFACES, SURFACE_TOP_M = (
    frozenset({"table", "nightstand", "counter", "cabinet", "washer", "dishwasher"}),
    1.3,
)


def tabletop_items(layout: Layout, room: int, per_surface: int) -> None:
    """Put up to ``per_surface`` small objects on every free top of ``room`` (tables, counters, cabinets...).

    Categories already in the room are not repeated, so every object keeps a plain name (ReMindView-Bench
    App. A.3: most images show 3–9 objects; naming: ``generate.remindview.naming``).
    """
    present = {o.category for o in layout.objects}
    pool = [name for name, category in TABLETOP.items() if category not in present]
    order = [pool[int(i)] for i in layout.rng.permutation(len(pool))]
    supports = [
        o
        for o in layout.objects
        if o.room == room and o.category in SURFACES and o.support is None and o.z_range()[1] < SURFACE_TOP_M
    ]
    for support in supports:
        for _ in range(per_surface):
            if order and on_top(layout, make(layout, order[-1]), support) is not None:
                order.pop()


#: decor for every wall face (``wall_decor``): low floor objects and pictures, variant → category
FLOOR_DECOR = {
    "storage box": "storage box",
    "pouf": "pouf",
    "guitar": "guitar",
    "floor lamp": "lamp",
    "backpack": "backpack",
}
PICTURES = {"painting": "painting", "poster": "poster", "calendar": "calendar"}


def wall_decor(layout: Layout, room: int) -> None:
    """Stand a low object on the floor and hang a picture on each wall face of ``room`` that has room.

    Categories already in the room are not repeated. So a camera turned towards any wall sees a nameable
    object (view-centric frames look down at the target, so mostly the floor along a wall; issue 27).
    """
    present = {o.category for o in layout.objects}
    for variants, on_floor in ((FLOOR_DECOR, True), (PICTURES, False)):
        names = list(variants)
        order = [names[int(i)] for i in layout.rng.permutation(len(names))]
        for face in layout.faces(room):
            order = [n for n in order if variants[n] not in present]
            if not order:
                break
            z = 0.0 if on_floor else WALL_MOUNTED[order[-1]]
            if against_wall(layout, make(layout, order[-1]), room, tries=15, z=z, face=face) is not None:
                present.add(variants[order.pop()])
