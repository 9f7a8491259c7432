"""Ground-truth cognitive maps from a scene's meta-information (VSI-Bench Sec. 6.1, App. B.4, Fig. 10).

A cognitive map places each object's centre on a ``G × G`` grid seen from above. The paper does not
publish how its ground-truth maps were normalised; the choices here, each an option:

- ``extent`` — the world rectangle the grid covers:
  ``"objects"`` (default) the x/y bounds of all object boxes of the scene (every box, not only the
  categories drawn), ``"centers"`` the bounds of the object centres, ``"room"`` a rectangle centred on
  the meta-info ``room_center`` (the centre of the scan's bounding box, App. B.1) just wide enough to hold
  every object box (the meta-info stores no room outline).
- ``aspect`` — ``"isotropic"`` (default): one scale for both axes, the longer side spans the grid and the
  shorter one is centred, so grid distances are proportional to metres; ``"per-axis"``: each axis spans
  the grid (distances then depend on direction).
- ``origin`` — first cell index, 0 (default: cells 0..G-1) or 1 (cells 1..G).
- ``quantize`` — True (default): a centre falls in the cell holding it (``floor``, the far edge kept in
  the last cell); False: continuous coordinates in cell units, cell centres on integers.

World frame: z up (dropped); grid x follows world x and grid y world y. Units: grid cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from spatialbench.scene.categories import question_name, scene_category
from spatialbench.scene.model import Scene

Extent = Literal["objects", "centers", "room"]
Aspect = Literal["isotropic", "per-axis"]


@dataclass(frozen=True)
class GridSpec:
    """How world x/y map onto the grid (options in the module docstring).

    Raises:
        ValueError: ``grid_size`` below 2, ``origin`` not 0 or 1, unknown ``extent`` or ``aspect``.
    """

    grid_size: int = 10
    extent: Extent = "objects"
    aspect: Aspect = "isotropic"
    origin: int = 0
    quantize: bool = True

    def __post_init__(self) -> None:
        if self.grid_size < 2:
            raise ValueError(f"grid_size must be at least 2, got {self.grid_size}")
        if self.origin not in (0, 1):
            raise ValueError(f"origin must be 0 or 1, got {self.origin}")
        if self.extent not in ("objects", "centers", "room"):
            raise ValueError(f"extent must be objects, centers or room, got {self.extent!r}")
        if self.aspect not in ("isotropic", "per-axis"):
            raise ValueError(f"aspect must be isotropic or per-axis, got {self.aspect!r}")


def _bounds(scene: Scene, extent: Extent) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    boxes = [inst.box for insts in scene.objects.values() for inst in insts]
    if not boxes:
        raise ValueError(f"scene {scene.scene_id!r} has no object box to draw a map from")
    if extent == "centers":
        centres = np.array([b.center[:2] for b in boxes])
        return centres.min(axis=0), centres.max(axis=0)
    lows = np.array([b.aabb()[0][:2] for b in boxes])
    highs = np.array([b.aabb()[1][:2] for b in boxes])
    lo, hi = lows.min(axis=0), highs.max(axis=0)
    if extent == "room":
        centre = np.asarray(scene.room_center, dtype=np.float64)[:2]
        half = np.maximum(np.abs(lo - centre), np.abs(hi - centre))
        return centre - half, centre + half
    return lo, hi


def grid_frame(scene: Scene, spec: GridSpec) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Return ``(low, span)``, each (2,) metres: world x/y ``p`` maps to ``(p - low) / span * G`` cells.

    Raises:
        ValueError: the scene has no object box.
    """
    lo, hi = _bounds(scene, spec.extent)
    span = np.maximum(hi - lo, 1e-9)
    if spec.aspect == "isotropic":
        side = float(span.max())
        lo = (lo + hi) / 2 - side / 2
        span = np.array([side, side])
    return lo, span


def to_grid(points: NDArray[np.float64], low: NDArray[np.float64], span: NDArray[np.float64],
            spec: GridSpec) -> NDArray[np.float64]:
    """Map (N, 2) or (N, 3) world points (metres; z ignored) to (N, 2) grid coordinates (cells)."""
    scaled = (np.asarray(points, dtype=np.float64)[:, :2] - low) / span * spec.grid_size
    if spec.quantize:
        return np.clip(np.floor(scaled), 0, spec.grid_size - 1) + spec.origin
    return scaled - 0.5 + spec.origin


def scene_names(scene: Scene) -> tuple[str, ...]:
    """Every category of ``scene`` under the name questions use (App. B.1 remapping), in source order.

    The categories of interest of the locality study (App. B.4: "all potential categories").
    """
    return tuple(dict.fromkeys(question_name(c) for c in scene.objects))


def ground_truth_map(
    scene: Scene, spec: GridSpec | None = None, categories: Sequence[str] | None = None
) -> dict[str, NDArray[np.float64]]:
    """Return the ground-truth cognitive map: name -> (n, 2) grid positions of its instances' centres.

    Args:
        scene: the scene (official or synthetic meta-info).
        spec: grid and normalisation options (default: 10 × 10, object extent, isotropic, cells 0..9).
        categories: names to draw, as a question or prompt writes them (a remapped question name finds its
            meta-info category, :func:`spatialbench.scene.categories.scene_category`); None: every category
            of the scene, in source order (the locality study, App. B.4).

    Raises:
        KeyError: a requested name matches no category of the scene (the message names it and the scene).
        ValueError: the scene has no object box.
    """
    spec = spec or GridSpec()
    low, span = grid_frame(scene, spec)
    names = list(scene.objects) if categories is None else list(categories)
    result: dict[str, NDArray[np.float64]] = {}
    for name in names:
        category = scene_category(scene, name) if name not in scene.objects else name
        if category is None or category not in scene.objects:
            raise KeyError(f"category {name!r} not in scene {scene.scene_id!r}")
        centres = np.array([inst.box.center for inst in scene.objects[category]]).reshape(-1, 3)
        result[name] = to_grid(centres, low, span, spec)
    return result
