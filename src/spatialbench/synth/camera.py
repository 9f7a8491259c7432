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
from scipy.ndimage import distance_transform_edt, gaussian_filter1d

from spatialbench.synth.freespace import FreeSpaceMap


def intrinsics(width: int, height: int, horizontal_fov_deg: float = 66.0) -> NDArray[np.float64]:
    """The 3×3 matrix K of a square-pixel pinhole camera with the principal point at the image centre."""
    focal = (width / 2) / np.tan(np.radians(horizontal_fov_deg) / 2)
    return np.array([[focal, 0.0, (width - 1) / 2], [0.0, focal, (height - 1) / 2], [0.0, 0.0, 1.0]])


def look_pose(position: NDArray[np.float64], yaw: float, pitch: float) -> NDArray[np.float64]:
    """``cam_to_world`` (4, 4) of a camera at ``position`` looking along heading ``yaw`` (radians from +x,
    counter-clockwise) tilted by ``pitch`` (radians, negative looks down), with no roll.
    """
    forward = np.array([np.cos(yaw) * np.cos(pitch), np.sin(yaw) * np.cos(pitch), np.sin(pitch)])
    right = np.array([np.sin(yaw), -np.cos(yaw), 0.0])
    down = np.cross(forward, right)
    pose = np.eye(4)
    pose[:3, 0], pose[:3, 1], pose[:3, 2], pose[:3, 3] = right, down, forward, position
    return pose


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
    """Farthest-point sampling over roomy walkable cells (>= 0.7 m from obstacles) to cover the room."""
    roomy = space.walkable & (distance_transform_edt(space.free) * space.resolution >= 0.7)
    cells = space.to_world(np.argwhere(roomy if roomy.any() else space.walkable))
    chosen = [start]
    distance = np.linalg.norm(cells - start, axis=1)
    for _ in range(count):
        weights = distance**3
        pick = int(rng.choice(len(cells), p=weights / weights.sum())) if weights.sum() > 0 else 0
        chosen.append(cells[pick])
        distance = np.minimum(distance, np.linalg.norm(cells - cells[pick], axis=1))
    return chosen


def _resample(points: NDArray[np.float64], step: float) -> NDArray[np.float64]:
    lengths = np.r_[0.0, np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))]
    if lengths[-1] < step:
        return points[:1]
    samples = np.arange(0.0, lengths[-1], step)
    return np.column_stack([np.interp(samples, lengths, points[:, i]) for i in range(2)])


def _pan(yaw: float, turn: float, step: float) -> NDArray[np.float64]:
    return yaw + np.sign(turn) * np.arange(0.0, abs(turn), step)


def walkthrough(
    space: FreeSpaceMap,
    start: NDArray[np.float64],
    rng: np.random.Generator,
    config: PathConfig = PathConfig(),
) -> NDArray[np.float64]:
    """Camera poses (T, 4, 4) ``cam_to_world`` of a person scanning the room at eye height.

    The person starts at ``start`` (e.g. inside the entrance), looks around with a slow pan, walks along
    shortest walkable paths to waypoints spread over the room (farthest-point sampling), looks around at
    each, and finally turns back towards where they came from. Headings and positions are smoothed.
    """
    stops = _waypoints(space, np.asarray(start, dtype=float), config.waypoints, rng)
    step, turn_step = config.speed / config.fps, config.turn_speed / config.fps
    xy: list[NDArray[np.float64]] = []
    yaw: list[float] = []
    toward = np.mean(stops[1:], axis=0) - stops[0] if len(stops) > 1 else np.array([1.0, 0.0])
    heading = float(np.arctan2(toward[1], toward[0]))
    for index, stop in enumerate(stops):
        if index > 0:
            path = space.shortest_path(stops[index - 1], stop)
            walk = _resample(path, step) if path is not None else np.empty((0, 2))
            for k, point in enumerate(walk):
                ahead = walk[min(k + int(config.fps), len(walk) - 1)] - point
                if np.linalg.norm(ahead) > 1e-6:
                    heading = float(np.arctan2(ahead[1], ahead[0]))
                xy.append(point)
                yaw.append(heading)
        turn = float(rng.choice([-1, 1])) * float(rng.uniform(np.pi * 0.8, np.pi * 1.6))
        for angle in _pan(heading, turn, turn_step):
            xy.append(xy[-1] if xy else stop)
            yaw.append(float(angle))
        heading = yaw[-1]
    return _poses(np.array(xy), np.unwrap(np.array(yaw)), config, rng)


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
    return np.stack([look_pose(np.array([x, y, h]), a, p) for (x, y), a, p, h in zip(xy, yaw, pitch, height)])
