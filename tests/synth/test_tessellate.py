"""Adaptive re-tessellation of flat faces: same area, finer only where the light varies."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

from spatialbench.synth.tessellate import ROOT, planar_groups, refine_mesh, refine_plane

UP = np.array([0.0, 0.0, 1.0])


def rectangle(width: float, depth: float) -> np.ndarray:
    """Two triangles (2, 3, 3) covering [0, width] x [0, depth] at z = 0."""
    a, b, c, d = (0, 0, 0), (width, 0, 0), (width, depth, 0), (0, depth, 0)
    return np.array([[a, b, c], [a, c, d]], dtype=np.float64)


def area(triangles: np.ndarray) -> float:
    return float(
        0.5
        * np.linalg.norm(
            np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0]), axis=1
        ).sum()
    )


def constant(points: np.ndarray, normals: np.ndarray) -> np.ndarray:
    return np.ones((len(points), 3))


def spot(points: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """A bright spot 10 cm wide at (0.3, 0.3)."""
    r2 = np.sum((points[:, :2] - 0.3) ** 2, axis=1)
    return np.repeat(np.exp(-r2 / 0.01)[:, None], 3, axis=1)


def test_box_faces_are_six_planar_groups() -> None:
    box = trimesh.creation.box(extents=(1.0, 2.0, 3.0))
    groups = planar_groups(box.vertices[box.faces])
    assert sorted(len(g) for g in groups) == [2] * 6


def test_constant_light_keeps_one_cell_per_root_square() -> None:
    refined = refine_plane(rectangle(2 * ROOT, ROOT), UP, (1.0,), constant, depth=3)
    assert len(refined) == 4  # two root cells, two triangles each
    assert area(refined) == pytest.approx(2 * ROOT * ROOT)


def test_a_spot_is_refined_down_to_the_smallest_cell_and_the_area_is_kept() -> None:
    refined = refine_plane(rectangle(2 * ROOT, ROOT), UP, (1.0,), spot, depth=3)
    assert area(refined) == pytest.approx(2 * ROOT * ROOT)
    edges = np.linalg.norm(refined[:, 1] - refined[:, 0], axis=1)
    assert edges.min() == pytest.approx(ROOT / 8)  # depth 3: three halvings
    centres = refined.mean(axis=1)
    fine = centres[edges < ROOT / 4]
    assert np.abs(fine[:, :2] - 0.3).max() < 0.45  # the small cells sit around the spot
    far = centres[np.linalg.norm(centres[:, :2] - 0.3, axis=1) > 0.6]
    assert len(far) > 0 and (edges[np.linalg.norm(centres[:, :2] - 0.3, axis=1) > 0.6] >= ROOT / 2).all()


def test_an_l_shaped_face_is_clipped_to_its_outline() -> None:
    corners = np.array([(0, 0), (1.3, 0), (1.3, 0.4), (0.4, 0.4), (0.4, 1.1), (0, 1.1)], dtype=float)
    fan = np.array([[corners[0], corners[i], corners[i + 1]] for i in range(1, 5)])
    triangles = np.concatenate([fan, np.zeros((4, 3, 1))], axis=2)
    refined = refine_plane(triangles, UP, (1.0,), spot, depth=2)
    assert area(refined) == pytest.approx(1.3 * 0.4 + 0.4 * 0.7)
    inside = refined.mean(axis=1)
    assert ((inside[:, 0] <= 0.4 + 1e-9) | (inside[:, 1] <= 0.4 + 1e-9)).all()


def test_a_policy_that_refines_nothing_keeps_the_triangles() -> None:
    triangles = rectangle(1.0, 1.0)
    kept, normals = refine_mesh(triangles, spot, lambda centroid, normal, size: ((), 3))
    assert np.array_equal(kept, triangles)
    assert normals == pytest.approx(np.repeat(UP[None], 2, axis=0))


def test_cells_are_split_down_to_the_largest_size_asked_for() -> None:
    # a highlight added per vertex is not in the light function: the caller asks for small cells instead
    refined = refine_plane(rectangle(ROOT, ROOT), UP, (1.0,), constant, depth=2, largest=ROOT / 4)
    assert len(refined) == 2 * 16  # 4 x 4 cells of ROOT / 4
    assert area(refined) == pytest.approx(ROOT * ROOT)
