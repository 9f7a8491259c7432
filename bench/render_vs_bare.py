"""Renderer cost per frame beside a bare pass of the same geometry (issue 16 goal: at most 2x).

One scene, the same camera poses and the same GL context: (1) ``Renderer.render`` (colour + instance ids
+ depth, read back as arrays) and (2) a bare pass, the scene's vertex buffer drawn with a shader that
only transforms positions and writes one constant colour, one RGBA8 target read back. Both are timed as
wall and process CPU time per frame (Mesa llvmpipe renders on the CPU with its own threads, so CPU time
is the steadier figure on a loaded machine).

    .venv/bin/python bench/render_vs_bare.py [--frames 120] [--room office] [--density dense]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from spatialbench.synth import Renderer, SceneConfig, free_space_map, generate_scene
from spatialbench.synth.camera import PathConfig, intrinsics, walkthrough
from spatialbench.synth.pipeline import entrance
from spatialbench.synth.renderer import projection
from spatialbench.synth.scene import SynthScene

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


def bare_pass(renderer: Renderer, scene: SynthScene, K: np.ndarray) -> Callable[[np.ndarray], object]:
    """A pass over the same vertices (``scene_vertices``) in the renderer's context, constant colour."""
    from spatialbench.synth.renderer import GL_FROM_CV, scene_vertices

    ctx = renderer.ctx
    program = ctx.program(vertex_shader=BARE_VERTEX, fragment_shader=BARE_FRAGMENT)
    data, _, _ = scene_vertices(scene)
    vao = ctx.vertex_array(program, [(ctx.buffer(data.tobytes()), "3f 32x", "in_pos")])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--room", default="office")
    parser.add_argument("--density", default="dense")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    scene = generate_scene(SceneConfig(room_type=args.room, density=args.density), args.seed)
    space = free_space_map(scene)
    poses = walkthrough(space, entrance(scene, space), np.random.default_rng(args.seed), PathConfig())
    poses = poses[np.linspace(0, len(poses) - 1, args.frames).astype(int)]
    K = intrinsics(640, 480)
    with Renderer(640, 480) as renderer:
        renderer.load(scene)
        bare = bare_pass(renderer, scene, K)
        full: list[tuple[float, float]] = []
        plain: list[tuple[float, float]] = []
        for _ in range(args.repeats):  # alternated, best of each
            full.append(timed(lambda pose: renderer.render(K, pose), poses))
            plain.append(timed(bare, poses))
    (f_wall, f_cpu), (b_wall, b_cpu) = min(full, key=lambda t: t[1]), min(plain, key=lambda t: t[1])
    print(f"scene {scene.scene_id} ({len(scene.objects)} objects), 640x480, {args.frames} poses")
    print(f"renderer (colour + ids + depth): {f_wall:6.1f} ms/frame wall, {f_cpu:6.1f} ms CPU")
    print(f"bare pass (one colour target):   {b_wall:6.1f} ms/frame wall, {b_cpu:6.1f} ms CPU")
    ratio = f_cpu / b_cpu
    print(f"ratio (CPU): {ratio:.1f}x, wall {f_wall / b_wall:.1f}x "
          f"({'meets' if ratio <= GOAL else 'ABOVE'} the {GOAL:.0f}x goal)")


if __name__ == "__main__":
    main()
