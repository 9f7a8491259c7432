"""The rasteriser: metric depth, instance ids and the camera model against hand-computed views."""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench.synth import Renderer, RendererUnavailableError, SceneConfig, free_space_map, generate_scene
from spatialbench.synth.camera import intrinsics, look_pose
from spatialbench.synth.plan import OpeningKind

W, H = 64, 48


@pytest.fixture(scope="module")
def bedroom_renderer():
    scene = generate_scene(SceneConfig(room_type="bedroom"), 2)
    with Renderer(W, H) as renderer:
        renderer.load(scene)
        yield scene, renderer


def straight_down(x: float, y: float, z: float) -> np.ndarray:
    return look_pose(np.array([x, y, z]), yaw=0.3, pitch=-np.pi / 2)


def test_floor_seen_straight_down_has_depth_equal_to_camera_height(bedroom_renderer) -> None:
    scene, renderer = bedroom_renderer
    space = free_space_map(scene)
    # A floor point with nothing within 1 m: the whole 64x48 view (half-diagonal 0.97 m at 1.2 m) is floor.
    cell = np.argwhere(space.distance_to_obstacle() >= 1.0)[0]
    x, y = space.to_world(cell)[0]
    frame = renderer.render(intrinsics(W, H), straight_down(x, y, 1.2))
    assert (frame.instance == 0).all()
    # The floor plane is perpendicular to the optical axis, so every pixel's z-depth is the height.
    assert np.allclose(frame.depth, 1.2, atol=1e-4)


def test_bed_seen_from_above(bedroom_renderer) -> None:
    scene, renderer = bedroom_renderer
    bed = next(o for o in scene.objects if o.category == "bed")
    frame = renderer.render(intrinsics(W, H), straight_down(*bed.position[:2], 2.0))
    # The bed's local origin is its footprint centre; there the duvet is the highest part.
    tops = [
        p.mesh.bounds[1][2]
        for p in bed.asset.parts
        if (p.mesh.bounds[0][:2] <= 0).all() and (p.mesh.bounds[1][:2] >= 0).all()
    ]
    centre = (H // 2 - 1, W // 2 - 1)  # K's principal point is (W-1)/2, so the 4 central pixels straddle it
    assert frame.instance[centre] == bed.instance_id
    assert frame.depth[centre] == pytest.approx(2.0 - max(tops), abs=2e-3)


def test_colour_image_shows_structure(bedroom_renderer) -> None:
    scene, renderer = bedroom_renderer
    x, y = scene.plan.footprint.centroid.coords[0]
    frame = renderer.render(intrinsics(W, H), look_pose(np.array([x, y, 1.5]), 0.0, -0.3))
    assert frame.color.shape == (H, W, 3) and frame.color.dtype == np.uint8
    assert 40 < frame.color.mean() < 230 and frame.color.std() > 10


def test_rows_come_out_top_first(bedroom_renderer) -> None:
    scene, renderer = bedroom_renderer
    space = free_space_map(scene)
    cell = np.argwhere(space.distance_to_obstacle() >= 1.0)[0]
    x, y = space.to_world(cell)[0]
    K, pose = intrinsics(W, H), look_pose(np.array([x, y, 1.2]), yaw=0.3, pitch=-0.6)
    frame = renderer.render(K, pose)
    # Back-project the middle pixel of the bottom and of the top row (synth.camera: x right, y down).
    points = []
    for row in (H - 1, 0):
        ray = np.linalg.inv(K) @ np.array([W // 2, row, 1.0])
        points.append(pose[:3, :3] @ (ray * frame.depth[row, W // 2]) + pose[:3, 3])
    bottom, top = points
    # Looking 34 degrees down, the bottom row sees the floor within 1 m (free there); the top row the room.
    assert frame.instance[H - 1, W // 2] == 0 and bottom[2] == pytest.approx(0.0, abs=1e-3)
    assert np.hypot(*(bottom[:2] - (x, y))) < 1.0 and top[2] > 0.3


def test_same_scene_same_bytes() -> None:
    scene = generate_scene(SceneConfig(room_type="kitchen"), 5)
    x, y = scene.plan.footprint.centroid.coords[0]
    pose = look_pose(np.array([x, y, 1.5]), 1.0, -0.3)
    frames = []
    for _ in range(2):
        with Renderer(W, H) as renderer:
            renderer.load(scene)
            frames.append(renderer.render(intrinsics(W, H), pose))
    first, second = frames
    assert first.instance.dtype == np.int32 and first.depth.dtype == np.float32
    for name in ("color", "instance", "depth"):
        assert getattr(first, name).tobytes() == getattr(second, name).tobytes()


def test_two_renderers_alive_at_once_each_draw_their_own_scene() -> None:
    bedroom, kitchen = (
        generate_scene(SceneConfig(room_type="bedroom"), 2),
        generate_scene(SceneConfig(room_type="kitchen"), 5),
    )
    x, y = bedroom.plan.footprint.centroid.coords[0]
    K, pose = intrinsics(W, H), look_pose(np.array([x, y, 1.5]), 0.0, -0.3)
    with Renderer(W, H) as first:
        first.load(bedroom)
        alone = first.render(K, pose)
        with Renderer(W, H) as second:  # creating a context makes it current
            second.load(kitchen)
            second.render(K, pose)
            again = first.render(K, pose)
        after = first.render(K, pose)  # and releasing it leaves none current
    for frame in (again, after):
        assert frame.color.tobytes() == alone.color.tobytes()
        assert frame.depth.tobytes() == alone.depth.tobytes()


def test_nothing_shows_through_the_gap_under_a_door(bedroom_renderer) -> None:
    scene, renderer = bedroom_renderer
    doors = [(f, o) for f in scene.plan.faces for o in f.openings if o.kind is OpeningKind.DOOR]
    assert doors
    for face, opening in doors:
        # 1 m in front of the door, 1.2 m up, looking at the middle of its bottom edge
        eye = np.array([*face.point(opening.center, inset=1.0), 1.2])
        yaw = float(np.arctan2(-face.normal[1], -face.normal[0]))
        frame = renderer.render(intrinsics(W, H), look_pose(eye, yaw, -np.arctan2(1.2, 1.0)))
        assert (frame.depth > 0).all()  # the floor goes on under the door leaf


def test_missing_backend_raises_a_clear_error() -> None:
    with pytest.raises(RendererUnavailableError, match="backend 'no-such-backend'"):
        Renderer(8, 8, backend="no-such-backend")
