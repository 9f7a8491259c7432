"""Start poses of a route: where the robot may stand at the start object, and which landmark it faces."""

from __future__ import annotations

import numpy as np
import shapely
from numpy.typing import NDArray

from spatialbench.synth.routes.model import HEADING_VECTORS, PlannerSettings, Pose
from spatialbench.synth.routes.world import RouteWorld

# A landmark in plain sight counts as "faced" when its centroid lies within this angle of the heading.
FACING_CONE = np.radians(20)
# A cell within this distance (metres) of a landmark's footprint counts as touching it.
NEAR = 0.3


def start_poses(world: RouteWorld, start: str, settings: PlannerSettings) -> list[Pose]:
    """Return the poses at ``start``, four headings on each of its sides.

    A side's cell is the first free cell met walking out from the centroid along a heading; it must
    lie within ``reach`` of the footprint.

    Raises:
        KeyError: ``start`` is not a landmark of ``world``.
    """
    centroid = shapely.centroid(world.footprints[start])
    origin = world.free_map.to_cell(np.array([centroid.x, centroid.y]))
    field_ = world.distance[start]
    poses: list[Pose] = []
    for d_row, d_col in HEADING_VECTORS:
        cell = origin
        while not world.is_walkable(cell) and world.on_grid(cell) and field_[cell] <= settings.reach:
            cell = (cell[0] + d_row, cell[1] + d_col)
        if world.is_walkable(cell) and field_[cell] <= settings.reach:
            poses.extend(Pose(cell[0], cell[1], h) for h in range(4))
    return poses


def facing(world: RouteWorld, pose: Pose) -> str | None:
    """Return the landmark ahead of ``pose``, or None.

    The landmark nearest to the cell that blocks the ray, if within 0.3 m; otherwise the landmark in
    plain sight (:func:`in_sight`) whose centroid lies nearest to the heading, within ``FACING_CONE``.
    """
    d_row, d_col = HEADING_VECTORS[pose.heading]
    last = ([(pose.row, pose.col)] + world.ray(pose))[-1]
    blocked = (last[0] + d_row, last[1] + d_col)
    if world.on_grid(blocked):
        near = sorted((float(f[blocked]), name) for name, f in world.distance.items())
        if near and near[0][0] <= NEAR:
            return near[0][1]
    here = world.free_map.to_world(np.array([[pose.row, pose.col]]))[0]
    ahead = np.arctan2(d_row, d_col)
    in_view = []
    for name, poly in world.footprints.items():
        centroid = np.array(shapely.centroid(poly).coords[0])
        off = centroid - here
        angle = abs((np.arctan2(off[1], off[0]) - ahead + np.pi) % (2 * np.pi) - np.pi)
        if angle <= FACING_CONE and in_sight(world, here, centroid, name):
            in_view.append((angle, name))
    return min(in_view)[1] if in_view else None


def in_sight(
    world: RouteWorld, here: NDArray[np.float64], target: NDArray[np.float64], landmark: str
) -> bool:
    """Whether the straight line from ``here`` to ``target`` (world xy, metres) is unobstructed.

    It must cross only free floor until it comes within 0.3 m of ``landmark`` (``target`` lies in it).
    """
    free_map = world.free_map
    length = float(np.linalg.norm(target - here))
    steps = np.linspace(0.0, 1.0, max(int(length / (free_map.resolution / 2)), 2))
    cells = np.floor((here + steps[:, None] * (target - here) - free_map.origin) / free_map.resolution)
    rows, cols = cells[:, 1].astype(int), cells[:, 0].astype(int)
    shape = world.walkable.shape
    if not ((rows >= 0) & (rows < shape[0]) & (cols >= 0) & (cols < shape[1])).all():
        return False
    near = world.distance[landmark][rows, cols] <= NEAR
    return bool((free_map.free[rows, cols] | near).all())


def facing_start_poses(world: RouteWorld, start: str, settings: PlannerSettings) -> dict[Pose, str]:
    """{start pose: landmark it faces} for the distinct start poses at ``start`` that face a landmark."""
    faced = {p: facing(world, p) for p in start_poses(world, start, settings)}
    return {p: f for p, f in faced.items() if f is not None}
