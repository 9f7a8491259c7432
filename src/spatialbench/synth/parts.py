"""Primitive parts that parametric assets are built from.

Conventions (whole ``synth`` package): metres, right-handed world with z up. An asset is modelled in its
*local frame*: origin at the centre of its footprint on the floor (or on the surface it stands on),
+x along its width, +y pointing to its front (the side a person uses or looks at), +z up.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np
import trimesh
from numpy.typing import NDArray


class Material(IntEnum):
    """Shading model of a part; the renderer adds a procedural pattern per material."""

    PLAIN = 0
    WOOD = 1
    FABRIC = 2
    METAL = 3
    EMISSIVE = 4  # window panes, lamp shades, ceiling lights: lit from inside
    FLOOR_PLANKS = 5
    TILES = 6
    WALL = 7
    SCREEN = 8  # glossy dark screen
    GLASS = 9  # window pane: daylight sky seen through it


Color = tuple[float, float, float]


@dataclass(frozen=True)
class Part:
    """One coloured primitive mesh in an asset's local frame.

    Attributes:
        mesh: triangle mesh, metres, asset-local frame.
        color: linear RGB in [0, 1].
        material: shading model.
        smooth: interpolate vertex normals (cylinders, spheres) instead of flat faces.
    """

    mesh: trimesh.Trimesh
    color: Color
    material: Material = Material.PLAIN
    smooth: bool = False


def _translate(offset: tuple[float, float, float]) -> NDArray[np.float64]:
    return trimesh.transformations.translation_matrix(offset)


def box(
    size: tuple[float, float, float],
    center: tuple[float, float, float],
    color: Color,
    material: Material = Material.PLAIN,
) -> Part:
    """Return an axis-aligned cuboid of edge lengths ``size`` (x, y, z) centred at ``center``."""
    return Part(trimesh.creation.box(extents=size, transform=_translate(center)), color, material)


def slab(
    x0: float,
    x1: float,
    y0: float,
    y1: float,
    z0: float,
    z1: float,
    color: Color,
    material: Material = Material.PLAIN,
) -> Part:
    """Return a cuboid given by its min/max corners, often easier to read than centre + size."""
    size = (x1 - x0, y1 - y0, z1 - z0)
    return box(size, ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), color, material)


def cylinder(
    radius: float,
    z0: float,
    z1: float,
    xy: tuple[float, float],
    color: Color,
    material: Material = Material.PLAIN,
    sections: int = 20,
    axis: str = "z",
) -> Part:
    """Return a cylinder along ``axis`` ("x", "y" or "z"); ``z0``..``z1`` is its span along that axis.

    ``xy`` is its centre in the two remaining coordinates, in x, y, z order (for axis "x": (y, z)).
    """
    mesh = trimesh.creation.cylinder(radius=radius, height=z1 - z0, sections=sections)
    mid = (z0 + z1) / 2
    if axis == "z":
        transform = _translate((xy[0], xy[1], mid))
    elif axis == "x":
        transform = _translate((mid, xy[0], xy[1])) @ trimesh.transformations.rotation_matrix(
            np.pi / 2, (0, 1, 0)
        )
    elif axis == "y":
        transform = _translate((xy[0], mid, xy[1])) @ trimesh.transformations.rotation_matrix(
            np.pi / 2, (1, 0, 0)
        )
    else:
        raise ValueError(f"cylinder axis must be 'x', 'y' or 'z', got {axis!r}")
    mesh.apply_transform(transform)
    return Part(mesh, color, material, smooth=True)


def ellipsoid(
    radii: tuple[float, float, float],
    center: tuple[float, float, float],
    color: Color,
    material: Material = Material.PLAIN,
    subdivisions: int = 2,
) -> Part:
    """Return an ellipsoid with semi-axes ``radii`` centred at ``center`` (pillows, foliage, toilet bowls)."""
    mesh = trimesh.creation.icosphere(subdivisions=subdivisions)
    mesh.apply_scale(radii)
    mesh.apply_translation(center)
    return Part(mesh, color, material, smooth=True)


def cone(
    radius: float,
    z0: float,
    z1: float,
    xy: tuple[float, float],
    color: Color,
    material: Material = Material.PLAIN,
    top_radius: float = 0.0,
    sections: int = 20,
) -> Part:
    """Return a (truncated) cone standing on ``z0`` with base ``radius`` and ``top_radius`` at ``z1``."""
    angles = np.linspace(0, 2 * np.pi, sections, endpoint=False)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    bottom = np.column_stack([ring * radius + xy, np.full(sections, z0)])
    top = np.column_stack([ring * max(top_radius, 1e-4) + xy, np.full(sections, z1)])
    mesh = trimesh.convex.convex_hull(np.vstack([bottom, top]))
    return Part(mesh, color, material, smooth=True)


@dataclass(frozen=True)
class Asset:
    """A parametric object instance: its category and its coloured parts in the local frame."""

    category: str
    parts: tuple[Part, ...]

    def bounds(self) -> NDArray[np.float64]:
        """Axis-aligned local bounds, shape (2, 3): min and max corner in metres."""
        stacked = np.vstack([part.mesh.bounds for part in self.parts])
        return np.array([stacked.min(axis=0), stacked.max(axis=0)])

    def extent(self) -> NDArray[np.float64]:
        """Edge lengths (3,) of the local bounding box in metres."""
        low, high = self.bounds()
        return high - low
