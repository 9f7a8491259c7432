"""Visibility ratios (ReMindView-Bench App. B.3) on hand-built scenes, and ray casting vs the depth buffer."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from spatialbench.synth import Renderer, SceneConfig, generate_scene
from spatialbench.synth.camera import intrinsics
from spatialbench.synth.parts import Part
from spatialbench.synth.raycast import SceneMesh, depth_buffer_ratios, raycast_ratios
from spatialbench.synth.rigs import look_at

SIZE = (640, 480)
K = intrinsics(*SIZE, 39.6)


def _cube(center: tuple[float, float, float] = (0.0, 0.0, 0.0), extents=(1.0, 1.0, 1.0)) -> Part:
    transform = trimesh.transformations.translation_matrix(center)
    return Part(trimesh.creation.box(extents=extents, transform=transform), (0.5, 0.5, 0.5))


def _ratio(mesh: SceneMesh, instance_id: int, eye: tuple[float, float, float], n: int = 20000) -> float:
    samples = {instance_id: mesh.sample_surface(instance_id, n, np.random.default_rng(0))}
    pose = look_at(np.array(eye, dtype=float), np.zeros(3))
    return raycast_ratios(mesh, samples, K, pose, SIZE)[instance_id]


@pytest.mark.parametrize(
    ("eye", "faces"),
    [
        ((0.0, 4.0, 0.0), 1),  # face-on: only the +y face, 1 of 6 equal faces
        ((3.0, 3.0, 0.0), 2),  # on the diagonal at mid height: +x and +y faces
        ((3.0, 3.0, 3.0), 3),  # above the corner: +x, +y and the top
    ],
)
def test_cube_ratio_is_the_share_of_its_visible_faces(eye, faces):
    mesh = SceneMesh.from_parts([(1, np.eye(4), [_cube()])])
    # hand computation: a unit cube has 6 faces of 1 m²; the visible faces are `faces` of them
    assert _ratio(mesh, 1, eye) == pytest.approx(faces / 6, abs=0.01)


def test_object_fully_behind_a_wall_has_ratio_zero():
    wall = _cube(center=(0.0, 2.0, 0.0), extents=(4.0, 0.1, 3.0))
    mesh = SceneMesh.from_parts([(1, np.eye(4), [_cube()]), (2, np.eye(4), [wall])])
    assert _ratio(mesh, 1, (0.0, 4.0, 0.0)) == 0.0
    # the wall (4 x 0.1 x 3 m, 25.4 m² of surface) shows the part of its front face (1.95 m away) the
    # image covers: tan(HFOV / 2) = 320 / f wide and 240 / f high on each side
    half_w, half_h = 1.95 * 320 / K[0, 0], 1.95 * 240 / K[1, 1]
    assert _ratio(mesh, 2, (0.0, 4.0, 0.0)) == pytest.approx(4 * half_w * half_h / 25.4, abs=0.005)


def test_half_hidden_cube_face_counts_half():
    # a wall covering x < 0 in front of the cube hides half of the +y face: 0.5 / 6 of the surface
    wall = _cube(center=(-1.0, 1.5, 0.0), extents=(2.0, 0.1, 3.0))
    mesh = SceneMesh.from_parts([(1, np.eye(4), [_cube()]), (2, np.eye(4), [wall])])
    assert _ratio(mesh, 1, (0.0, 6.0, 0.0)) == pytest.approx(0.5 / 6, abs=0.01)


def test_object_outside_the_view_has_ratio_zero():
    mesh = SceneMesh.from_parts([(1, np.eye(4), [_cube()])])
    samples = {1: mesh.sample_surface(1, 1000, np.random.default_rng(0))}
    away = look_at(np.array([0.0, 4.0, 0.0]), np.array([0.0, 8.0, 0.0]))
    assert raycast_ratios(mesh, samples, K, away, SIZE)[1] == 0.0


@pytest.mark.parametrize(("room", "seed"), [("living room", 3), ("bedroom", 5), ("kitchen", 8)])
def test_ray_casting_agrees_with_the_rendered_depth_buffer(room, seed):
    scene = generate_scene(SceneConfig(room_type=room, density="dense"), seed)
    mesh = SceneMesh.from_scene(scene)
    rng = np.random.default_rng(1)
    samples = {i: mesh.sample_surface(i, 1000, rng) for i in mesh.object_ids()}
    centre = np.array([*scene.plan.footprint.centroid.coords[0], 1.5])
    worst, compared = 0.0, 0
    with Renderer(*SIZE) as renderer:
        renderer.load(scene)
        for k in range(6):
            look = centre + np.array([np.cos(k * 1.05), np.sin(k * 1.05), -0.45])
            pose = look_at(centre, look)
            frame = renderer.render(K, pose)
            cast = raycast_ratios(mesh, samples, K, pose, SIZE)
            buffered = depth_buffer_ratios(samples, K, pose, frame.depth)
            worst = max([worst, *(abs(cast[i] - buffered[i]) for i in cast)])
            compared += sum(1 for i in cast if cast[i] > 0)
    assert compared >= 10
    assert worst <= 0.02
