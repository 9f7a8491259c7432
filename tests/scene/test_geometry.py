import numpy as np
import pytest
from scipy.optimize import lsq_linear
from scipy.spatial.transform import Rotation

from spatialbench.scene import make_box, rotation_z
from spatialbench.scene.geometry import (
    alpha_shape_area,
    box_distance,
    box_distance_sampled,
    box_distances,
    segment_distance,
)

UNIT = make_box([0, 0, 0], [1, 1, 1])


def test_axis_aligned_face_gap():
    assert box_distance(UNIT, make_box([2.0, 0, 0], [1, 1, 1])) == pytest.approx(1.0)


def test_axis_aligned_corner_gap():
    # nearest corners (0.5, 0.5, 0.5) and (1.5, 1.5, 1.5): sqrt(3)
    assert box_distance(UNIT, make_box([2.0, 2.0, 2.0], [1, 1, 1])) == pytest.approx(np.sqrt(3))


def test_rotated_box_vertex_to_face():
    # a unit cube turned 45 degrees about z at x = 2 points an edge at the first cube:
    # its nearest edge lies at x = 2 - sqrt(2)/2, the first cube's face at x = 0.5
    rotated = make_box([2.0, 0, 0], [1, 1, 1], rotation_z(np.pi / 4))
    assert box_distance(UNIT, rotated) == pytest.approx(1.5 - np.sqrt(2) / 2)


def test_rotated_edge_edge():
    # bar along x at z=0 and bar along y at z=1, both thin: edge-edge distance 1 - 0.1 - 0.1
    a = make_box([0, 0, 0], [4, 0.2, 0.2])
    b = make_box([0, 0, 1.0], [0.2, 4, 0.2])
    assert box_distance(a, b) == pytest.approx(0.8)


def test_crossing_without_vertex_inside_is_zero():
    # a plus sign: no vertex of one box is inside the other, yet they overlap
    assert box_distance(make_box([0, 0, 0], [4, 0.2, 0.2]), make_box([0, 0, 0], [0.2, 4, 0.2])) == 0.0


def test_segment_distance_parallel():
    d = segment_distance(
        np.array([0.0, 0, 0]), np.array([1.0, 0, 0]), np.array([0.5, 1, 0]), np.array([2.0, 1, 0])
    )
    assert float(d) == pytest.approx(1.0)


def _random_boxes(rng, n):
    return [
        make_box(
            rng.uniform(-1.5, 1.5, 3),
            rng.uniform(0.1, 1.5, 3),
            Rotation.random(random_state=int(s)).as_matrix(),
        )
        for s in rng.integers(0, 2**31, n)
    ]


def test_matches_convex_qp_on_random_rotated_boxes():
    rng = np.random.default_rng(7)
    a, b = _random_boxes(rng, 300), _random_boxes(rng, 300)
    ours = box_distances(a, b)
    for x, y, d in zip(a, b, ours, strict=True):
        m = np.hstack([x.rotation, -y.rotation])
        bound = np.concatenate([x.half_extent, y.half_extent])
        fit = lsq_linear(m, y.center - x.center, bounds=(-bound, bound), method="bvls", tol=1e-14)
        assert d == pytest.approx(np.linalg.norm(m @ fit.x - (y.center - x.center)), abs=1e-7)
    assert 0 < np.mean(ours == 0) < 1  # both overlapping and separated pairs were tested


def test_dense_sampling_bounds_exact_distance_from_above():
    rng = np.random.default_rng(3)
    for a, b in zip(_random_boxes(rng, 20), _random_boxes(rng, 20), strict=True):
        exact = box_distance(a, b)
        sampled = box_distance_sampled(a, b, 4000, rng)
        assert exact - 1e-9 <= sampled <= exact + 0.25


def test_alpha_shape_area_of_l_shaped_room():
    # L-shaped floor: 4 x 3 m minus a 2 x 1.5 m corner = 9 m^2, sampled on a 5 cm grid
    xs, ys = np.meshgrid(np.arange(0, 4.0001, 0.05), np.arange(0, 3.0001, 0.05))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    pts = pts[~((pts[:, 0] > 2.0 + 1e-9) & (pts[:, 1] > 1.5 + 1e-9))]
    # alpha 0.1 m > grid triangles' circumradius (0.035 m): the floor is filled; the concave corner
    # gains at most a few half-cells (0.00125 m^2 each)
    assert alpha_shape_area(pts, alpha=0.1) == pytest.approx(9.0, abs=0.01)
    assert alpha_shape_area(pts, alpha=100.0) > 9.5  # a huge alpha fills the notch (convex hull)


def test_samples_lie_inside_the_rotated_box():
    box = make_box([1.0, -2.0, 0.5], [2.0, 0.5, 1.0], rotation_z(0.7))
    pts = box.sample_points(2000, np.random.default_rng(0))
    assert box.contains(pts).all()
    assert not box.contains(
        box.center + 1.01 * (box.corners() - box.center)
    ).any()  # just outside each corner
