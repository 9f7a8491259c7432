"""Oriented 3D boxes (Open3D ``OrientedBoundingBox`` semantics) as a frozen record.

Conventions (stated once, DESIGN.md): metres, right-handed world frame with z up. ``rotation`` is a 3×3
matrix whose *columns* are the box axes in world coordinates; ``extent`` holds the full side lengths along
those axes. A point ``p`` of the box is ``center + rotation @ (extent * s / 2)`` with ``s`` in [-1, 1]³.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
from numpy.typing import NDArray

# Corner signs in a fixed order: corner k has signs _SIGNS[k] along the three box axes.
_SIGNS = np.array(list(product((-1.0, 1.0), repeat=3)))
# The 12 edges as corner-index pairs: corners that differ in exactly one sign.
_EDGES = np.array([(i, j) for i in range(8) for j in range(i + 1, 8) if np.sum(_SIGNS[i] != _SIGNS[j]) == 1])


@dataclass(frozen=True, eq=False)
class OrientedBox:
    """A solid oriented box.

    Attributes:
        center: (3,) box centre, metres.
        rotation: (3, 3) rotation; column ``i`` is the unit vector of box axis ``i`` (world frame).
        extent: (3,) full side lengths along the box axes, metres, all >= 0.
    """

    center: NDArray[np.float64]
    rotation: NDArray[np.float64]
    extent: NDArray[np.float64]

    @property
    def half_extent(self) -> NDArray[np.float64]:
        """(3,) half side lengths, metres."""
        return self.extent / 2.0

    @property
    def longest_side(self) -> float:
        """Length of the longest box side, metres (VSI-Bench App. B.1, object size task)."""
        return float(np.max(self.extent))

    def corners(self) -> NDArray[np.float64]:
        """(8, 3) world coordinates of the corners, in the order of ``_SIGNS``."""
        return self.center + (_SIGNS * self.half_extent) @ self.rotation.T

    def to_local(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """(N, 3) world points -> (N, 3) coordinates along the box axes, relative to the centre."""
        return (np.asarray(points, dtype=np.float64) - self.center) @ self.rotation

    def contains(self, points: NDArray[np.float64], tol: float = 1e-9) -> NDArray[np.bool_]:
        """(N,) whether each of the (N, 3) world points lies inside the closed box (within ``tol`` m)."""
        return np.all(np.abs(self.to_local(points)) <= self.half_extent + tol, axis=-1)

    def aabb(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Axis-aligned bounds (min, max), each (3,), of the box in the world frame."""
        corners = self.corners()
        return corners.min(axis=0), corners.max(axis=0)

    def sample_points(self, n: int, rng: np.random.Generator) -> NDArray[np.float64]:
        """(n, 3) points drawn uniformly inside the solid box, world frame."""
        local = rng.uniform(-1.0, 1.0, size=(n, 3)) * self.half_extent
        return self.center + local @ self.rotation.T


def make_box(
    center: NDArray[np.float64] | list[float],
    extent: NDArray[np.float64] | list[float],
    rotation: NDArray[np.float64] | None = None,
) -> OrientedBox:
    """Build an OrientedBox from array-likes; ``rotation`` defaults to the identity.

    Raises:
        ValueError: wrong shapes, negative extent, or a rotation that is not orthonormal (tol 1e-6).
    """
    c = np.asarray(center, dtype=np.float64).reshape(3)
    e = np.asarray(extent, dtype=np.float64).reshape(3)
    r = np.eye(3) if rotation is None else np.asarray(rotation, dtype=np.float64).reshape(3, 3)
    if np.any(e < 0) or not np.all(np.isfinite(e)):
        raise ValueError(f"box extent must be finite and >= 0, got {e.tolist()}")
    if not np.allclose(r.T @ r, np.eye(3), atol=1e-6):
        raise ValueError(f"box rotation is not orthonormal: {r.tolist()}")
    return OrientedBox(center=c, rotation=r, extent=e)


def rotation_z(angle: float) -> NDArray[np.float64]:
    """(3, 3) rotation by ``angle`` radians about +z (counter-clockwise seen from above)."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
