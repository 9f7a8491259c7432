"""Soft contact shadows from a top-down height map (a vertical directional shadow map, baked per scene).

Once per scene an orthographic view from above records, per floor texel, the top height of the objects
over it (room shell and ceiling lights excluded). From it a small volume is baked: for each height level z
and floor position, the share of a ~10 cm neighbourhood covered by something higher than z. The lighting
bake (``synth.lighting``) samples it trilinearly at every vertex and darkens surfaces under furniture (floor
under tables and chairs, seats under backrests), which reads like ambient occlusion at no cost per frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy.ndimage import gaussian_filter, map_coordinates

HEIGHT_VERTEX = """
#version 330
uniform mat4 ortho;
in vec3 in_pos;
void main() { gl_Position = ortho * vec4(in_pos, 1.0); }
"""
HEIGHT_FRAGMENT = """
#version 330
void main() {}
"""
MARGIN = 0.3  # metres around the floor's bounding box
TEXEL = 0.025  # metres per height-map texel
LEVELS = 24  # height levels of the occlusion volume
SOFTNESS = 0.05  # metres: Gaussian sigma of the shadow edge
BIAS = 0.03  # metres: a surface is not shadowed by itself


@dataclass(frozen=True)
class OcclusionVolume:
    """The baked occlusion volume and its placement in the world.

    Attributes:
        values: (LEVELS, rows, cols) float32, 0 (open) .. 1 (under furniture); rows follow y, cols x.
        rect: (x0, y0, x1, y1) world metres covered by the columns and rows (texel edges).
        top: height in metres covered by the levels (level coordinate = z / top).
    """

    values: NDArray[np.float32]
    rect: tuple[float, float, float, float]
    top: float

    def sample(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Occlusion (N,) at world ``points`` (N, 3), trilinear between texel centres, clamped at the edges.

        Same sampling as a clamped GL texture: texel i covers [i, i + 1) / size of the rect.
        """
        levels, rows, cols = self.values.shape
        x0, y0, x1, y1 = self.rect
        coords = np.stack(
            [
                np.clip(points[:, 2] / self.top, 0.0, 1.0) * levels - 0.5,
                (points[:, 1] - y0) / (y1 - y0) * rows - 0.5,
                (points[:, 0] - x0) / (x1 - x0) * cols - 0.5,
            ]
        )
        return map_coordinates(self.values, coords, order=1, mode="nearest")


def _ortho(x0: float, y0: float, x1: float, y1: float, top: float) -> NDArray[np.float64]:
    # x, y → [-1, 1]; z in [0, top] → depth [1, -1] so that the highest surface wins the depth test.
    return np.array(
        [
            [2 / (x1 - x0), 0, 0, -(x1 + x0) / (x1 - x0)],
            [0, 2 / (y1 - y0), 0, -(y1 + y0) / (y1 - y0)],
            [0, 0, -2 / top, 1],
            [0, 0, 0, 1],
        ]
    )


def top_heights(
    ctx: Any,
    positions: NDArray[np.float32],
    rect: tuple[float, float, float, float],
    top: float,
    size: tuple[int, int],
) -> NDArray[np.float32]:
    """Heights (rows = y, cols = x) in metres of the highest triangle over each texel (0 where none).

    ``positions`` (3N, 3) are the casters' triangle corners, world metres.
    """
    program = ctx.program(vertex_shader=HEIGHT_VERTEX, fragment_shader=HEIGHT_FRAGMENT)
    program["ortho"].write(_ortho(*rect, top).T.astype(np.float32).tobytes())
    texture = ctx.depth_texture(size)
    fbo = ctx.framebuffer(depth_attachment=texture)
    fbo.use()
    fbo.clear(depth=1.0)
    ctx.enable(ctx.DEPTH_TEST)
    ctx.depth_func = "<"
    if len(positions) > 0:
        buffer = ctx.buffer(np.ascontiguousarray(positions, dtype=np.float32).tobytes())
        vao = ctx.vertex_array(program, [(buffer, "3f", "in_pos")])
        vao.render()
        vao.release()
        buffer.release()
    depth = np.frombuffer(texture.read(), dtype=np.float32).reshape(size[1], size[0])
    for resource in (fbo, texture, program):
        resource.release()
    return (top * (1.0 - depth)).astype(np.float32)


def occlusion_levels(heights: NDArray[np.float32], top: float) -> NDArray[np.uint8]:
    """Return the occlusion volume (LEVELS, rows, cols), uint8 0..255, of a height map.

    Each value is the share of a soft neighbourhood covered by casters higher than its level (+ ``BIAS``).
    """
    levels = np.linspace(0.0, top, LEVELS)
    sigma = SOFTNESS / TEXEL
    volume = [
        gaussian_filter((heights > z + BIAS).astype(np.float32), sigma, mode="constant") for z in levels
    ]
    return np.clip(np.rint(np.stack(volume) * 255), 0, 255).astype(np.uint8)


def bake_occlusion(
    ctx: Any, positions: NDArray[np.float32], bounds: tuple[float, float, float, float], top: float
) -> OcclusionVolume:
    """Bake the occlusion volume of some casters over the floor ``bounds`` (x0, y0, x1, y1) up to ``top``.

    ``positions`` (3N, 3) are the casters' triangle corners (world metres); ``ctx`` is the moderngl context
    that draws the height map.
    """
    x0, y0, x1, y1 = bounds[0] - MARGIN, bounds[1] - MARGIN, bounds[2] + MARGIN, bounds[3] + MARGIN
    size = (int(np.ceil((x1 - x0) / TEXEL)), int(np.ceil((y1 - y0) / TEXEL)))
    heights = top_heights(ctx, positions, (x0, y0, x1, y1), top, size)
    volume = (occlusion_levels(heights, top) / np.float32(255)).astype(np.float32)
    return OcclusionVolume(volume, (x0, y0, x1, y1), top)
