"""One multi-view sample (a frame set): its cameras, the objects it can ask about and what each frame shows.

Question objects (App. B.3): objects other than windows, doors and ceiling lights whose visibility ratio is
above the threshold in at least one frame and that have a name no other seen object of the frame set
shares (:mod:`~spatialbench.generate.remindview.naming`; an object with any visible sample counts as
seen, so two chairs are never both "the chair"). The
frame-set record is what the question templates read; ``to_json`` is the saved form the tests re-derive
answers from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.generate.remindview.naming import question_names
from spatialbench.generate.remindview.relations import Viewer
from spatialbench.synth.rigs import NON_TARGETS, FrameSetPoses
from spatialbench.synth.scene import SynthObject


@dataclass(frozen=True)
class ObjectInfo:
    """An object as questions see it.

    Attributes:
        instance_id: mask / mesh id; ``name``: the name questions use (:mod:`.naming`).
        center: (3,) box centre, metres; ``footprint``: (4, 2) box corners on the floor.
        heading: the object's front (local +y) in radians from +x, or None when it has no recognisable front.
    """

    instance_id: int
    name: str
    center: NDArray[np.float64]
    footprint: NDArray[np.float64]
    heading: float | None

    @classmethod
    def of(cls, obj: SynthObject, facing: frozenset[str], name: str) -> ObjectInfo:
        """From a placed synthetic object; ``facing``: categories with a recognisable front."""
        box = obj.box()
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * box.extent[:2] / 2
        footprint = corners @ box.rotation[:2, :2].T + box.center[:2]
        heading = float(obj.yaw + np.pi / 2) if obj.category in facing else None  # local +y
        return cls(obj.instance_id, name, box.center, footprint, heading)

    def viewer(self) -> Viewer:
        """Standing at the object's centre, facing its front (requires ``heading``)."""
        if self.heading is None:
            raise ValueError(f"{self.name} (id {self.instance_id}) has no front to face")
        return Viewer(self.center, self.heading)


@dataclass(frozen=True)
class FrameSet:
    """A sample: frames (cameras) of one target, rig and level, with visibility.

    Attributes:
        folder: path of the level folder relative to the output root (the QA ``folder_path``).
        poses: the rig's cameras; ``ratios``: per frame, instance id → visibility ratio.
        objects: question objects by id; ``threshold``: visibility-ratio threshold.
        room_type, density: the scene's.
    """

    folder: str
    poses: FrameSetPoses
    ratios: tuple[dict[int, float], ...]
    objects: dict[int, ObjectInfo]
    threshold: float
    room_type: str
    density: str
    visible_count: int = field(default=0)

    @property
    def frame_count(self) -> int:
        """Number of frames (2–4)."""
        return len(self.poses.poses)

    def camera(self, frame: int) -> Viewer:
        """Viewer of frame ``frame``: camera centre, heading of the optical axis on the floor."""
        pose = self.poses.poses[frame]
        return Viewer(pose[:3, 3].copy(), float(np.arctan2(pose[1, 2], pose[0, 2])))

    def visible(self, frame: int) -> set[int]:
        """Question objects visible (ratio above the threshold) in ``frame``."""
        return {i for i, r in self.ratios[frame].items() if r > self.threshold and i in self.objects}

    def co_observed(self, ids: set[int], frame: int | None) -> bool:
        """Whether one frame (``frame`` if given, else any) shows all of ``ids`` (App. A.1, cross-frame)."""
        frames = range(self.frame_count) if frame is None else [frame]
        return any(ids <= self.visible(f) for f in frames)

    def to_json(self) -> dict[str, Any]:
        """Return the saved form: cameras, visibility, question objects (metres, degrees; 6 decimals)."""
        return {
            "folder_path": self.folder,
            "rig": self.poses.rig.value,
            "level": self.poses.level,
            "target": self.poses.target,
            "distance_m": _round(self.poses.distance),
            "elevation_deg": _round(np.degrees(self.poses.elevation)),
            "views": list(self.poses.views),
            "cam_to_world": [_round(p) for p in self.poses.poses],
            "threshold": self.threshold,
            "visibility": [{str(i): _round(r) for i, r in sorted(f.items())} for f in self.ratios],
            "objects": [_object_json(o) for _, o in sorted(self.objects.items())],
        }


def _round(value: Any) -> Any:
    return (np.round(np.asarray(value, dtype=np.float64), 6) + 0.0).tolist()


def _object_json(obj: ObjectInfo) -> dict[str, Any]:
    return {
        "instance_id": obj.instance_id,
        "name": obj.name,
        "center": _round(obj.center),
        "footprint": _round(obj.footprint),
        "heading_deg": None if obj.heading is None else _round(np.degrees(obj.heading) % 360.0),
    }


def question_objects(
    scene_objects: tuple[SynthObject, ...],
    ratios: tuple[dict[int, float], ...],
    threshold: float,
    facing: frozenset[str],
) -> tuple[dict[int, ObjectInfo], int]:
    """Return the question objects of a frame set (module docstring) and the visible-object count."""
    seen = {i for frame in ratios for i, r in frame.items() if r > 0}
    visible = {i for frame in ratios for i, r in frame.items() if r > threshold}
    by_id = {o.instance_id: o for o in scene_objects}
    names = question_names([by_id[i] for i in sorted(seen) if by_id[i].category not in NON_TARGETS])
    chosen = {i: ObjectInfo.of(by_id[i], facing, names[i]) for i in sorted(visible) if i in names}
    return chosen, len(visible)
