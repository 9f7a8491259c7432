"""Constraint placement of assets in a floor plan.

Assets go against walls, free-standing, beside, around, on top, on walls and on the ceiling. Every placement
is checked for intersection (2D footprints with overlapping height ranges) and must lie inside its room; a
keep-out zone in front of doors and passages stays free.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Polygon

from spatialbench.scene.box import rotation_z
from spatialbench.synth.parts import Asset
from spatialbench.synth.plan import FloorPlan, OpeningKind, WallFace
from spatialbench.synth.scene import SynthObject

GAP = 0.02  # metres left between touching objects so boxes never intersect


@dataclass
class Obstacle:
    """A floor region blocked over the height range ``z0``..``z1`` (object, wall body or keep-out zone)."""

    polygon: Polygon
    z0: float
    z1: float
    owner: int | None = None  # instance id of the object it belongs to


@dataclass
class Layout:
    """The growing set of placed objects of one scene, with the checks placement needs."""

    plan: FloorPlan
    rng: np.random.Generator
    objects: list[SynthObject] = field(default_factory=list)
    obstacles: list[Obstacle] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.plan.partition is not None:
            self.obstacles.append(Obstacle(self.plan.partition, 0.0, self.plan.height))
        for face in self.plan.faces:
            for opening in face.openings:
                if opening.kind is not OpeningKind.WINDOW:
                    zone = _keep_out(face, opening.center, opening.width + 0.2, 0.9)
                    self.obstacles.append(Obstacle(zone, 0.0, opening.top))

    def fits(self, obj: SynthObject, margin: float = 0.0) -> bool:
        """Return True when ``obj`` lies in its room and touches nothing in an overlapping height range."""
        footprint = obj.footprint()
        if not self.plan.rooms[obj.room].buffer(1e-6).contains(footprint):
            return False
        z0, z1 = obj.z_range()
        grown = obj.footprint(margin) if margin else footprint
        for other in self.obstacles:
            if obj.support is not None and other.owner == obj.support:
                continue  # resting on the support's own surface is not an intersection
            if other.z0 < z1 and z0 < other.z1 and other.polygon.intersects(grown):
                return False
        return True

    def add(
        self,
        asset: Asset,
        position: NDArray[np.float64],
        yaw: float,
        room: int,
        support: int | None = None,
        margin: float = 0.0,
        check: bool = True,
    ) -> SynthObject | None:
        """Place ``asset`` if it fits and return the new object, else None (nothing changes then).

        With ``check`` False the asset is placed unchecked (doors and windows sit inside walls).
        """
        obj = SynthObject(
            len(self.objects) + 1, asset, np.asarray(position, dtype=float), float(yaw), support, room
        )
        if check and not self.fits(obj, margin):
            return None
        self.objects.append(obj)
        z0, z1 = obj.z_range()
        self.obstacles.append(Obstacle(obj.footprint(GAP / 2), z0, z1, obj.instance_id))
        return obj

    def faces(self, room: int) -> list[WallFace]:
        """Return the wall faces of ``room``."""
        return [face for face in self.plan.faces if face.room == room]


def _keep_out(face: WallFace, center: float, width: float, depth: float) -> Polygon:
    a, b = face.point(center - width / 2), face.point(center + width / 2)
    return Polygon([a, b, b + face.normal * depth, a + face.normal * depth])


def facing_yaw(direction: NDArray[np.float64]) -> float:
    """Yaw that turns an asset's local front (+y) towards the 2D ``direction``."""
    return float(np.arctan2(-direction[0], direction[1]))


def _blocked_spans(face: WallFace, height: float, z0: float = 0.0) -> list[tuple[float, float]]:
    spans = []
    for opening in face.openings:
        # Windows only block objects that reach the sill; doors and passages block everything.
        if opening.kind is not OpeningKind.WINDOW or (height > opening.bottom and z0 < opening.top):
            spans.append((opening.center - opening.width / 2, opening.center + opening.width / 2))
    return spans


def against_wall(
    layout: Layout,
    asset: Asset,
    room: int,
    tries: int = 40,
    z: float = 0.0,
    front_clearance: float = 0.0,
    face: WallFace | None = None,
    load_height: float = 0.0,
) -> SynthObject | None:
    """Place ``asset`` with its back to a wall of ``room``, facing into the room.

    ``z`` is the height of the asset's local origin (wall-mounted objects); ``front_clearance`` metres in
    front of it must stay free of other floor objects; ``load_height`` is the height of what will stand on
    it (a TV), so that the pair stays clear of window sills. Returns None when no spot fits in ``tries``.
    """
    low, high = asset.bounds()
    width, back = high[0] - low[0], -low[1]
    candidates = [face] if face is not None else layout.faces(room)
    for _ in range(tries):
        wall = candidates[int(layout.rng.integers(len(candidates)))]
        if wall.length < width + 0.1:
            continue
        u = float(layout.rng.uniform(width / 2 + GAP, wall.length - width / 2 - GAP))
        lo, hi = u - width / 2 - 0.05, u + width / 2 + 0.05  # assets are (nearly) symmetric in local x
        if any(a < hi and lo < b for a, b in _blocked_spans(wall, z + high[2] + load_height, z + low[2])):
            continue
        inset = back + GAP + (layout.plan.wall_thickness / 2 if wall.two_sided else 0.0)
        xy = wall.point(u, inset)
        yaw = facing_yaw(wall.normal)
        if front_clearance and not _front_free(
            layout, xy, wall.normal, width, high[1], front_clearance, room
        ):
            continue
        placed = layout.add(asset, np.array([xy[0], xy[1], z]), yaw, room)
        if placed is not None:
            return placed
    return None


