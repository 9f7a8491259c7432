"""Floor plans: rectangular, L-shaped and two connected rooms, with walls, doors, windows and passages.

The floor is the union of the room polygons at z = 0; walls stand *outside* that footprint (their inner face
is the footprint boundary), except the partition between two connected rooms, which is centred on the
shared edge. All lengths in metres, world frame z up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry import box as shapely_box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import unary_union


class PlanKind(StrEnum):
    """Floor-plan shapes."""

    RECTANGLE = "rectangle"
    L_SHAPE = "l_shape"
    TWO_ROOMS = "two_rooms"


class OpeningKind(StrEnum):
    """What fills a hole in a wall."""

    DOOR = "door"
    WINDOW = "window"
    PASSAGE = "passage"  # an open doorway between two rooms


@dataclass(frozen=True)
class Opening:
    """A hole in a wall, ``center`` metres along it from its start, ``bottom``..``top`` above the floor."""

    kind: OpeningKind
    center: float
    width: float
    bottom: float
    top: float


@dataclass(frozen=True)
class WallFace:
    """One face of a wall seen from a room.

    Attributes:
        start, end: (2,) endpoints of the face on the floor, metres.
        normal: (2,) unit vector pointing into ``room``.
        room: index of the room this face belongs to.
        openings: holes in this wall, positions measured from ``start``.
        extend_start, extend_end: lengthen the wall body by its thickness at that end (convex corners).
        two_sided: a partition centred on the line rather than standing behind it.
    """

    start: NDArray[np.float64]
    end: NDArray[np.float64]
    normal: NDArray[np.float64]
    room: int
    openings: tuple[Opening, ...] = ()
    extend_start: bool = False
    extend_end: bool = False
    two_sided: bool = False

    @property
    def length(self) -> float:
        """Length of the face in metres."""
        return float(np.linalg.norm(self.end - self.start))

    @property
    def direction(self) -> NDArray[np.float64]:
        """Unit vector from ``start`` to ``end``."""
        return (self.end - self.start) / self.length

    def point(self, u: float, inset: float = 0.0) -> NDArray[np.float64]:
        """Return the floor point ``u`` metres along the face, moved ``inset`` metres into the room."""
        return self.start + self.direction * u + self.normal * inset


@dataclass(frozen=True)
class FloorPlan:
    """Rooms, walls and height of a generated plan.

    Attributes:
        kind: the plan shape.
        rooms: floor polygon of each room (two rooms share an edge).
        faces: every wall face, with its openings.
        height: floor-to-ceiling height.
        wall_thickness: thickness of every wall.
    """

    kind: PlanKind
    rooms: tuple[Polygon, ...]
    faces: tuple[WallFace, ...]
    height: float
    wall_thickness: float
    partition: BaseGeometry | None = field(default=None)

    @property
    def footprint(self) -> Polygon:
        """Union of the room polygons (the whole walkable floor before furniture)."""
        return unary_union(self.rooms)

    @property
    def area(self) -> float:
        """Floor area in square metres (the meta-info ``room_size``)."""
        return float(sum(room.area for room in self.rooms))


def _rooms(kind: PlanKind, rng: np.random.Generator, scale: float) -> list[Polygon]:
    width, depth = float(rng.uniform(3.4, 5.8)) * scale, float(rng.uniform(3.0, 5.0)) * scale
    if kind is PlanKind.RECTANGLE:
        return [shapely_box(0, 0, width, depth)]
    if kind is PlanKind.L_SHAPE:
        width, depth = float(rng.uniform(4.8, 6.5)), float(rng.uniform(4.2, 6.0))
        cut_w, cut_d = float(rng.uniform(1.6, width * 0.45)), float(rng.uniform(1.5, depth * 0.45))
        return [
            orient(
                shapely_box(0, 0, width, depth).difference(
                    shapely_box(width - cut_w, depth - cut_d, width, depth)
                ),
                1.0,
            )
        ]
    second_w, second_d = float(rng.uniform(2.6, 4.0)), float(rng.uniform(2.8, depth))
    return [shapely_box(0, 0, width, depth), shapely_box(width, 0, width + second_w, second_d)]


def _exterior_faces(polygon: Polygon, rooms: list[Polygon]) -> list[WallFace]:
    coords = np.asarray(orient(polygon, 1.0).exterior.coords)[:-1]
    count = len(coords)
    faces = []
    for i in range(count):
        start, end = coords[i], coords[(i + 1) % count]
        previous, following = coords[i - 1], coords[(i + 2) % count]
        direction = end - start
        normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
        convex_start = _cross(start - previous, direction) > 0
        convex_end = _cross(direction, following - end) > 0
        midpoint = (start + end) / 2 + normal * 0.05
        room = next(k for k, r in enumerate(rooms) if r.buffer(1e-6).contains(_point(midpoint)))
        faces.append(WallFace(start, end, normal, room, (), convex_start, convex_end))
    return faces


def _cross(a: NDArray[np.float64], b: NDArray[np.float64]) -> float:
    return float(a[0] * b[1] - a[1] * b[0])


def _point(xy: NDArray[np.float64]) -> Point:
    return Point(float(xy[0]), float(xy[1]))


def _free_spans(face: WallFace, margin: float) -> list[tuple[float, float]]:
    spans, cursor = [], margin
    for opening in sorted(face.openings, key=lambda o: o.center):
        spans.append((cursor, opening.center - opening.width / 2 - margin))
        cursor = opening.center + opening.width / 2 + margin
    spans.append((cursor, face.length - margin))
    return [(a, b) for a, b in spans if b > a]


def _add_opening(
    face: WallFace, kind: OpeningKind, width: float, bottom: float, top: float, rng: np.random.Generator
) -> WallFace | None:
    spans = [(a, b) for a, b in _free_spans(face, 0.35) if b - a >= width]
    if not spans:
        return None
    a, b = spans[int(rng.integers(len(spans)))]
    center = float(rng.uniform(a + width / 2, b - width / 2))
    openings = (*face.openings, Opening(kind, center, width, bottom, top))
    return WallFace(
        face.start,
        face.end,
        face.normal,
        face.room,
        openings,
        face.extend_start,
        face.extend_end,
        face.two_sided,
    )


def _partition(
    rooms: list[Polygon], height: float, thickness: float, rng: np.random.Generator
) -> tuple[list[WallFace], BaseGeometry]:
    shared = rooms[0].boundary.intersection(rooms[1].boundary)
    (x0, y0), (_, y1) = np.asarray(shared.coords)[0], np.asarray(shared.coords)[-1]
    start, end = np.array([x0, min(y0, y1)]), np.array([x0, max(y0, y1)])
    face = WallFace(start, end, np.array([-1.0, 0.0]), 0, two_sided=True)
    width = float(rng.uniform(0.9, min(1.4, face.length - 0.8)))
    face = _add_opening(face, OpeningKind.PASSAGE, width, 0.0, min(2.1, height - 0.3), rng) or face
    mirrored = WallFace(start, end, np.array([1.0, 0.0]), 1, face.openings, two_sided=True)
    slab_poly = shapely_box(x0 - thickness / 2, start[1], x0 + thickness / 2, end[1])
    for opening in face.openings:  # the passage is a gap in the wall body
        low, high = (
            start[1] + opening.center - opening.width / 2,
            start[1] + opening.center + opening.width / 2,
        )
        slab_poly = slab_poly.difference(shapely_box(x0 - thickness, low, x0 + thickness, high))
    return [face, mirrored], slab_poly


def _door_and_windows(
    faces: list[WallFace], height: float, windows: int, rng: np.random.Generator
) -> list[WallFace]:
    order = [int(i) for i in rng.permutation(len(faces))]
    door_width, door_top = float(rng.uniform(0.85, 0.95)), float(rng.uniform(2.0, 2.1))
    for index in order:  # the first wall long enough gets the entrance door
        placed = _add_opening(faces[index], OpeningKind.DOOR, door_width, 0.0, door_top, rng)
        if placed is not None:
            faces[index] = placed
            order.remove(index)
            break
    for index in order:
        if windows == 0:
            break
        width, sill = float(rng.uniform(0.9, 1.6)), float(rng.uniform(0.8, 1.0))
        top = min(height - 0.3, sill + float(rng.uniform(1.0, 1.4)))
        placed = _add_opening(faces[index], OpeningKind.WINDOW, width, sill, top, rng)
        if placed is not None:
            faces[index], windows = placed, windows - 1
    return faces


def make_plan(
    kind: PlanKind, rng: np.random.Generator, windows: int | None = None, scale: float = 1.0
) -> FloorPlan:
    """Sample a floor plan of ``kind``: room polygons, one entrance door, 1-3 windows, and a passage.

    Args:
        kind: the plan shape.
        rng: random generator (the only source of randomness).
        windows: number of windows to try to place; sampled in 1..3 when None.
        scale: multiplies the sampled room width and depth (bathrooms are smaller).

    Returns:
        A FloorPlan with the room polygons starting at the origin (x, y >= 0).
    """
    height, thickness = float(rng.uniform(2.5, 2.9)), 0.12
    rooms = _rooms(kind, rng, scale)
    faces = _exterior_faces(unary_union(rooms), rooms)
    partition_faces, partition = ([], None) if len(rooms) == 1 else _partition(rooms, height, thickness, rng)
    count = int(rng.integers(1, 4)) if windows is None else windows
    faces = _door_and_windows(faces, height, count, rng)
    return FloorPlan(kind, tuple(rooms), tuple(faces + partition_faces), height, thickness, partition)
