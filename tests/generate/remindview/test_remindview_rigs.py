"""Camera rigs (ReMindView-Bench App. B.2): distances, elevation, look-at, validity, view-centric turns."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Point

from spatialbench.synth import SceneConfig, generate_scene
from spatialbench.synth.raycast import SceneMesh
from spatialbench.synth.rigs import (
    OBJECT_CENTRIC_AXES,
    Placement,
    Rig,
    RigSettings,
    level_distance,
    rig_poses,
    scale_factor,
    targets,
    xy_diagonal,
)


@pytest.fixture(scope="module")
def living_room():
    scene = generate_scene(SceneConfig(room_type="living room"), 3)
    return scene, Placement(scene, SceneMesh.from_scene(scene), RigSettings())


def _all_sets(scene, placement, rig):
    rng = np.random.default_rng(0)
    for target in targets(scene):
        for level in (0, 5, 10):
            poses = rig_poses(placement, target, rig, level, rng)
            if poses is not None:
                yield target, poses


def test_targets_exclude_windows_doors_and_ceiling_lights(living_room):
    scene, _ = living_room
    assert {o.category for o in targets(scene)} & {"window", "door", "ceiling light"} == set()
    assert len(targets(scene)) == sum(
        o.category not in ("window", "door", "ceiling light") for o in scene.objects
    )


def test_cameras_look_at_the_target_from_valid_places(living_room):
    scene, placement = living_room
    floor = scene.plan.footprint
    count = 0
    for target, poses in _all_sets(scene, placement, Rig.OBJECT_CENTRIC):
        centre = target.box().center
        for pose in poses.poses:
            eye, forward = pose[:3, 3], pose[:3, 2]
            to_target = (centre - eye) / np.linalg.norm(centre - eye)
            assert forward @ to_target == pytest.approx(1.0, abs=1e-9)  # optical axis through the centre
            assert floor.contains(Point(eye[:2]))
            assert not any(o.box().contains(eye[None])[0] for o in scene.objects)
            assert 0.0 < eye[2] < scene.plan.height
            count += 1
    assert count >= 30


def test_object_centric_cameras_start_at_the_level_distance_and_search_a_disc_of_diameter_d(living_room):
    scene, placement = living_room
    checked = 0
    for target, poses in _all_sets(scene, placement, Rig.OBJECT_CENTRIC):
        centre = target.box().center
        # d(n) = [n (alpha - 1.5) + 1.5] D, n = level / 10 (App. B.2)
        d = (poses.level / 10 * (scale_factor(scene, target) - 1.5) + 1.5) * xy_diagonal(target)
        assert poses.distance == pytest.approx(d)
        assert np.radians(25) <= poses.elevation <= np.radians(35)
        horizontal, lift = d * np.cos(poses.elevation), d * np.sin(poses.elevation)
        for view, pose in zip(poses.views, poses.poses, strict=True):
            start = centre + np.array([*(np.array(OBJECT_CENTRIC_AXES[view]) * horizontal), lift])
            moved = pose[:3, 3] - start
            assert moved[2] == pytest.approx(0.0, abs=1e-9)
            # the search stays within the disc of diameter D around the first position (App. B.2)
            assert np.linalg.norm(moved[:2]) <= xy_diagonal(target) / 2 + 1e-9
            checked += bool(np.allclose(moved, 0.0))
    assert checked >= 10


def test_view_centric_frames_turn_90_degrees_counter_clockwise_on_the_spot(living_room):
    scene, placement = living_room
    count = 0
    for target, poses in _all_sets(scene, placement, Rig.VIEW_CENTRIC):
        eyes = poses.poses[:, :3, 3]
        assert np.allclose(eyes, eyes[0])
        headings = [np.degrees(np.arctan2(p[1, 2], p[0, 2])) for p in poses.poses]
        turns = [(b - a) % 360 for a, b in zip(headings, headings[1:], strict=False)]
        assert turns == pytest.approx([90.0, 90.0, 90.0])
        box = target.box()
        corners_in_front = (box.corners() - eyes[0]) @ poses.poses[0][:3, 2] > 0
        assert corners_in_front.all()
        assert np.linalg.norm(box.center - eyes[0]) == pytest.approx(poses.distance)
        count += 1
    assert count >= 20


def test_the_code_preset_distance_uses_offset_1_2():
    assert level_distance(0, 2.0, 2.0, RigSettings.official_code().level_offset) == pytest.approx(2.4)
    assert RigSettings.official_code().elevation_deg == (15.0, 15.0)
