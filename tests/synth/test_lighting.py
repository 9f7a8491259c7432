"""Per-vertex light bake and the occlusion volume it samples, against hand computations."""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench.synth.lighting import HORIZON_TINT, SKY, Lights
from spatialbench.synth.parts import Material
from spatialbench.synth.shadows import LEVELS, OcclusionVolume

UP = np.array([[0.0, 0.0, 1.0]])
ORIGIN = np.zeros((1, 3))


def volume(value: float) -> OcclusionVolume:
    """A constant occlusion over x, y in [-2, 2] m, 0..3 m high."""
    return OcclusionVolume(np.full((LEVELS, 8, 8), value, dtype=np.float32), (-2.0, -2.0, 2.0, 2.0), 3.0)


def test_floor_point_under_one_lamp() -> None:
    lights = Lights(np.array([[0.0, 0.0, 2.0]]), volume(0.0))
    # ambient facing up (0.5, 0.52, 0.54); key 0.4 * 0.6 / |(0.5, 0.35, -0.6)| = 0.24 / 0.855862 = 0.280419;
    # lamp 2 m above: 1 / (1 + 0.2 * 4) * 0.9 (one lamp) * tint (1, 0.96, 0.88) = 0.5 * tint
    expected = np.array([0.5 + 0.280419 + 0.5, 0.52 + 0.280419 + 0.48, 0.54 + 0.280419 + 0.44])
    assert lights.irradiance(ORIGIN, UP)[0] == pytest.approx(expected, abs=1e-6)


def test_full_occlusion_darkens_each_term_by_its_share() -> None:
    lights = Lights(np.array([[0.0, 0.0, 2.0]]), volume(1.0))
    # ambient x 0.5, key x 0.2, lamps x 0.3
    expected = 0.5 * 0.5 + 0.2 * 0.280419 + 0.3 * 0.5
    assert lights.irradiance(ORIGIN, UP)[0, 0] == pytest.approx(expected, abs=1e-6)


def test_surface_facing_away_from_the_lamp_gets_ambient_only() -> None:
    lights = Lights(np.array([[0.0, 0.0, 2.0]]), volume(0.0))
    down = -UP
    # facing down: sky 0 -> ambient (0.33, 0.32, 0.3); the key light travels down, the lamp is above
    assert lights.irradiance(ORIGIN, down)[0] == pytest.approx([0.33, 0.32, 0.3], abs=1e-9)


def test_emissive_and_glass_ignore_the_lights() -> None:
    lights = Lights(np.array([[0.0, 0.0, 2.0]]), volume(0.0))
    points = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.4]])
    albedo = np.full((3, 3), 0.5)
    materials = np.array([Material.EMISSIVE, Material.GLASS, Material.GLASS])
    front, back = lights.vertex_colors(points, np.repeat(UP, 3, axis=0), albedo, materials)
    assert front[0] == pytest.approx([0.525] * 3) and back[0] == pytest.approx([0.525] * 3)
    assert front[1] == pytest.approx(SKY)  # at or below the 1.2 m horizon: the pale haze
    assert front[2] == pytest.approx(0.5 * HORIZON_TINT)  # 1.2 m above it: the sky of the pane's tint


def test_occlusion_is_trilinear_between_texel_centres_and_clamped() -> None:
    values = np.zeros((LEVELS, 2, 4), dtype=np.float32)
    values[:, :, 1], values[:, :, 2], values[:, :, 3] = 0.2, 0.6, 1.0  # columns 1 m wide over x in [0, 4]
    occ = OcclusionVolume(values, (0.0, 0.0, 4.0, 2.0), 3.0)
    x = np.array([1.5, 2.0, 2.5, 9.0, -3.0])  # texel centres at 0.5, 1.5, 2.5, 3.5
    points = np.column_stack([x, np.full(5, 1.0), np.full(5, 0.7)])
    assert occ.sample(points) == pytest.approx([0.2, 0.4, 0.6, 1.0, 0.0], abs=1e-6)
