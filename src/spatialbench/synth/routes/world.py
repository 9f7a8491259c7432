"""The route world: a free-space map plus landmark footprints, and the "Go forward until" action on it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import shapely
from numpy.typing import NDArray

from spatialbench.synth.freespace import FreeSpaceMap
from spatialbench.synth.routes.model import HEADING_VECTORS, PlannerSettings, Pose


class RouteWorld:
    """The free-space map plus landmark footprints, with per-landmark distance fields cached.

    Args:
        free_map: the scene's free-space map (its ``walkable`` cells are where the robot may stand).
        footprints: landmark name -> footprint polygon (world xy, metres). Names must be unique
            descriptions (the planner only uses objects whose category is unique in the scene).

    Attributes:
        distance: landmark name -> (rows, cols) distance in metres from each cell centre to its footprint.
    """

    def __init__(self, free_map: FreeSpaceMap, footprints: Mapping[str, shapely.Geometry]) -> None:
        self.free_map = free_map
        self.walkable = free_map.walkable
        self.footprints = dict(footprints)
        rows, cols = np.indices(self.walkable.shape, dtype=np.float64)
        res = free_map.resolution
        points = shapely.points(
            free_map.origin[0] + (cols + 0.5) * res, free_map.origin[1] + (rows + 0.5) * res
        )
        self.distance: dict[str, NDArray[np.float64]] = {
            name: shapely.distance(poly, points) for name, poly in self.footprints.items()
        }
        # pose -> its ray's cells and their (rows, cols) index arrays: the route search walks the same ray
        # once per landmark it tries (18 700 walks in the demo's 3 scenes)
        self._rays: dict[Pose, tuple[list[tuple[int, int]], tuple[NDArray[np.intp], NDArray[np.intp]]]] = {}

    def on_grid(self, cell: tuple[int, int]) -> bool:
        """Return whether ``cell`` (row, col) lies on the grid."""
        return 0 <= cell[0] < self.walkable.shape[0] and 0 <= cell[1] < self.walkable.shape[1]

    def is_walkable(self, cell: tuple[int, int]) -> bool:
        """Return whether ``cell`` (row, col) lies on the grid and is walkable."""
        return self.on_grid(cell) and bool(self.walkable[cell])

    def ray(self, pose: Pose) -> list[tuple[int, int]]:
        """Free cells ahead of ``pose`` (excluding its own cell) until the first blocked cell."""
        return list(self._ray(pose)[0])

    def _ray(self, pose: Pose) -> tuple[list[tuple[int, int]], tuple[NDArray[np.intp], NDArray[np.intp]]]:
        """Return the ray's cells and their row and column indices (cached per pose)."""
        if pose not in self._rays:
            d_row, d_col = HEADING_VECTORS[pose.heading]
            cells: list[tuple[int, int]] = []
            cell = (pose.row + d_row, pose.col + d_col)
            while self.is_walkable(cell):
                cells.append(cell)
                cell = (cell[0] + d_row, cell[1] + d_col)
            index = np.array(cells, dtype=np.intp).reshape(-1, 2).T
            self._rays[pose] = cells, (index[0], index[1])
        return self._rays[pose]

    def forward_until(self, pose: Pose, landmark: str, settings: PlannerSettings) -> Pose | None:
        """Walk ahead until ``landmark`` (package docstring); None when the walk is not a valid move.

        Raises:
            KeyError: ``landmark`` is not a known landmark.
        """
        field_ = self.distance[landmark]
        cells, index = self._ray(pose)
        if not cells:
            return None
        dists = field_[index]
        closest = float(dists.min())
        if closest > settings.reach:
            return None
        stop = int(np.argmax(dists <= min(closest + settings.step_tolerance, settings.reach)))
        if (stop + 1) * self.free_map.resolution < settings.min_travel:
            return None
        return Pose(cells[stop][0], cells[stop][1], pose.heading)
