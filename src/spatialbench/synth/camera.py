"""Pinhole intrinsics and eye-height walkthrough camera paths.

Camera convention (written once, used by the renderer, the saved poses and the tests): OpenCV camera
axes (x right, y down, z forward); ``cam_to_world`` is the 4×4 transform from camera to the z-up world
frame. Pixel ``(col, row)`` has continuous coordinates (col, row) at its centre, so back-projection is
``cam_to_world @ [depth * K^-1 @ (col, row, 1), 1]`` with ``depth`` the z-distance along the optical axis.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import gaussian_filter1d, label

from spatialbench.synth.freespace import FreeSpaceMap


def intrinsics(width: int, height: int, horizontal_fov_deg: float = 66.0) -> NDArray[np.float64]:
    """Return the 3×3 intrinsics K of a square-pixel pinhole camera, principal point at the image centre."""
    focal = (width / 2) / np.tan(np.radians(horizontal_fov_deg) / 2)
    return np.array([[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0.0, 0.0, 1.0]])


def look_pose(position: NDArray[np.float64], yaw: float, pitch: float) -> NDArray[np.float64]:
    """Return the ``cam_to_world`` (4, 4) of a camera at ``position`` without roll.

    ``yaw`` is the heading in radians from +x, counter-clockwise; ``pitch`` in radians, negative looks down.
    """
    forward = np.array([np.cos(yaw) * np.cos(pitch), np.sin(yaw) * np.cos(pitch), np.sin(pitch)])
    right = np.array([np.sin(yaw), -np.cos(yaw), 0.0])
    down = np.cross(forward, right)
    pose = np.eye(4)
    pose[:3, 0], pose[:3, 1], pose[:3, 2], pose[:3, 3] = right, down, forward, position
    return pose


# Seconds the walk holds its first (quiet) view before turning into the room.
START_PAUSE_S = 0.5
# Largest turn (radians) from the first view into the room: the turn takes time out of short videos.
START_TURN = 2.0


@dataclass(frozen=True)
class PathConfig:
    """Walkthrough style: walking speed (m/s), turning speed (rad/s), eye height (m), pitch (rad)."""

    fps: float = 24.0
    speed: float = 0.55
    turn_speed: float = 0.75
    eye_height: float = 1.5
    pitch: float = -0.3
    waypoints: int = 3
    max_seconds: float = 40.0


def _waypoints(
    space: FreeSpaceMap, start: NDArray[np.float64], count: int, rng: np.random.Generator
) -> list[NDArray[np.float64]]:
    """Farthest-point sampling over roomy walkable cells (far from obstacles) to cover the room."""
    distance_to_obstacle = space.distance_to_obstacle()
    reachable = _component(space, start)
    cells = space.to_world(np.argwhere(reachable))
    for roomy in (1.0, 0.7):  # prefer standing well away from walls and furniture
        mask = reachable & (distance_to_obstacle >= roomy)
        if mask.sum() >= count:
            cells = space.to_world(np.argwhere(mask))
            break
    chosen = [start]
    distance = np.linalg.norm(cells - start, axis=1)
    for _ in range(count):
        weights = distance**3
        pick = int(rng.choice(len(cells), p=weights / weights.sum())) if weights.sum() > 0 else 0
        chosen.append(cells[pick])
        distance = np.minimum(distance, np.linalg.norm(cells - cells[pick], axis=1))
    return chosen


def _component(space: FreeSpaceMap, start: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Walkable cells connected to the walkable cell nearest to ``start``."""
    labels, _ = label(space.walkable, structure=np.ones((3, 3)))
    cells = np.argwhere(space.walkable)
    nearest = cells[np.argmin(np.linalg.norm(space.to_world(cells) - start, axis=1))]
    return labels == labels[tuple(nearest)]


def _resample(points: NDArray[np.float64], step: float) -> NDArray[np.float64]:
    lengths = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))]
    if lengths[-1] < step:
        return points[:1]
    samples = np.arange(0.0, lengths[-1], step)
    return np.column_stack([np.interp(samples, lengths, points[:, i]) for i in range(2)])


def _reach(space: FreeSpaceMap, xy: NDArray[np.float64], angles: NDArray[np.float64]) -> NDArray[np.float64]:
    """Free distance (metres) from ``xy`` along each heading before an obstacle or wall."""
    radii = np.arange(0.0, 12.0, space.resolution)
    points = (
        np.asarray(xy)[:2] + radii[None, :, None] * np.stack([np.cos(angles), np.sin(angles)], 1)[:, None]
    )
    cols = np.floor((points[..., 0] - space.origin[0]) / space.resolution).astype(int)
    rows = np.floor((points[..., 1] - space.origin[1]) / space.resolution).astype(int)
    inside = (rows >= 0) & (rows < space.free.shape[0]) & (cols >= 0) & (cols < space.free.shape[1])
    free = np.zeros(points.shape[:2], dtype=bool)
    free[inside] = space.free[rows[inside], cols[inside]]
    return np.where(free.all(axis=1), len(radii), np.argmin(free, axis=1)) * space.resolution


