"""The scene and camera poses the renderer's speed scripts share (render_speed.py, render_vs_bare.py)."""

from __future__ import annotations

import argparse

import numpy as np

from spatialbench.synth import SceneConfig, free_space_map, generate_scene
from spatialbench.synth.camera import PathConfig, walkthrough
from spatialbench.synth.pipeline import entrance
from spatialbench.synth.scene import SynthScene


def add_scene_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--frames``, ``--room``, ``--density`` and ``--seed`` (defaults: 120 poses of a dense office)."""
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--room", default="office")
    parser.add_argument("--density", default="dense")
    parser.add_argument("--seed", type=int, default=0)


def scene_and_poses(args: argparse.Namespace) -> tuple[SynthScene, np.ndarray]:
    """Generate the scene of ``args`` and ``args.frames`` camera-to-world poses (4, 4) along its walk."""
    scene = generate_scene(SceneConfig(room_type=args.room, density=args.density), args.seed)
    space = free_space_map(scene)
    poses = walkthrough(space, entrance(scene, space), np.random.default_rng(args.seed), PathConfig())
    return scene, poses[np.linspace(0, len(poses) - 1, args.frames).astype(int)]
