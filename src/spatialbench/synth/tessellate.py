"""Adaptive re-tessellation of flat faces, so that lighting baked per vertex keeps its detail.

Lighting is baked at the vertices and interpolated across each triangle (``synth.lighting``), so a large
face needs vertices where its light changes: lamp fall-off, the edge of a contact shadow under a table,
a seat under a backrest. Each planar group of triangles (one face of a box, the floor, a wall) is covered
by a quadtree of square cells, :data:`ROOT` metres at the top, split while the light inside a cell differs
from the blend of its corners over its two triangles by more than :data:`TOLERANCE` (checked on a 5 × 5
lattice per cell), down to ``ROOT / 2**depth`` (the caller's policy chooses the depth and the sides per
face); the cells are clipped to the face's outline and triangulated.
Neighbouring cells of different sizes meet in T-junctions; they stay within one closed solid (a floor
slab, a wall body, a box), so what a sub-pixel gap could show is the same object.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import shapely
from numpy.typing import NDArray

ROOT = 1.0  # metres: edge of the largest cell
TOLERANCE = 0.06  # light units (albedo 1): largest error of the per-vertex blend left in a cell
LATTICE = np.linspace(0.0, 1.0, 5)

#: light (N, 3) at points (N, 3) of a surface facing unit normals (N, 3)
LightFunction = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.float64]]
#: (centroid (3,), unit normal (3,), area m²) of a planar group → (lit sides: +1 the side the normal
#: points to, -1 the other; () keeps the group as it is, and the quadtree depth)
Policy = Callable[[NDArray[np.float64], NDArray[np.float64], float], tuple[tuple[float, ...], int]]


def plane_basis(normal: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Return two unit vectors (3,) spanning the plane of unit ``normal``.

    x and y for horizontal planes, else a horizontal one and the one closest to +z (so walls are cut
    along their length and height).
    """
    if abs(normal[2]) > 0.9:
        u = np.array([1.0, 0.0, 0.0]) - normal * normal[0]
    else:
        u = np.cross([0.0, 0.0, 1.0], normal)
    u /= np.linalg.norm(u)
    return u, np.cross(normal, u)


def planar_groups(triangles: NDArray[np.float64]) -> list[NDArray[np.intp]]:
    """Return the indices of ``triangles`` (T, 3, 3) grouped by plane (normal and offset to 1e-6).

    Degenerate triangles are left out.
    """
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(normals, axis=1)
    keep = length > 1e-12
    unit = normals[keep] / length[keep, None]
    offset = np.sum(unit * triangles[keep, 0], axis=1)
    keys = np.round(np.column_stack([unit, offset]), 6)
    _, label = np.unique(keys, axis=0, return_inverse=True)
    indices = np.flatnonzero(keep)
    return [indices[label.ravel() == k] for k in range(label.max() + 1)] if len(indices) else []


def _blend_error(
    corners: NDArray[np.float64],
    light: LightFunction,
    origin: NDArray[np.float64],
    basis: NDArray[np.float64],
    normal: NDArray[np.float64],
) -> NDArray[np.bool_]:
    """Return, for cells (C, 4) = (u0, v0, u1, v1), whether they need splitting.

    A cell needs it when the linear blend of its corner lights over its two triangles misses the light
    on its 5 × 5 lattice by more than TOLERANCE.
    """
    s, t = np.meshgrid(LATTICE, LATTICE, indexing="ij")
    u = corners[:, 0, None, None] + (corners[:, 2] - corners[:, 0])[:, None, None] * s
    v = corners[:, 1, None, None] + (corners[:, 3] - corners[:, 1])[:, None, None] * t
    points = origin + u[..., None] * basis[0] + v[..., None] * basis[1]  # (C, 5, 5, 3)
    flat = points.reshape(-1, 3)
    values = light(flat, np.broadcast_to(normal, flat.shape)).reshape(*u.shape, -1)
    c00, c01, c10, c11 = values[:, :1, :1], values[:, :1, -1:], values[:, -1:, :1], values[:, -1:, -1:]
    s, t = s[None, ..., None], t[None, ..., None]
    # What the rasteriser shows: triangles (u0 v0, u1 v0, u1 v1) and (u0 v0, u1 v1, u0 v1) of the cell.
    blend = np.where(s >= t, c00 + s * (c10 - c00) + t * (c11 - c10), c00 + t * (c01 - c00) + s * (c11 - c01))
    return np.abs(values - blend).max(axis=(1, 2, 3)) > TOLERANCE