def _front_free(
    layout: Layout,
    xy: NDArray[np.float64],
    normal: NDArray[np.float64],
    width: float,
    front: float,
    depth: float,
    room: int,
) -> bool:
    side = np.array([-normal[1], normal[0]]) * width / 2
    near, far = xy + normal * (front + GAP), xy + normal * (front + depth)
    zone = Polygon([near - side, near + side, far + side, far - side])
    if not layout.plan.rooms[room].buffer(1e-6).contains(zone):
        return False
    return not any(o.z0 < 1.0 and o.polygon.intersects(zone) for o in layout.obstacles)


def free_standing(
    layout: Layout, asset: Asset, room: int, margin: float, tries: int = 60, center_bias: float = 0.0
) -> SynthObject | None:
    """Place ``asset`` anywhere in ``room``, aligned with the walls, with ``margin`` metres free round it.

    ``center_bias`` in [0, 1] pulls candidates towards the room centre.
    """
    polygon = layout.plan.rooms[room]
    x0, y0, x1, y1 = polygon.bounds
    centroid = np.array(polygon.centroid.coords[0])
    for _ in range(tries):
        xy = np.array([layout.rng.uniform(x0, x1), layout.rng.uniform(y0, y1)])
        xy = xy + (centroid - xy) * center_bias * float(layout.rng.uniform(0.5, 1.0))
        yaw = float(layout.rng.integers(4)) * np.pi / 2
        placed = layout.add(asset, np.array([xy[0], xy[1], 0.0]), yaw, room, margin=margin)
        if placed is not None:
            return placed
    return None


def relative_to(
    layout: Layout,
    asset: Asset,
    anchor: SynthObject,
    offset: NDArray[np.float64],
    yaw: float,
    support: int | None = None,
) -> SynthObject | None:
    """Place ``asset`` at ``offset`` (3,) in ``anchor``'s local frame, turned ``yaw`` relative to it."""
    position = anchor.pose()[:3, :3] @ offset + anchor.position
    return layout.add(asset, position, anchor.yaw + yaw, anchor.room, support)


def beside(layout: Layout, asset: Asset, anchor: SynthObject, side: int) -> SynthObject | None:
    """Place ``asset`` next to ``anchor`` on ``side`` (-1 left, +1 right), backs aligned (nightstands)."""
    a_low, a_high = anchor.asset.bounds()
    low, high = asset.bounds()
    x = (a_high[0] + GAP * 2 - low[0]) if side > 0 else (a_low[0] - GAP * 2 - high[0])
    y = a_low[1] - low[1] + GAP
    return relative_to(layout, asset, anchor, np.array([x, y, 0.0]), 0.0)


def on_top(
    layout: Layout,
    asset: Asset,
    support: SynthObject,
    tries: int = 20,
    yaw: float | None = None,
    region: tuple[float, float, float, float] | None = None,
) -> SynthObject | None:
    """Place ``asset`` on the top surface of ``support``.

    ``region`` (x0, x1, y0, y1 in the support's local frame) limits where; ``yaw`` is relative to the
    support (random quarter turns when None).
    """
    s_low, s_high = support.asset.bounds()
    x0, x1, y0, y1 = region or (s_low[0], s_high[0], s_low[1], s_high[1])
    for _ in range(tries):
        turn = float(layout.rng.integers(4)) * np.pi / 2 if yaw is None else yaw
        low, high = asset.bounds()
        half = np.abs(rotation_z(turn)[:2, :2]) @ ((high - low)[:2] / 2) + 0.02
        if x1 - x0 < 2 * half[0] or y1 - y0 < 2 * half[1]:
            return None
        local = np.array(
            [
                layout.rng.uniform(x0 + half[0], x1 - half[0]),
                layout.rng.uniform(y0 + half[1], y1 - half[1]),
                s_high[2] + 0.001,
            ]
        )
        placed = relative_to(
            layout,
            asset,
            support,
            local - np.append(rotation_z(turn)[:2, :2] @ ((low + high)[:2] / 2), 0.0),
            turn,
            support.instance_id,
        )
        if placed is not None:
            return placed
    return None
