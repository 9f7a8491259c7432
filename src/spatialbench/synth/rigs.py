"""Multi-view camera rigs around a target object: object-centric and view-centric (ReMindView-Bench App. B.2).

Distance levels: the target's XY diagonal ``D`` (of its axis-aligned box) and ``alpha = sqrt(floor XY
diagonal / D)`` give the camera's 3D slant distance from the target's box centre at level ``n`` (fraction
``pct = n / 10``, levels 0–10): ``d = D·((alpha − offset)·pct + offset)``, offset 1.5 in the paper
(``d(n) = [n(α−1.5)+1.5]·D``), 1.2 in the official code. The camera is lifted by an elevation angle (paper:
25–35°, drawn per frame set; code: 15°) and looks at the target centre, up +z.

- Object-centric: four cameras on the world axes around the target (+y, −y, +x, −x, frames 0–3), each
  looking at the target. A camera is valid when it stands inside the floor polygon, inside no object's box
  and the whole segment to the target centre is clear (the official check looked only 0.3 m ahead); else
  the first valid point on rings around it is taken (paper: a disc of diameter ``D``; code: radius
  ``0.2·D·(alpha − 1.2)``; ten rings, every 10°); else the frame set is skipped.
- View-centric: one position in front of the target (along its forward axis), swept around the target in
  ±10° steps until it is valid, at least 80 % of the target's volume is in the view and the caller's
  ``accept`` test passes (ReMindView-style generation: every frame shows a nameable object); frames 0–3
  turn 0°, 90°, 180°, 270° counter-clockwise from the view of the target.

Camera conventions: ``synth.camera`` (``look_pose``, OpenCV axes, metres, radians).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import shapely
from numpy.typing import NDArray

from spatialbench.synth.camera import intrinsics, look_pose
from spatialbench.synth.raycast import SceneMesh, in_view
from spatialbench.synth.scene import SynthObject, SynthScene

#: categories that are never targets (official pipeline: windows, doors, ceiling lights)
NON_TARGETS = frozenset({"window", "door", "ceiling light"})
#: world axes of the object-centric cameras, frames 0-3 (official order +Y, -Y, +X, -X)
OBJECT_CENTRIC_AXES = ((0.0, 1.0), (0.0, -1.0), (1.0, 0.0), (-1.0, 0.0))
LEVELS = tuple(range(11))
RING_COUNT, RING_STEP_DEG = 10, 10.0


class Rig(StrEnum):
    """Viewpoint spatial pattern (App. A.1)."""

    OBJECT_CENTRIC = "object-centric"
    VIEW_CENTRIC = "view-centric"


@dataclass(frozen=True)
class RigSettings:
    """Camera settings; defaults are the paper's, :meth:`official_code` the released code's.

    Attributes:
        width, height: image size in pixels (1024×768).
        horizontal_fov_deg: 39.6° (50 mm lens on a 36 mm sensor).
        elevation_deg: (low, high) lift of the camera above the target centre, drawn per frame set.
        level_offset: ``offset`` of the distance formula (module docstring).
        search_radius: ``"disc"`` (paper: radius D/2) or ``"code"`` (0.2·D·(alpha − 1.2)).
        sweep_step_deg: view-centric sweep step; ``frustum_share``: share of the target volume in view.
        clearance: metres a camera keeps from the floor polygon's edge.
        min_views: an object-centric frame set with fewer valid views is skipped (a view is skipped alone).
    """

    width: int = 1024
    height: int = 768
    horizontal_fov_deg: float = 39.6
    elevation_deg: tuple[float, float] = (25.0, 35.0)
    level_offset: float = 1.5
    search_radius: str = "disc"
    sweep_step_deg: float = 10.0
    frustum_share: float = 0.8
    clearance: float = 0.1
    min_views: int = 2

    @classmethod
    def official_code(cls, **overrides: object) -> RigSettings:
        """Return the released code's values (elevation 15°, offset 1.2, ring radius from alpha)."""
        values: dict[str, object] = {
            "elevation_deg": (15.0, 15.0),
            "level_offset": 1.2,
            "search_radius": "code",
        }
        return cls(**{**values, **overrides})  # type: ignore[arg-type]

    def intrinsics(self) -> NDArray[np.float64]:
        """(3, 3) K of the rig's cameras."""
        return intrinsics(self.width, self.height, self.horizontal_fov_deg)


