"""Time to encode one 640×480 frame as PNG and as JPEG, the way a run encodes each distinct frame (issue 25).

Renders ``--frames`` (30) distinct views of the dense office walkthrough (the demo's kind of frame, from
``walk_scene.py``), then encodes each once with ``spatialbench.models.images.encode_image`` (digest plus
encoding; each frame is new to its cache, so nothing is served from it), PNG (imagecodecs, "Up" filter,
zlib level 1) and JPEG quality 90, one thread. Prints per format the median and the range of wall ms per
frame, the CPU ms per frame and the mean size, with the 1-minute load average before and after.

Usage: .venv/bin/python bench/encode_speed.py [--frames 30]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from walk_scene import add_scene_arguments, scene_and_poses

from spatialbench.models.images import ImageFormat, encode_image
from spatialbench.synth import Renderer
from spatialbench.synth.camera import intrinsics


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_scene_arguments(parser)
    parser.set_defaults(frames=30)
    args = parser.parse_args()
    scene, poses = scene_and_poses(args)
    with Renderer(640, 480) as renderer:
        renderer.load(scene)
        frames = [renderer.render(intrinsics(640, 480), pose).color.copy() for pose in poses]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {len(frames)} frames 640x480")
    for fmt in (ImageFormat.PNG, ImageFormat.JPEG):
        walls, sizes = [], []
        cpu = time.process_time()
        for frame in frames:
            start = time.perf_counter()
            sizes.append(len(encode_image(frame, fmt, 90)))
            walls.append(time.perf_counter() - start)
        cpu_ms = (time.process_time() - cpu) / len(frames) * 1000
        ms = np.array(walls) * 1000
        print(f"{fmt.value}: median {np.median(ms):.1f} ms/frame wall (range {ms.min():.1f}–{ms.max():.1f}), "
              f"{cpu_ms:.1f} ms CPU, {np.mean(sizes) / 1e3:.0f} kB")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
