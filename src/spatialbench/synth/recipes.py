"""The six room recipes registered in ``ROOM_TYPES``.

Bedroom, living room, kitchen, bathroom, dining room and office. Each places anchors with their adjacency
constraints, then optional items and lights.
"""

from __future__ import annotations

import numpy as np

from spatialbench.synth.placement import GAP, Layout, against_wall, beside, on_top, relative_to
from spatialbench.synth.rooms import (
    ROOM_TYPES,
    anchor_in_open,
    anchor_on_wall,
    ceiling_lights,
    chairs_around,
    make,
    on_wall,
    optional_items,
    pillows,
    scatter_on,
    tv_facing,
)


@ROOM_TYPES.register("bedroom")
def bedroom(layout: Layout, room: int, dense: bool) -> None:
    """Bed against a wall with pillows, nightstands beside it with lamps, wardrobe, desk, mirror, lights."""
    bed = anchor_on_wall(layout, "bed", room, 0.6)
    stands = []
    if bed is not None:
        pillows(layout, bed, int(layout.rng.integers(2, 5)), back_offset=0.12)
        for side in (-1, 1) if dense or layout.rng.random() < 0.5 else (int(layout.rng.choice([-1, 1])),):
            stand = beside(layout, make(layout, "nightstand"), bed, side)
            if stand is not None:
                stands.append(stand)
                if layout.rng.random() < 0.7:
                    on_top(layout, make(layout, "table lamp"), stand, yaw=0.0)
        if dense:
            tv_facing(layout, room, bed)
    if dense:
        _workstation(layout, room, "chair", ["laptop", "books", "cup"])
    optional_items(layout, room, "bedroom", dense)
    on_wall(layout, "mirror", room)
    scatter_on(layout, stands, ["books", "cup"], 0.4)
    ceiling_lights(layout, room, 1)


@ROOM_TYPES.register("living room")
def living_room(layout: Layout, room: int, dense: bool) -> None:
    """Sofa against a wall with cushions, coffee table in front, TV facing the sofa, armchairs, plants."""
    sofa = anchor_on_wall(layout, "sofa", room, 1.4)
    if sofa is not None:
        pillows(layout, sofa, int(layout.rng.integers(2, 5)), back_offset=0.23, variant="cushion")
        table = make(layout, "coffee table")
        depth = sofa.asset.bounds()[1][1] + 0.45 - table.bounds()[0][1]
        coffee = relative_to(layout, table, sofa, np.array([0.0, depth, 0.0]), 0.0)
        tv_facing(layout, room, sofa)
        scatter_on(layout, [coffee] if coffee else [], ["books", "cup", "small plant"], 0.5)
    for _ in range(int(layout.rng.integers(1, 3)) if dense else int(layout.rng.integers(0, 2))):
        against_wall(layout, make(layout, "armchair"), room, front_clearance=0.6)
    optional_items(layout, room, "living room", dense)
    if dense:
        on_wall(layout, "clock", room)
    ceiling_lights(layout, room, int(layout.rng.integers(1, 3)))


@ROOM_TYPES.register("kitchen")
def kitchen(layout: Layout, room: int, dense: bool) -> None:
    """Counters, stove, refrigerator against walls; microwave and kettle on counters; table with chairs."""
    counters = [
        c
        for c in (
            against_wall(layout, make(layout, "counter"), room, front_clearance=0.9)
            for _ in range(2 if dense else 1)
        )
        if c is not None
    ]
    against_wall(layout, make(layout, "stove"), room, front_clearance=0.9)
    anchor_on_wall(layout, "refrigerator", room, 0.9)
    against_wall(layout, make(layout, "sink"), room, front_clearance=0.8)
    scatter_on(layout, counters, ["microwave", "kettle", "cup", "small plant"], 0.8 if dense else 0.5)
    table = anchor_in_open(layout, "dining table", room, 0.55, 0.6)
    if table is not None:
        chairs_around(layout, table, "chair", ends=False)
        scatter_on(layout, [table], ["cup", "small plant"], 0.4)
    optional_items(layout, room, "kitchen", dense)
    ceiling_lights(layout, room, int(layout.rng.integers(1, 3)))


@ROOM_TYPES.register("bathroom")
def bathroom(layout: Layout, room: int, dense: bool) -> None:
    """Toilet, sink with a mirror above it, bathtub, towel, washer; clearance in front of fixtures."""
    against_wall(layout, make(layout, "bathtub"), room, front_clearance=0.6)
    anchor_on_wall(layout, "toilet", room, 0.6)
    basin = against_wall(layout, make(layout, "sink"), room, front_clearance=0.7)
    if basin is not None:
        mirror = make(layout, "mirror")
        relative_to(
            layout,
            mirror,
            basin,
            np.array([0.0, basin.asset.bounds()[0][1] - mirror.bounds()[0][1] + GAP, 1.15]),
            0.0,
        )
    on_wall(layout, "towel", room)
    optional_items(layout, room, "bathroom", dense)
    ceiling_lights(layout, room, 1)


@ROOM_TYPES.register("dining room")
def dining_room(layout: Layout, room: int, dense: bool) -> None:
    """Return a central dining table ringed by chairs, sideboards against the walls, plants, lights above."""
    table = anchor_in_open(layout, "dining table", room, 0.8, 0.9)
    if table is not None:
        chairs_around(layout, table, "chair", ends=dense)
        scatter_on(layout, [table], ["small plant", "cup", "books"], 0.6)
    optional_items(layout, room, "dining room", dense)
    if dense:
        tv_facing(layout, room, table) if table is not None else None
        on_wall(layout, "clock", room)
    ceiling_lights(layout, room, int(layout.rng.integers(2, 4)))


@ROOM_TYPES.register("office")
def office(layout: Layout, room: int, dense: bool) -> None:
    """Place desks against walls, each with monitor, keyboard, mouse and an office chair; shelves, bins.

    Counts vary so that counting questions have answers above one.
    """
    for _ in range(int(layout.rng.integers(2, 5)) if dense else int(layout.rng.integers(1, 3))):
        _workstation(layout, room, "office chair", ["monitor", "keyboard", "computer mouse", "telephone"])
    cabinet = against_wall(layout, make(layout, "cabinet"), room, front_clearance=0.6)
    if cabinet is not None:
        on_top(layout, make(layout, "printer"), cabinet)
    on_wall(layout, "whiteboard", room)
    optional_items(layout, room, "office", dense)
    ceiling_lights(layout, room, int(layout.rng.integers(2, 5)))


def _workstation(layout: Layout, room: int, chair: str, items: list[str]) -> None:
    desk = against_wall(layout, make(layout, "desk"), room, front_clearance=0.9)
    if desk is None:
        return
    low, high = desk.asset.bounds()
    seat = make(layout, chair)
    relative_to(
        layout, seat, desk, np.array([0.0, high[1] + GAP * 2 + seat.bounds()[1][1] + 0.05, 0.0]), np.pi
    )
    back = (low[0] + 0.05, high[0] - 0.05, low[1] + 0.02, low[1] + 0.3)
    front = (low[0] + 0.05, high[0] - 0.05, low[1] + 0.3, high[1] - 0.02)
    for name in items:
        on_top(layout, make(layout, name), desk, yaw=0.0, region=back if name == "monitor" else front)
    if chair == "office chair" and layout.rng.random() < 0.6:
        beside(layout, make(layout, "computer tower"), desk, int(layout.rng.choice([-1, 1])))