@dataclass(frozen=True)
class FrameSetPoses:
    """The cameras of one sample: a target, a rig and a distance level.

    Attributes:
        target: instance id of the target object.
        rig: the pattern.
        level: distance level 0–10.
        distance: the level's 3D slant distance in metres; ``elevation``: radians.
        poses: (V, 4, 4) ``cam_to_world`` of the frames, V = 2–4.
        views: (V,) which view each frame is: the index in ``OBJECT_CENTRIC_AXES`` (object-centric) or the
            number of 90° counter-clockwise turns (view-centric).
    """

    target: int
    rig: Rig
    level: int
    distance: float
    elevation: float
    poses: NDArray[np.float64]
    views: tuple[int, ...]


#: a test of candidate cameras (``view_centric``): True to take them
Accept = Callable[[FrameSetPoses], bool]


def targets(scene: SynthScene) -> list[SynthObject]:
    """Objects that get frame sets: every object except windows, doors and ceiling lights."""
    return [obj for obj in scene.objects if obj.category not in NON_TARGETS]


def xy_diagonal(obj: SynthObject) -> float:
    """``D``: diagonal of the object's axis-aligned XY bounding box, metres."""
    low, high = obj.box().aabb()
    return float(np.hypot(*(high - low)[:2]))


def scale_factor(scene: SynthScene, obj: SynthObject) -> float:
    """``alpha = sqrt(floor XY diagonal / D)`` (App. B.2)."""
    x0, y0, x1, y1 = scene.plan.footprint.bounds
    return float(np.sqrt(np.hypot(x1 - x0, y1 - y0) / max(xy_diagonal(obj), 1e-6)))


def level_distance(level: int, diagonal: float, alpha: float, offset: float) -> float:
    """3D camera–target distance of ``level`` (0–10): ``D·((alpha − offset)·level/10 + offset)``, metres."""
    return diagonal * ((alpha - offset) * level / 10 + offset)


def look_at(position: NDArray[np.float64], target: NDArray[np.float64]) -> NDArray[np.float64]:
    """``cam_to_world`` (4, 4) of a camera at ``position`` (3,) looking at ``target`` (3,), no roll."""
    offset = target - position
    yaw = float(np.arctan2(offset[1], offset[0]))
    pitch = float(np.arctan2(offset[2], np.hypot(offset[0], offset[1])))
    return look_pose(position, yaw, pitch)


class Placement:
    """Validity tests of camera positions in one scene (floor polygon, object boxes, clear segment)."""

    def __init__(self, scene: SynthScene, mesh: SceneMesh, settings: RigSettings) -> None:
        """Keep the scene, its ray-casting mesh and the settings."""
        self.scene, self.mesh, self.settings = scene, mesh, settings
        self.floor = scene.plan.footprint.buffer(-settings.clearance)
        self.boxes = [obj.box() for obj in scene.objects]

    def standable(self, positions: NDArray[np.float64]) -> NDArray[np.bool_]:
        """(N,) for (N, 3) positions: standing where a camera may stand.

        That is inside the floor polygon (minus the clearance), below the ceiling and inside no object's box.
        """
        ok = shapely.contains_xy(self.floor, positions[:, 0], positions[:, 1])
        ok &= (positions[:, 2] > 0.05) & (positions[:, 2] < self.scene.plan.height)
        for box in self.boxes:
            ok &= ~box.contains(positions)
        return np.asarray(ok, dtype=bool)

    def clear(self, positions: NDArray[np.float64], target: SynthObject) -> NDArray[np.bool_]:
        """(N,) nothing but the target on the whole segment from each position to the target's box centre."""
        offsets = target.box().center - positions
        length = np.linalg.norm(offsets, axis=1)
        hits, ids = self.mesh.first_hits(positions, offsets / length[:, None])
        return (ids == target.instance_id) | (hits >= length)

    def first_valid(self, positions: NDArray[np.float64], target: SynthObject) -> NDArray[np.float64] | None:
        """Return the first of the (N, 3) positions standable with a clear segment to the target, or None."""
        standable = np.flatnonzero(self.standable(positions))
        if not len(standable):
            return None
        clear = standable[self.clear(positions[standable], target)]
        return positions[clear[0]] if len(clear) else None


def _ring_offsets(radius: float) -> NDArray[np.float64]:
    """(360, 3) horizontal offsets of the search rings, nearest first: radii radius·i/10, every 10°."""
    angles = np.radians(np.arange(0.0, 360.0, RING_STEP_DEG))
    radii = radius * np.arange(1, RING_COUNT + 1) / RING_COUNT
    ring = np.stack([np.cos(angles), np.sin(angles), np.zeros_like(angles)], axis=1)
    return (radii[:, None, None] * ring[None]).reshape(-1, 3)


