"""Soft contact shadows from a top-down height map (a vertical directional shadow map).

Rendered once per scene: an orthographic view from above stores, per floor cell, the top height of the
objects over it (room shell and ceiling lights excluded). The main shader darkens any surface lying below
that height (floor under tables and chairs, seats under backrests), averaging several taps for soft edges.
This reads like ambient occlusion under furniture at almost no cost per frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

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
MARGIN = 0.5  # metres around the floor's bounding box


@dataclass(frozen=True)
class HeightMap:
    """The height texture and what the main shader needs to sample it.

    Attributes:
        texture: depth texture; stored value d means height ``top * (1 - d)``.
        rect: (x0, y0, 1 / width, 1 / depth) mapping world xy to texture coordinates.
        top: the height mapped to depth 0, metres.
    """

    texture: Any
    rect: tuple[float, float, float, float]
    top: float


def _ortho(x0: float, y0: float, x1: float, y1: float, top: float) -> np.ndarray:
    # x, y → [-1, 1]; z in [0, top] → depth [1, -1] so that the highest surface wins the depth test.
    return np.array(
        [
            [2 / (x1 - x0), 0, 0, -(x1 + x0) / (x1 - x0)],
            [0, 2 / (y1 - y0), 0, -(y1 + y0) / (y1 - y0)],
            [0, 0, -2 / top, 1],
            [0, 0, 0, 1],
        ]
    )


def render_height_map(
    ctx: Any,
    buffer: Any,
    first: int,
    count: int,
    bounds: tuple[float, float, float, float],
    top: float,
    size: int = 1024,
) -> HeightMap:
    """Render vertices ``first``..``first + count`` of ``buffer`` (rows of 11 float32, position first)
    from above into a ``size``² depth texture covering ``bounds`` (x0, y0, x1, y1) plus a margin."""
    x0, y0, x1, y1 = bounds[0] - MARGIN, bounds[1] - MARGIN, bounds[2] + MARGIN, bounds[3] + MARGIN
    program = ctx.program(vertex_shader=HEIGHT_VERTEX, fragment_shader=HEIGHT_FRAGMENT)
    program["ortho"].write(_ortho(x0, y0, x1, y1, top).T.astype(np.float32).tobytes())
    texture = ctx.depth_texture((size, size))
    texture.compare_func = ""  # sample raw depth values, not comparisons
    fbo = ctx.framebuffer(depth_attachment=texture)
    fbo.use()
    fbo.clear(depth=1.0)
    ctx.enable(ctx.DEPTH_TEST)
    ctx.depth_func = "<"
    if count > 0:
        vao = ctx.vertex_array(program, [(buffer, "3f 32x", "in_pos")])
        vao.render(first=first, vertices=count)
        vao.release()
    fbo.release()
    program.release()
    return HeightMap(texture, (x0, y0, 1 / (x1 - x0), 1 / (y1 - y0)), top)
