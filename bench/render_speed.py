"""Render speed of the synthetic-scene renderer at 640×480 (issue 5: moderngl + EGL, no GPU needed).

Prints frames/s for (1) rendering alone (colour + instance ids + depth read back) and (2) the whole
walkthrough pipeline of one scene (render, h264 encode, masks/depth compression, meta-info, mesh).

    .venv/bin/python bench/render_speed.py [--frames 120] [--room office] [--density dense]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from walk_scene import add_scene_arguments, scene_and_poses

from spatialbench.synth import (
    RenderConfig,
    Renderer,
    render_scene,
)
from spatialbench.synth.camera import intrinsics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_scene_arguments(parser)
    args = parser.parse_args()

    scene, poses = scene_and_poses(args)
    K = intrinsics(640, 480)
    with Renderer(640, 480) as renderer:
        start, cpu = time.perf_counter(), time.process_time()
        renderer.load(scene)
        load_s, load_cpu = time.perf_counter() - start, time.process_time() - cpu
        renderer.render(K, poses[0])  # warm-up (shader compilation)
        start, cpu = time.perf_counter(), time.process_time()
        for pose in poses:
            renderer.render(K, pose)
        render_s, render_cpu = time.perf_counter() - start, time.process_time() - cpu
        drawn = (len(renderer.vertices), len(renderer.indices) // 3)
    triangles = sum(len(p.mesh.faces) for o in scene.objects for p in o.asset.parts)
    print(f"scene {scene.scene_id}: {len(scene.objects)} objects, {triangles} object triangles as modelled")
    print(f"drawn: {drawn[0]} vertices, {drawn[1]} triangles (shell and objects, re-tessellated)")
    print(
        f"load (height map, lighting bake, tessellation, upload): {load_s * 1000:.0f} ms wall, "
        f"{load_cpu * 1000:.0f} ms CPU"
    )
    print(
        f"render only, 640x480 colour+ids+depth: {args.frames / render_s:.1f} frames/s "
        f"({render_s / args.frames * 1000:.1f} ms/frame wall, {render_cpu / args.frames * 1000:.1f} ms CPU)"
    )

    seconds = args.frames / 24
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        result = render_scene(scene, Path(tmp), RenderConfig(max_seconds=seconds))
        total_s = time.perf_counter() - start
        frames = len(result.frames.timestamps)
        sizes = {p.name: p.stat().st_size for p in result.folder.iterdir()}
        video_mb = result.video.stat().st_size / 1e6
    print(
        f"full pipeline (render + h264 + npz + glb + meta-info): {frames / total_s:.1f} frames/s "
        f"({frames} frames in {total_s:.1f} s)"
    )
    print(
        f"files: video {video_mb:.2f} MB, frames.npz {sizes['frames.npz'] / 1e6:.2f} MB "
        f"({sizes['frames.npz'] / frames / 1e3:.0f} kB/frame)"
    )


if __name__ == "__main__":
    main()
