"""Renderer cost per frame beside a bare pass of the same geometry (issue 16 goal: at most 2x).

One scene, the same camera poses and the same GL context: (1) ``Renderer.render`` (colour + instance ids
+ depth, read back as arrays) and (2) a bare pass, the renderer's own vertex and index buffers drawn
with a shader that only transforms positions and writes one constant colour, one RGBA8 target read
back. (3) is the same bare pass over the triangles as modelled (shell and assets before the renderer
re-tessellates flat faces for its per-vertex lighting), so the ratio against the geometry the renderer
drew before issue 16 is printed too. All are timed as wall and process CPU time per frame (Mesa llvmpipe
renders on the CPU with its own threads, so CPU time is the steadier figure on a loaded machine).

    .venv/bin/python bench/render_vs_bare.py [--frames 120] [--room office] [--density dense] [--size 640x480]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from walk_scene import add_scene_arguments, scene_and_poses

from spatialbench.synth import Renderer
from spatialbench.synth.camera import intrinsics
from spatialbench.synth.parts import Material
from spatialbench.synth.renderer import GL_FROM_CV, projection
from spatialbench.synth.scene import SynthScene
from spatialbench.synth.structure import shell_parts

GOAL = 2.0
BARE_VERTEX = """
#version 330
uniform mat4 mvp;
in vec3 in_pos;
void main() { gl_Position = mvp * vec4(in_pos, 1.0); }
"""
BARE_FRAGMENT = """
#version 330
out vec4 color;
void main() { color = vec4(0.5, 0.5, 0.5, 1.0); }
"""


def timed(step: Callable[[np.ndarray], object], poses: np.ndarray) -> tuple[float, float]:
    """(wall ms, CPU ms) per frame of ``step(pose)`` over ``poses`` after one warm-up call."""
    step(poses[0])
    wall, cpu = time.perf_counter(), time.process_time()
    for pose in poses:
        step(pose)
    n = len(poses)
    return (time.perf_counter() - wall) / n * 1000, (time.process_time() - cpu) / n * 1000


def bare_pass(
    renderer: Renderer, K: np.ndarray, vertices: np.ndarray, indices: np.ndarray | None
) -> Callable[[np.ndarray], object]:
    """A constant-colour pass over ``vertices`` (N, C) float32 (position first), optionally indexed."""
    ctx = renderer.ctx
    program = ctx.program(vertex_shader=BARE_VERTEX, fragment_shader=BARE_FRAGMENT)
    layout = "3f" + (f" {(vertices.shape[1] - 3) * 4}x" if vertices.shape[1] > 3 else "")
    index: Any = ctx.buffer(indices.tobytes()) if indices is not None else None
    vao = ctx.vertex_array(
        program,
        [(ctx.buffer(vertices.tobytes()), layout, "in_pos")],
        index_buffer=index,
        index_element_size=4,
    )
    target = ctx.texture((renderer.width, renderer.height), 4)
    fbo = ctx.framebuffer([target], ctx.depth_renderbuffer((renderer.width, renderer.height)))

    def step(pose: np.ndarray) -> object:
        mvp = projection(K, renderer.width, renderer.height) @ GL_FROM_CV @ np.linalg.inv(pose)
        program["mvp"].write(mvp.T.astype(np.float32).tobytes())
        fbo.use()
        fbo.clear(0.0, 0.0, 0.0, 1.0, depth=1.0)
        ctx.enable(ctx.DEPTH_TEST)
        vao.render()
        return np.frombuffer(fbo.read(components=3), dtype=np.uint8)

    return step


def authored_triangles(scene: SynthScene) -> np.ndarray:
    """Corners (3T, 3) float32 of the scene's triangles as modelled (shell and assets, world metres)."""
    palette = scene.palette
    shell = shell_parts(
        scene.plan, tuple(palette["wall"]), tuple(palette["floor"]), Material[palette["floor_material"]]
    )
    groups = [(np.eye(4), part) for part in shell]
    groups += [(obj.pose(), part) for obj in scene.objects for part in obj.asset.parts]
    corners = [
        part.mesh.vertices[part.mesh.faces].reshape(-1, 3) @ p[:3, :3].T + p[:3, 3] for p, part in groups
    ]
    return np.concatenate(corners).astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_scene_arguments(parser)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--size", default="640x480", help="WIDTHxHEIGHT (ReMindView rigs: 1024x768)")
    args = parser.parse_args()
    scene, poses = scene_and_poses(args)
    width, height = (int(v) for v in args.size.split("x"))
    K = intrinsics(width, height)
    with Renderer(width, height) as renderer:
        renderer.load(scene)
        authored = authored_triangles(scene)
        steps = {
            "renderer (colour + ids + depth)": lambda pose: renderer.render(K, pose),
            "bare pass, same buffers": bare_pass(renderer, K, renderer.vertices, renderer.indices),
            "bare pass, modelled triangles": bare_pass(renderer, K, authored, None),
        }
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in steps}
        for _ in range(args.repeats):  # alternated, best of each
            for name, step in steps.items():
                runs[name].append(timed(step, poses))
    print(
        f"scene {scene.scene_id} ({len(scene.objects)} objects), {args.size}, {args.frames} poses; "
        f"renderer {len(renderer.vertices)} vertices / {len(renderer.indices) // 3} triangles, "
        f"modelled {len(authored) // 3} triangles"
    )
    best = {name: min(times, key=lambda t: t[1]) for name, times in runs.items()}
    for name, (wall, cpu) in best.items():
        spread = max(t[1] for t in runs[name]) - cpu
        print(
            f"{name:32s} {wall:6.1f} ms/frame wall, {cpu:6.1f} ms CPU "
            f"(+{spread:.1f} over {args.repeats} runs)"
        )
    full = best["renderer (colour + ids + depth)"]
    for name in list(best)[1:]:
        ratio = full[1] / best[name][1]
        print(
            f"ratio to {name}: {ratio:.2f}x CPU, {full[0] / best[name][0]:.2f}x wall "
            f"({'meets' if ratio <= GOAL else 'ABOVE'} the {GOAL:.0f}x goal)"
        )


if __name__ == "__main__":
    main()
