"""Geometry of raw scans: instance points → oriented box, scan mesh → room size and centre (App. B.1).

Pure numpy/shapely; metres, world frame z up (the scans' own frame, gravity-aligned).

Boxes are *gravity-aligned* minimum-area boxes: the third axis is +z, the first two the sides of the
minimum-area rectangle around the points' floor projection (rotating calipers, shapely's
``minimum_rotated_rectangle``), heights from the lowest to the highest point. Open3D's PCA boxes (what the
official ScanNet meta-info holds, tilted by up to a few degrees) are not tight; a z-up box is, for furniture.

Room size is the paper's alpha-shape area (App. B.1) of the *floor*: the vertices of the upward-facing faces
(normal z >= 0.9) in the 2 cm height band holding the most upward-facing area in the lower half of the scan,
±``FLOOR_BAND`` m. Walls, furniture tops and the ceiling stay out, so the area is the floor's, not the
footprint of the walls. Room centre: the centre of the axis-aligned bounds of every vertex (App. B.1: "the
geometric center of the minimal bounding box of the scene's point cloud").
"""

from __future__ import annotations

import numpy as np
import shapely
from numpy.typing import NDArray

from spatialbench.scene.box import OrientedBox, make_box
from spatialbench.scene.geometry import alpha_shape_area

#: Default alpha (circumradius limit, metres) of the floor's alpha shape; larger fills holes and notches.
DEFAULT_ALPHA = 0.5
#: Half height (metres) of the band around the floor level whose upward faces count as floor.
FLOOR_BAND = 0.1
_BIN = 0.02


def fit_box(points: NDArray[np.float64]) -> OrientedBox:
    """Gravity-aligned minimum-area box around (N, 3) points (N >= 1), metres.

    Returns:
        An OrientedBox whose rotation is a turn about +z (columns: the rectangle's long side, its normal,
        +z); degenerate point sets (a single point, a vertical line) give zero extents.

    Raises:
        ValueError: no points or non-finite coordinates.
    """
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if len(pts) == 0 or not np.all(np.isfinite(pts)):
        raise ValueError(f"fit_box needs finite points, got {len(pts)}")
    z0, z1 = float(pts[:, 2].min()), float(pts[:, 2].max())
    rect = shapely.minimum_rotated_rectangle(shapely.multipoints(pts[:, :2]))
    corners = np.asarray(shapely.get_coordinates(rect))[:4] if rect.geom_type == "Polygon" else None
    if corners is None:  # a point or a line: axis-aligned bounds of the projection
        lo, hi = pts[:, :2].min(axis=0), pts[:, :2].max(axis=0)
        return make_box([*(lo + hi) / 2, (z0 + z1) / 2], [*(hi - lo), z1 - z0])
    side_a, side_b = corners[1] - corners[0], corners[2] - corners[1]
    if np.linalg.norm(side_b) > np.linalg.norm(side_a):
        side_a, side_b = side_b, side_a
    u = side_a / np.linalg.norm(side_a)
    rotation = np.array([[u[0], -u[1], 0.0], [u[1], u[0], 0.0], [0.0, 0.0, 1.0]])
    centre_xy = corners.mean(axis=0)
    extent = [float(np.linalg.norm(side_a)), float(np.linalg.norm(side_b)), z1 - z0]
    return make_box([centre_xy[0], centre_xy[1], (z0 + z1) / 2], extent, rotation)


def floor_points(vertices: NDArray[np.float64], faces: NDArray[np.int64]) -> NDArray[np.float64]:
    """(M, 3) vertices of the floor faces of a scan mesh (rule in the module docstring).

    Args:
        vertices: (V, 3) metres.
        faces: (F, 3) vertex indices.

    Raises:
        ValueError: the mesh has no upward-facing face in its lower half (not a z-up room scan).
    """
    tri = vertices[faces]
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area = np.linalg.norm(normal, axis=1)
    up = normal[:, 2] >= 0.9 * np.maximum(area, 1e-15)
    height = tri[:, :, 2].mean(axis=1)
    low, high = float(vertices[:, 2].min()), float(vertices[:, 2].max())
    lower = up & (area > 0) & (height <= (low + high) / 2)
    if not np.any(lower):
        raise ValueError("no upward-facing face in the lower half of the scan: is it z-up?")
    bins = np.floor((height[lower] - low) / _BIN).astype(np.int64)
    weight = np.bincount(bins, weights=area[lower])
    level = low + (int(np.argmax(weight)) + 0.5) * _BIN
    floor = lower & (np.abs(height - level) <= FLOOR_BAND)
    return vertices[np.unique(faces[floor])]


def room_geometry(
    vertices: NDArray[np.float64], faces: NDArray[np.int64], alpha: float = DEFAULT_ALPHA
) -> tuple[float, NDArray[np.float64]]:
    """Room size (m², alpha shape of the floor, App. B.1) and room centre ((3,), metres) of a scan mesh.

    Raises:
        ValueError: no floor found, or fewer than 3 floor points.
    """
    floor = floor_points(vertices, faces)
    size = alpha_shape_area(floor[:, :2], alpha)
    centre = (vertices.min(axis=0) + vertices.max(axis=0)) / 2
    return size, centre