def best_heading(
    space: FreeSpaceMap, xy: NDArray[np.float64], targets: NDArray[np.float64] | None = None, rays: int = 72
) -> float:
    """Heading (radians) worth looking at from ``xy``: objects in view plus a long free view.

    ``targets`` (N, 3) holds object positions x, y and weights; a heading scores the weights of targets
    within ±30° of it and farther than 0.8 m, plus the free distance along it (smoothed over ±20°).
    """
    angles = np.linspace(0.0, 2 * np.pi, rays, endpoint=False)
    reach = _reach(space, xy, angles)
    window = np.ones(9) / 9  # 9 rays of 5 degrees
    score = np.convolve(np.r_[reach[-4:], reach, reach[:4]], window, mode="valid") / max(reach.max(), 1e-6)
    if targets is not None and len(targets):
        offsets = targets[:, :2] - np.asarray(xy)[:2]
        bearing = np.arctan2(offsets[:, 1], offsets[:, 0])
        near = np.linalg.norm(offsets, axis=1) > 0.8
        diff = np.abs((angles[:, None] - bearing[None, :] + np.pi) % (2 * np.pi) - np.pi)
        seen = ((diff < np.radians(30)) & near[None, :]) @ targets[:, 2]
        score = score + 2.0 * seen / max(seen.max(), 1e-6)
    return float(angles[int(np.argmax(score))])


def quiet_heading(
    space: FreeSpaceMap,
    xy: NDArray[np.float64],
    objects: NDArray[np.float64],
    around: float | None = None,
    max_turn: float = np.pi,
    half_view: float = np.radians(45),
    rays: int = 72,
) -> float:
    """Heading (radians) from ``xy`` with the fewest objects in view.

    That is where a person entering a room looks first (the wall beside the door), so that objects come
    into view one by one as they turn.

    ``objects`` (M, 2) are object positions (x, y, metres); an object counts as in view when its bearing lies
    within ``half_view`` of the heading and no wall or furniture stands in front of it (it lies at most
    0.6 m beyond the free distance along its bearing). Ties go to the heading facing the nearest wall.
    Given ``around`` (radians), only headings within ``max_turn`` of it count (a short turn into the room).
    """
    angles = np.linspace(0.0, 2 * np.pi, rays, endpoint=False)
    if around is not None:
        angles = angles[np.abs((angles - around + np.pi) % (2 * np.pi) - np.pi) <= max_turn + 1e-9]
    offsets = np.asarray(objects, dtype=float).reshape(-1, 2) - np.asarray(xy)[:2]
    bearing = np.arctan2(offsets[:, 1], offsets[:, 0])
    unblocked = np.linalg.norm(offsets, axis=1) <= _reach(space, xy, bearing) + 0.6
    diff = np.abs((angles[:, None] - bearing[None, :] + np.pi) % (2 * np.pi) - np.pi)
    in_view = ((diff < half_view) & unblocked[None, :]).sum(axis=1)
    reach = _reach(space, xy, angles)
    return float(angles[int(np.argmin(in_view + 0.5 * reach / max(reach.max(), 1e-6)))])


class _Track:
    """Accumulates camera positions and headings frame by frame."""

    def __init__(self, heading: float, turn_step: float, targets: NDArray[np.float64] | None) -> None:
        self.xy: list[NDArray[np.float64]] = []
        self.yaw: list[float] = []
        self.heading, self.turn_step, self.targets = heading, turn_step, targets

    def hold(self, xy: NDArray[np.float64], frames: int) -> None:
        """Stand still at ``xy`` for ``frames`` frames."""
        self.xy.extend([xy] * frames)
        self.yaw.extend([self.heading] * frames)

    def turn_to(self, xy: NDArray[np.float64], target: float) -> None:
        """Turn in place the short way round to ``target`` at the turning speed."""
        delta = (target - self.heading + np.pi) % (2 * np.pi) - np.pi
        for angle in self.heading + np.sign(delta) * np.arange(0.0, abs(delta), self.turn_step):
            self.xy.append(xy)
            self.yaw.append(float(angle))
        self.heading += delta

    def look_around(self, space: FreeSpaceMap, xy: NDArray[np.float64], rng: np.random.Generator) -> None:
        """Sweep the gaze across the best heading (``best_heading``), starting from the nearer side."""
        centre, half = best_heading(space, xy, self.targets), float(rng.uniform(0.4, 0.8))
        sides = [centre - half, centre + half]
        if abs((sides[1] - self.heading + np.pi) % (2 * np.pi) - np.pi) < abs(
            (sides[0] - self.heading + np.pi) % (2 * np.pi) - np.pi
        ):
            sides.reverse()
        self.turn_to(xy, sides[0])
        self.turn_to(xy, sides[0] + (sides[1] - sides[0]) / 2)
        self.turn_to(xy, sides[1])

    def walk(self, walk: NDArray[np.float64], lookahead: int) -> None:
        """Walk along ``walk`` (N, 2) facing the way ahead, glancing towards objects beside it.

        The gaze aims at the point ``lookahead`` frames ahead, turned by up to 45° towards the targets
        in front, and follows that aim no faster than the turning speed.
        """
        for k, point in enumerate(walk):
            ahead = walk[min(k + lookahead, len(walk) - 1)] - point
            if np.linalg.norm(ahead) > 1e-6:
                way = float(np.arctan2(ahead[1], ahead[0]))
                aim = way + self._glance(point, way)
                delta = (aim - self.heading + np.pi) % (2 * np.pi) - np.pi
                self.heading += float(np.clip(delta, -self.turn_step, self.turn_step))
            self.xy.append(point)
            self.yaw.append(self.heading)

    def _glance(self, xy: NDArray[np.float64], way: float) -> float:
        """Signed angle (radians, within ±45°) from ``way`` towards the weighted targets ahead."""
        if self.targets is None or not len(self.targets):
            return 0.0
        offsets = self.targets[:, :2] - xy
        bearing = (np.arctan2(offsets[:, 1], offsets[:, 0]) - way + np.pi) % (2 * np.pi) - np.pi
        ahead = (np.abs(bearing) < np.radians(75)) & (np.linalg.norm(offsets, axis=1) > 0.8)
        if not ahead.any():
            return 0.0
        weights = self.targets[ahead, 2]
        return float(np.clip(np.average(bearing[ahead], weights=weights), -np.pi / 4, np.pi / 4))


