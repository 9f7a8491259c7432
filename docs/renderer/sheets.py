"""Contact sheets of the synthetic renderer, before and after a change, side by side (issue 16).

Renders six walkthrough frames of the demo's first three scenes (``scene_configs(3, 0)``: bedroom,
living room, kitchen; the same camera paths as ``render_scene``) with whatever ``spatialbench`` is
importable, and saves them as ``.npz``; ``combine`` puts two such sets side by side, one PNG per room.

    PYTHONPATH=/tmp/before/src .venv/bin/python docs/renderer/sheets.py render /tmp/sheets/before
    .venv/bin/python docs/renderer/sheets.py render /tmp/sheets/after
    .venv/bin/python docs/renderer/sheets.py combine /tmp/sheets/before /tmp/sheets/after docs/renderer
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

FRAMES, COLUMNS, THUMB = 6, 3, (256, 192)


def render(out: Path) -> None:
    """Render the frames of each demo scene into ``out/<room>.npz`` (key ``color``, (6, 480, 640, 3))."""
    from spatialbench.synth import Renderer, free_space_map, generate_scene
    from spatialbench.synth.camera import PathConfig, intrinsics, walkthrough
    from spatialbench.synth.pipeline import entrance, scene_configs, view_targets

    out.mkdir(parents=True, exist_ok=True)
    with Renderer(640, 480) as renderer:
        for config, seed in scene_configs(3, 0):
            scene = generate_scene(config, seed)
            space = free_space_map(scene)
            rng = np.random.default_rng([scene.seed, 1])
            path = PathConfig(fps=24, max_seconds=20.0, eye_height=float(rng.uniform(1.45, 1.65)))
            objects = np.array([o.position[:2] for o in scene.objects if o.category != "ceiling light"])
            poses = walkthrough(space, entrance(scene, space), rng, path, view_targets(scene), objects)
            picks = poses[np.linspace(len(poses) // 8, len(poses) - 1, FRAMES).astype(int)]
            renderer.load(scene)
            colors = [renderer.render(intrinsics(640, 480), pose).color for pose in picks]
            np.savez_compressed(out / f"{config.room_type.replace(' ', '_')}.npz", color=np.stack(colors))


def _sheet(colors: np.ndarray) -> Image.Image:
    rows = -(-len(colors) // COLUMNS)
    sheet = Image.new("RGB", (THUMB[0] * COLUMNS, THUMB[1] * rows), "white")
    for index, color in enumerate(colors):
        thumb = Image.fromarray(color).resize(THUMB, Image.Resampling.LANCZOS)
        sheet.paste(thumb, ((index % COLUMNS) * THUMB[0], (index // COLUMNS) * THUMB[1]))
    return sheet


def combine(before: Path, after: Path, out: Path) -> None:
    """One PNG per room in ``out``: the ``before`` frames left, the ``after`` frames right."""
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(before.glob("*.npz")):
        left, right = (_sheet(np.load(folder / path.name)["color"]) for folder in (before, after))
        gap, label = 8, 18
        both = Image.new("RGB", (left.width * 2 + gap, left.height + label), "white")
        both.paste(left, (0, label))
        both.paste(right, (left.width + gap, label))
        draw = ImageDraw.Draw(both)
        draw.text((4, 3), f"{path.stem}: before", fill="black")
        draw.text((left.width + gap + 4, 3), "after", fill="black")
        # a dithered 256-colour palette keeps each file under 300 KB
        palette = both.quantize(256, Image.Quantize.MEDIANCUT)
        both.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG).save(
            out / f"{path.stem}.png", optimize=True
        )


if __name__ == "__main__":
    if sys.argv[1] == "render":
        render(Path(sys.argv[2]))
    else:
        combine(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