def _cells(
    outline: shapely.Geometry, split: Callable[[NDArray[np.float64]], NDArray[np.bool_]], depth: int
) -> NDArray[np.float64]:
    """Leaf cells (C, 4) of the quadtree over ``outline`` (2D), split where ``split`` says so."""
    u0, v0, u1, v1 = outline.bounds
    nu, nv = max(1, int(np.ceil((u1 - u0) / ROOT - 1e-9))), max(1, int(np.ceil((v1 - v0) / ROOT - 1e-9)))
    i, j = np.meshgrid(np.arange(nu), np.arange(nv), indexing="ij")
    size = np.array([min(ROOT, u1 - u0), min(ROOT, v1 - v0)])
    low = np.column_stack([u0 + i.ravel() * size[0], v0 + j.ravel() * size[1]])
    cells = np.column_stack([low, np.minimum(low + size, (u1, v1))])
    leaves = []
    for level in range(depth + 1):
        cells = cells[shapely.intersects(outline, shapely.box(*cells.T))]
        if level == depth or len(cells) == 0:
            leaves.append(cells)
            break
        divide = split(cells)
        leaves.append(cells[~divide])
        cells = cells[divide]
        mid_u, mid_v = (cells[:, 0] + cells[:, 2]) / 2, (cells[:, 1] + cells[:, 3]) / 2
        cells = np.concatenate(
            [
                np.column_stack([cells[:, 0], cells[:, 1], mid_u, mid_v]),
                np.column_stack([mid_u, cells[:, 1], cells[:, 2], mid_v]),
                np.column_stack([cells[:, 0], mid_v, mid_u, cells[:, 3]]),
                np.column_stack([mid_u, mid_v, cells[:, 2], cells[:, 3]]),
            ]
        )
    return np.concatenate(leaves)


def _triangulate(outline: shapely.Geometry, cells: NDArray[np.float64]) -> NDArray[np.float64]:
    """2D triangles (T, 3, 2) covering each cell's part of ``outline``."""
    boxes = shapely.box(*cells.T)
    inside = shapely.covers(outline, boxes)
    whole = cells[inside]
    a, b = whole[:, [0, 1]], whole[:, [2, 1]]
    c, d = whole[:, [2, 3]], whole[:, [0, 3]]
    parts = [np.stack([a, b, c], axis=1), np.stack([a, c, d], axis=1)]
    clipped = shapely.intersection(boxes[~inside], outline)
    pieces = shapely.get_parts(shapely.constrained_delaunay_triangles(clipped[~shapely.is_empty(clipped)]))
    pieces = pieces[shapely.area(pieces) > 1e-12] if len(pieces) else pieces
    if len(pieces):
        parts.append(np.array([np.asarray(p.exterior.coords)[:3] for p in pieces]))
    return np.concatenate(parts)


def refine_plane(
    triangles: NDArray[np.float64],
    normal: NDArray[np.float64],
    sides: tuple[float, ...],
    light: LightFunction,
    depth: int,
    largest: float = np.inf,
) -> NDArray[np.float64]:
    """Re-tessellate coplanar ``triangles`` (T, 3, 3) of unit ``normal`` (3,) lit on ``sides``.

    ``sides``: +1 the side ``normal`` points to, -1 the other. Cells are also split while wider than
    ``largest`` metres (within ``depth``): for light the vertex shader adds, such as a highlight. Returns
    triangles (M, 3, 3) covering the same area (world metres), finer where the light varies.
    """
    origin = triangles[0, 0]
    basis = np.stack(plane_basis(normal))
    flat = (triangles - origin) @ basis.T  # (T, 3, 2)
    outline = shapely.union_all(shapely.polygons(flat)).buffer(0)

    def split(cells: NDArray[np.float64]) -> NDArray[np.bool_]:
        wide = np.maximum(cells[:, 2] - cells[:, 0], cells[:, 3] - cells[:, 1]) > largest
        return np.logical_or.reduce(
            [wide, *(_blend_error(cells, light, origin, basis, normal * s) for s in sides)]
        )

    cells = _cells(outline, split, depth)
    plane = _triangulate(outline, cells)
    return origin + plane[..., :1] * basis[0] + plane[..., 1:] * basis[1]


def refine_mesh(
    triangles: NDArray[np.float64], light: LightFunction, policy: Policy, largest: float = np.inf
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Re-tessellate the planar groups of ``triangles`` (T, 3, 3) that ``policy`` selects.

    ``largest``: as in :func:`refine_plane`. Returns the triangles (M, 3, 3) and their unit normals
    (M, 3) (a refined group keeps its original normal), world metres.
    """
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    area = 0.5 * np.linalg.norm(normals, axis=1)
    normals /= np.maximum(2 * area, 1e-300)[:, None]
    out, out_normals = [triangles], [normals]
    kept = np.ones(len(triangles), dtype=bool)
    for group in planar_groups(triangles):
        normal = normals[group[0]]
        sides, depth = policy(triangles[group].reshape(-1, 3).mean(axis=0), normal, float(area[group].sum()))
        if sides:
            refined = refine_plane(triangles[group], normal, sides, light, depth, largest)
            out.append(refined)
            out_normals.append(np.broadcast_to(normal, (len(refined), 3)))
            kept[group] = False
    out[0], out_normals[0] = triangles[kept], normals[kept]
    return np.concatenate(out), np.concatenate(out_normals)
