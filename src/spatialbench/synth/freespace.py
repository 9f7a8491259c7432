"""The walkable free-space map of a scene: an occupancy grid over the floor with shortest paths.

A cell is *free* when it lies inside the floor polygon and no object that reaches below 1.8 m (a person's
height) covers it; *walkable* cells are free cells at least ``clearance`` metres from any non-free cell
(the radius of a person). Grid cell ``(row, col)`` covers world x in ``origin[0] + col * resolution`` ..
``+ resolution`` and y in ``origin[1] + row * resolution`` .. ``+ resolution``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy import ndimage
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import dijkstra
from shapely import contains_xy
from shapely.geometry import Polygon

from spatialbench.synth.npz import write_npz
from spatialbench.synth.scene import SynthScene

BODY_HEIGHT = 1.8


@dataclass(frozen=True)
class FreeSpaceMap:
    """Occupancy grid of one scene.

    Attributes:
        free: (rows, cols) bool, True where the floor is not covered by an object.
        walkable: (rows, cols) bool, free cells at least ``clearance`` metres from obstacles and walls.
        origin: (2,) world xy of the grid's corner (cell (0, 0)'s minimum corner), metres.
        resolution: cell edge in metres.
        clearance: the radius used to erode ``free`` into ``walkable``, metres.
    """

    free: NDArray[np.bool_]
    walkable: NDArray[np.bool_]
    origin: NDArray[np.float64]
    resolution: float
    clearance: float

    def to_cell(self, xy: NDArray[np.float64]) -> tuple[int, int]:
        """Return the (row, col) of the cell containing world point ``xy`` (clipped to the grid)."""
        col = int(np.clip((xy[0] - self.origin[0]) // self.resolution, 0, self.free.shape[1] - 1))
        row = int(np.clip((xy[1] - self.origin[1]) // self.resolution, 0, self.free.shape[0] - 1))
        return row, col

    def to_world(self, cells: NDArray[np.int64]) -> NDArray[np.float64]:
        """Centres (N, 2) in world xy of cells given as (N, 2) rows and columns."""
        cells = np.asarray(cells).reshape(-1, 2)
        return self.origin + (cells[:, ::-1] + 0.5) * self.resolution

    def is_walkable(self, xy: NDArray[np.float64]) -> bool:
        """Return True when world point ``xy`` (2,) falls in a walkable cell."""
        return bool(self.walkable[self.to_cell(xy)])

    def segment_walkable(self, start: NDArray[np.float64], end: NDArray[np.float64]) -> bool:
        """Return True when every cell on the straight segment ``start`` → ``end`` is walkable."""
        steps = max(2, int(np.linalg.norm(np.asarray(end) - start) / (self.resolution / 2)) + 1)
        points = np.linspace(start, end, steps)
        return all(self.is_walkable(p) for p in points)

    def shortest_path(
        self, start: NDArray[np.float64], goal: NDArray[np.float64]
    ) -> NDArray[np.float64] | None:
        """Shortest walkable 8-connected path from ``start`` to ``goal`` as (N, 2) world points, or None.

        Endpoints snap to the nearest walkable cell. Returns None when the two are not connected.
        """
        index = np.full(self.walkable.shape, -1)
        cells = np.argwhere(self.walkable)
        if len(cells) == 0:
            return None
        index[tuple(cells.T)] = np.arange(len(cells))
        graph = _grid_graph(self.walkable, index, self.resolution)
        source, target = (self._nearest_walkable(p, cells) for p in (start, goal))
        _, predecessors = dijkstra(graph, indices=source, return_predecessors=True)
        if target != source and predecessors[target] < 0:
            return None
        chain = [target]
        while chain[-1] != source:
            chain.append(int(predecessors[chain[-1]]))
        return self.to_world(cells[chain[::-1]])

    def _nearest_walkable(self, xy: NDArray[np.float64], cells: NDArray[np.int64]) -> int:
        centres = self.to_world(cells)
        return int(np.argmin(np.linalg.norm(centres - np.asarray(xy)[:2], axis=1)))

    def distance_to_obstacle(self) -> NDArray[np.float64]:
        """Distance (rows, cols) in metres from each cell centre to the nearest non-free cell or grid edge."""
        return _distance(self.free, self.resolution)

    def save(self, path: Path) -> None:
        """Write the map to ``path`` (npz: free, walkable, origin, resolution, clearance)."""
        arrays = {
            "free": self.free,
            "walkable": self.walkable,
            "origin": self.origin,
            "resolution": np.asarray(self.resolution),
            "clearance": np.asarray(self.clearance),
        }
        write_npz(path, arrays)

    @classmethod
    def load(cls, path: Path) -> FreeSpaceMap:
        """Read a map written by ``save``."""
        with np.load(path) as data:
            return cls(
                data["free"],
                data["walkable"],
                data["origin"],
                float(data["resolution"]),
                float(data["clearance"]),
            )


def _grid_graph(walkable: NDArray[np.bool_], index: NDArray[np.int64], resolution: float) -> csr_matrix:
    """8-connected graph over walkable cells, edge weights in metres."""
    cells = np.argwhere(walkable)
    rows, cols, weights = [], [], []
    for offset in ((0, 1), (1, 0), (1, 1), (1, -1)):
        neighbours = cells + offset
        inside = np.all((neighbours >= 0) & (neighbours < walkable.shape), axis=1)
        inside[inside] = walkable[tuple(neighbours[inside].T)]
        a, b = index[tuple(cells[inside].T)], index[tuple(neighbours[inside].T)]
        rows += [a, b]
        cols += [b, a]
        weights.append(np.full(2 * len(a), resolution * np.hypot(*offset)))
    n = len(cells)
    return coo_matrix(
        (np.concatenate(weights), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)
    ).tocsr()


def _distance(free: NDArray[np.bool_], resolution: float) -> NDArray[np.float64]:
    # Pad with blocked cells so the grid edge (the walls) counts as an obstacle.
    return ndimage.distance_transform_edt(np.pad(free, 1))[1:-1, 1:-1] * resolution


def free_space_map(scene: SynthScene, resolution: float = 0.05, clearance: float = 0.25) -> FreeSpaceMap:
    """Rasterise ``scene``'s floor and the footprints of objects that reach below 1.8 m."""
    footprint = scene.plan.footprint
    x0, y0, x1, y1 = footprint.bounds
    origin = np.array([x0, y0])
    cols, rows = int(np.ceil((x1 - x0) / resolution)), int(np.ceil((y1 - y0) / resolution))
    xs = x0 + (np.arange(cols) + 0.5) * resolution
    ys = y0 + (np.arange(rows) + 0.5) * resolution
    grid_x, grid_y = np.meshgrid(xs, ys)
    free = contains_xy(footprint, grid_x, grid_y)
    blockers: list[Polygon] = [
        obj.footprint() for obj in scene.objects if obj.z_range()[0] < BODY_HEIGHT and obj.support is None
    ]
    if scene.plan.partition is not None:
        blockers.append(scene.plan.partition)
    for polygon in blockers:
        free &= ~contains_xy(polygon, grid_x, grid_y)
    distance = _distance(free, resolution)
    return FreeSpaceMap(free, distance > clearance, origin, resolution, clearance)
