"""Intrinsics, camera poses and walkthrough paths."""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench.generate.synthetic import appearance_timeline
from spatialbench.generate.vsi.appearance_order import AppearanceSettings
from spatialbench.synth import FreeSpaceMap, RenderedScene, SceneConfig, free_space_map, generate_scene
from spatialbench.synth.camera import PathConfig, intrinsics, look_pose, quiet_heading, walkthrough
from spatialbench.synth.pipeline import entrance, view_targets


def test_intrinsics_of_a_66_degree_camera() -> None:
    K = intrinsics(640, 480, 66.0)
    # fx = 320 / tan(33 deg) = 492.77; principal point at the centre of pixel indices.
    assert K[0, 0] == pytest.approx(320 / np.tan(np.radians(33)))
    assert K[1, 1] == K[0, 0]
    assert (K[0, 2], K[1, 2]) == (319.5, 239.5)


def test_look_pose_axes() -> None:
    pose = look_pose(np.array([1.0, 2.0, 1.5]), yaw=np.pi / 2, pitch=0.0)
    assert np.allclose(pose[:3, 2], [0, 1, 0])  # optical axis along +y
    assert np.allclose(pose[:3, 0], [1, 0, 0])  # image right = +x when looking along +y
    assert np.allclose(pose[:3, 1], [0, 0, -1])  # image down = -z
    assert np.allclose(pose[:3, :3].T @ pose[:3, :3], np.eye(3))
    assert np.linalg.det(pose[:3, :3]) == pytest.approx(1.0)


@pytest.fixture(scope="module")
def walk():
    scene = generate_scene(SceneConfig(room_type="living room", plan="l_shape"), 4)
    space = free_space_map(scene)
    config = PathConfig(fps=12, max_seconds=40)
    poses = walkthrough(space, entrance(scene, space), np.random.default_rng(0), config, view_targets(scene))
    return scene, space, config, poses


def test_walkthrough_stays_on_free_floor_at_eye_height(walk) -> None:
    _, space, config, poses = walk
    assert 12 * 8 < len(poses) <= 12 * 40
    for pose in poses:
        assert space.free[space.to_cell(pose[:2, 3])]
    assert np.allclose(poses[:, 2, 3], config.eye_height, atol=0.03)
    pitch = np.degrees(np.arcsin(poses[:, 2, 2]))
    assert (pitch < -10).all() and (pitch > -25).all()


def test_walkthrough_is_smooth_and_looks_around(walk) -> None:
    _, _, config, poses = walk
    steps = np.linalg.norm(np.diff(poses[:, :2, 3], axis=0), axis=1)
    assert steps.max() <= config.speed / config.fps * 1.2
    headings = np.unwrap(np.arctan2(poses[:, 1, 2], poses[:, 0, 2]))
    turns = np.abs(np.diff(headings))
    assert turns.max() <= config.turn_speed / config.fps * 1.2
    assert turns.sum() > 2 * np.pi  # looking around: at least a full circle of turning in total
    assert np.linalg.norm(poses[-1, :2, 3] - poses[0, :2, 3]) > 1.0  # it walked somewhere


def test_quiet_heading_faces_away_from_the_objects() -> None:
    # A 4 m x 4 m empty room (10 cm cells) seen from its centre; three objects lie east and north-east.
    free = np.ones((40, 40), dtype=bool)
    space = FreeSpaceMap(free, free, np.zeros(2), 0.1, 0.25)
    objects = np.array([[3.5, 2.0], [3.5, 3.0], [3.0, 3.5]])
    heading = quiet_heading(space, np.array([2.0, 2.0]), objects)
    # Bearings 0, 33.7 and 56.3 deg; only headings farther than 45 deg from all three see none of them:
    # 101.3 deg .. 315 deg (open interval); the 5-degree ray grid gives 105 .. 310 deg.
    assert 105 <= np.degrees(heading) <= 310


def test_walkthrough_starts_facing_few_objects(rendered_bedroom: RenderedScene) -> None:
    # The dense bedroom (17 categories): before the quiet start, 10 categories were in the first second's
    # frames (the walk started facing the room); now at most two, and the others enter one after another.
    frames = rendered_bedroom.frames
    pixels = 1000 * frames.instance.shape[1] * frames.instance.shape[2] // (640 * 480)  # 1,000 px at 640x480
    first = appearance_timeline(
        frames.instance,
        rendered_bedroom.scene,
        frames.timestamps.tolist(),
        AppearanceSettings(min_pixels=pixels),
    )
    times = sorted(first.values())
    assert sum(t < 1.0 for t in times) <= 2
    assert len({round(t) for t in times if 1.0 <= t <= 6.0}) >= 3  # new categories in three later seconds