def walkthrough(
    space: FreeSpaceMap,
    start: NDArray[np.float64],
    rng: np.random.Generator,
    config: PathConfig = PathConfig(),
    targets: NDArray[np.float64] | None = None,
    objects: NDArray[np.float64] | None = None,
) -> NDArray[np.float64]:
    """Camera poses (T, 4, 4) ``cam_to_world`` of a person scanning the room at eye height.

    The person starts at ``start`` (e.g. inside the entrance); given ``objects`` ((M, 2) positions of
    everything that can be seen), they first face the heading with the fewest of them in view
    (:func:`quiet_heading`) and turn from there into the room, so that first appearances spread over
    time (VSI-Bench's appearance-order task needs that). Then they look around (towards ``targets``,
    (N, 3) object x, y and weight, and across open floor),
    walks along shortest walkable paths to waypoints spread over the room (farthest-point sampling),
    turning first to face the way, looks around at each, and finally turns back towards where they came
    from. Positions and headings are smoothed; the length is capped at ``config.max_seconds``.
    """
    stops = _waypoints(space, np.asarray(start, dtype=float), config.waypoints, rng)
    heading = best_heading(space, stops[0], targets)
    quiet = (
        heading
        if objects is None or not len(objects)
        else quiet_heading(space, stops[0], objects, around=heading, max_turn=START_TURN)
    )
    track = _Track(quiet, config.turn_speed / config.fps, targets)
    if quiet != heading:  # a moment facing the quiet side, then turn into the room
        track.hold(stops[0], int(config.fps * START_PAUSE_S))
        track.turn_to(stops[0], heading)
    track.look_around(space, stops[0], rng)
    for stop in stops[1:]:
        path = space.shortest_path(track.xy[-1], stop)
        walk = _resample(path, config.speed / config.fps) if path is not None else np.empty((0, 2))
        if len(walk) > 1:
            ahead = walk[min(int(config.fps), len(walk) - 1)] - walk[0]
            track.turn_to(walk[0], float(np.arctan2(ahead[1], ahead[0])))
            track.walk(walk, int(config.fps))
            track.look_around(space, track.xy[-1], rng)
    back = stops[0] - track.xy[-1]  # finally turn back towards where the walk began, then look around
    if np.linalg.norm(back) > 0.5:
        track.turn_to(track.xy[-1], float(np.arctan2(back[1], back[0])))
        track.look_around(space, track.xy[-1], rng)
    return _poses(np.array(track.xy), np.array(track.yaw), config, rng)


def _poses(
    xy: NDArray[np.float64], yaw: NDArray[np.float64], config: PathConfig, rng: np.random.Generator
) -> NDArray[np.float64]:
    limit = int(config.max_seconds * config.fps)
    xy, yaw = xy[:limit], yaw[:limit]
    sigma = config.fps * 0.4
    xy = gaussian_filter1d(xy, sigma, axis=0, mode="nearest")
    yaw = gaussian_filter1d(yaw, sigma, mode="nearest")
    t = np.arange(len(yaw)) / config.fps
    phase = rng.uniform(0, 2 * np.pi, size=2)
    pitch = config.pitch + 0.06 * np.sin(0.5 * t + phase[0])
    height = config.eye_height + 0.02 * np.sin(1.7 * t + phase[1])
    rows = zip(xy, yaw, pitch, height, strict=True)
    return np.stack([look_pose(np.array([x, y, h]), a, p) for (x, y), a, p, h in rows])
