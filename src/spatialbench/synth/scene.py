"""Generated scenes: placed object instances with exact oriented boxes, the plan, and the meta-info entry.

Boxes are :class:`spatialbench.scene.box.OrientedBox` records, written in the official meta-info schema by
:func:`spatialbench.scene.metainfo.box_to_meta` (rounded to 1 µm here, so the files stay short).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Polygon

from spatialbench.scene.box import OrientedBox, make_box, rotation_z
from spatialbench.scene.metainfo import box_to_meta
from spatialbench.synth.parts import Asset
from spatialbench.synth.plan import FloorPlan

#: The ``dataset`` field written for synthetic scenes (VSI-Bench videos live under ``<dataset>/<scene>.mp4``).
SYNTHETIC_DATASET = "synthetic"


@dataclass(frozen=True)
class SynthObject:
    """One placed instance.

    Attributes:
        instance_id: id written in the instance masks (>= 1; 0 is walls, floor and ceiling).
        asset: the parametric asset (category + parts in its local frame).
        position: (3,) world position of the asset's local origin, metres.
        yaw: rotation about +z in radians (local +y is the object's front).
        support: instance id of the object it stands on, or None (floor, wall, ceiling).
        room: index of the room of the plan it belongs to.
    """

    instance_id: int
    asset: Asset
    position: NDArray[np.float64]
    yaw: float
    support: int | None = None
    room: int = 0

    @property
    def category(self) -> str:
        """The object's category (VSI-Bench vocabulary)."""
        return self.asset.category

    def pose(self) -> NDArray[np.float64]:
        """Local-to-world transform, shape (4, 4)."""
        pose = np.eye(4)
        pose[:3, :3] = rotation_z(self.yaw)
        pose[:3, 3] = self.position
        return pose

    def box(self) -> OrientedBox:
        """Tight oriented box (world frame, metres): the asset's bounds turned by ``yaw`` about +z."""
        low, high = self.asset.bounds()
        rotation = rotation_z(self.yaw)
        return make_box(rotation @ ((low + high) / 2) + self.position, high - low, rotation)

    def footprint(self, margin: float = 0.0) -> Polygon:
        """Return the box's outline on the floor (shapely polygon), grown by ``margin`` metres."""
        box = self.box()
        half = box.extent[:2] / 2 + margin
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
        return Polygon(corners @ box.rotation[:2, :2].T + box.center[:2])

    def z_range(self) -> tuple[float, float]:
        """Bottom and top height of the box in metres."""
        box = self.box()
        return float(box.center[2] - box.extent[2] / 2), float(box.center[2] + box.extent[2] / 2)


def _floats(values: NDArray[np.float64] | list[float]) -> list[float]:
    return [round(float(v), 6) + 0.0 for v in values]


def _rounded(entry: dict[str, list[float]]) -> dict[str, list[float]]:
    """Return a meta-info box entry with every number rounded to 1 µm (and no ``-0.0``)."""
    return {key: _floats(values) for key, values in entry.items()}


@dataclass(frozen=True)
class SynthScene:
    """A generated scene.

    Attributes:
        scene_id: unique name, used for files (``<scene_id>.mp4``).
        room_type: e.g. ``"bedroom"`` (for two rooms, the first room's type).
        room_types: type of each room of the plan.
        density: ``"sparse"`` or ``"dense"``.
        seed: the seed that generated it (same seed, same scene).
        plan: floor plan with walls and openings.
        objects: placed instances, ids ascending from 1.
        palette: colours of walls, floor and ceiling and the floor material name.
    """

    scene_id: str
    room_type: str
    room_types: tuple[str, ...]
    density: str
    seed: int
    plan: FloorPlan
    objects: tuple[SynthObject, ...]
    palette: dict[str, Any]

    def instances(self) -> list[dict[str, Any]]:
        """Return the instance table: id → category and index in the meta-info ``object_bbox[category]``."""
        seen: dict[str, int] = {}
        table = []
        for obj in self.objects:
            index = seen.get(obj.category, 0)
            seen[obj.category] = index + 1
            table.append(
                {
                    "instance_id": obj.instance_id,
                    "category": obj.category,
                    "index": index,
                    "support": obj.support,
                    "room": obj.room,
                }
            )
        return table

    def meta_info(self, video_path: str, visible: Collection[int] | None = None) -> dict[str, Any]:
        """Return this scene's entry in the official meta-info schema (VSI-Bench ``*_meta_info_val.json``).

        ``room_size`` is the floor area in m² (both rooms together for a two-room plan); ``room_center`` is
        the centre of the floor's bounding box at half the ceiling height. With ``visible`` (instance ids),
        only those instances are listed, and ``instance_ids`` ({category: ids in ``object_bbox`` order})
        maps each box back to its mask id.
        """
        boxes: dict[str, list[dict[str, list[float]]]] = {}
        ids: dict[str, list[int]] = {}
        for obj in self.objects:
            if visible is None or obj.instance_id in visible:
                boxes.setdefault(obj.category, []).append(_rounded(box_to_meta(obj.box())))
                ids.setdefault(obj.category, []).append(obj.instance_id)
        x0, y0, x1, y1 = self.plan.footprint.bounds
        entry = {
            "room_size": round(self.plan.area, 6),
            "room_center": _floats(np.array([(x0 + x1) / 2, (y0 + y1) / 2, self.plan.height / 2])),
            "object_counts": {category: len(items) for category, items in boxes.items()},
            "object_bbox": boxes,
            "video_path": video_path,
            "dataset": SYNTHETIC_DATASET,
        }
        return entry if visible is None else {**entry, "instance_ids": ids}