@dataclass(frozen=True)
class _Reach:
    """Where a level puts the cameras of a target.

    Its centre (3,), D, alpha, the slant distance, the elevation (radians), and the distance's horizontal
    and vertical parts (metres).
    """

    centre: NDArray[np.float64]
    diagonal: float
    alpha: float
    distance: float
    elevation: float
    horizontal: float
    lift: float

    @classmethod
    def of(cls, placement: Placement, target: SynthObject, level: int, rng: np.random.Generator) -> _Reach:
        """Distance of ``level`` (App. B.2) and an elevation drawn from the settings' range."""
        settings = placement.settings
        diagonal, alpha = xy_diagonal(target), scale_factor(placement.scene, target)
        distance = level_distance(level, diagonal, alpha, settings.level_offset)
        elevation = float(np.radians(rng.uniform(*settings.elevation_deg)))
        horizontal, lift = distance * np.cos(elevation), distance * np.sin(elevation)
        return cls(target.box().center, diagonal, alpha, distance, elevation, horizontal, lift)


def object_centric(
    placement: Placement, target: SynthObject, level: int, rng: np.random.Generator
) -> FrameSetPoses | None:
    """Return the object-centric cameras of ``target`` at ``level`` (None: under ``min_views`` valid)."""
    settings, reach = placement.settings, _Reach.of(placement, target, level, rng)
    if settings.search_radius == "disc":
        radius = reach.diagonal / 2
    else:
        radius = 0.2 * reach.diagonal * (reach.alpha - 1.2)
    offsets = np.vstack([np.zeros(3), _ring_offsets(max(radius, 0.0))])
    poses, axes = [], []
    for index, axis in enumerate(OBJECT_CENTRIC_AXES):
        start = reach.centre + np.array([axis[0] * reach.horizontal, axis[1] * reach.horizontal, reach.lift])
        found = placement.first_valid(start + offsets, target)
        if found is not None:
            poses.append(look_at(found, reach.centre))
            axes.append(index)
    if len(poses) < settings.min_views:
        return None
    return FrameSetPoses(
        target.instance_id,
        Rig.OBJECT_CENTRIC,
        level,
        reach.distance,
        reach.elevation,
        np.stack(poses),
        tuple(axes),
    )


def _in_frustum(placement: Placement, target: SynthObject, pose: NDArray[np.float64]) -> bool:
    settings = placement.settings
    points = target.box().sample_points(200, np.random.default_rng(target.instance_id))
    share = in_view(points, settings.intrinsics(), pose, (settings.width, settings.height)).mean()
    return bool(share >= settings.frustum_share)


def view_centric(
    placement: Placement,
    target: SynthObject,
    level: int,
    rng: np.random.Generator,
    accept: Accept | None = None,
) -> FrameSetPoses | None:
    """Return the four view-centric frames of ``target`` at ``level`` (one position, 90° turns), or None.

    ``accept``: the first candidate position whose frames it accepts is taken (all, when None).
    """
    settings, reach = placement.settings, _Reach.of(placement, target, level, rng)
    front = float(np.arctan2(target.pose()[1, 1], target.pose()[0, 1]))  # local +y in the world
    steps = int(180 // settings.sweep_step_deg)
    turns = [0, *(s * i for i in range(1, steps + 1) for s in (1, -1))]
    angles = front + np.radians(np.array(turns) * settings.sweep_step_deg)
    horizontal = reach.horizontal
    ring = np.stack(
        [horizontal * np.cos(angles), horizontal * np.sin(angles), np.full(len(turns), reach.lift)], 1
    )
    candidates = reach.centre + ring
    valid = np.flatnonzero(placement.standable(candidates))
    valid = valid[placement.clear(candidates[valid], target)]
    for position in candidates[valid]:
        first = look_at(position, reach.centre)
        if not _in_frustum(placement, target, first):
            continue
        yaw = float(np.arctan2(first[1, 2], first[0, 2]))
        pitch = float(np.arcsin(np.clip(first[2, 2], -1.0, 1.0)))
        poses = [look_pose(position, yaw + np.radians(90.0 * i), pitch) for i in range(4)]
        found = FrameSetPoses(
            target.instance_id,
            Rig.VIEW_CENTRIC,
            level,
            reach.distance,
            reach.elevation,
            np.stack(poses),
            (0, 1, 2, 3),
        )
        if accept is None or accept(found):
            return found
    return None


def rig_poses(
    placement: Placement,
    target: SynthObject,
    rig: Rig,
    level: int,
    rng: np.random.Generator,
    accept: Accept | None = None,
) -> FrameSetPoses | None:
    """Frame-set cameras of ``rig`` (see :func:`object_centric`, :func:`view_centric`).

    ``accept`` (view-centric only) tests candidate frame sets; object-centric cameras have no choice of
    position beyond validity.
    """
    if rig is Rig.OBJECT_CENTRIC:
        return object_centric(placement, target, level, rng)
    return view_centric(placement, target, level, rng, accept)
