"""Renderer, saved poses and written meta-info agree: masked depth back-projects into each object's box."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spatialbench.synth import (
    FrameSet,
    RenderConfig,
    RenderedScene,
    SceneConfig,
    generate_scene,
    render_scene,
)

TOLERANCE = 0.01  # metres: 1 mm depth quantisation plus float error, with margin


def back_project(frames: FrameSet, index: int) -> tuple[np.ndarray, np.ndarray]:
    """World points (H, W, 3) of frame ``index`` and its instance ids, from the saved files only."""
    depth = frames.depth(index)
    height, width = depth.shape
    cols, rows = np.meshgrid(np.arange(width), np.arange(height))
    rays = np.stack([cols, rows, np.ones_like(cols)], axis=-1) @ np.linalg.inv(frames.K).T
    camera = rays * depth[..., None]
    pose = frames.cam_to_world[index]
    return camera @ pose[:3, :3].T + pose[:3, 3], frames.instance[index]


def test_masked_depth_falls_inside_meta_info_boxes(rendered_bedroom: RenderedScene) -> None:
    folder = rendered_bedroom.folder
    frames = FrameSet.load(folder / "frames.npz")
    entry = json.loads((folder / "meta_info.json").read_text())[rendered_bedroom.scene.scene_id]
    instances = json.loads((folder / "scene.json").read_text())["instances"]
    checked = set()
    for index in range(0, len(frames.timestamps), 6):
        points, ids = back_project(frames, index)
        for row in instances:
            mask = ids == row["instance_id"]
            if mask.sum() < 5:
                continue
            box = entry["object_bbox"][row["category"]][row["index"]]
            axes = np.array(box["normalizedAxes"]).reshape(3, 3)  # rows are the box axes
            local = (points[mask] - np.array(box["centroid"])) @ axes.T
            outside = np.abs(local) - np.array(box["axesLengths"]) / 2
            assert outside.max() < TOLERANCE, (row, index, outside.max())
            checked.add(row["instance_id"])
    assert len(checked) >= 8  # the walkthrough sees most of the room's objects


def test_shell_pixels_have_id_zero_and_positive_depth(rendered_bedroom: RenderedScene) -> None:
    frames = rendered_bedroom.frames
    assert (frames.depth_mm > 0).all()  # a closed room: every pixel hits a surface
    assert (frames.instance == 0).any() and (frames.instance > 0).any()


@pytest.mark.slow
def test_full_size_walkthrough_is_consistent(tmp_path: Path) -> None:
    scene = generate_scene(SceneConfig(room_type="office", density="dense", plan="two_rooms"), 1)
    result = render_scene(scene, tmp_path, RenderConfig(max_seconds=4.0))
    assert result.frames.instance.shape[1:] == (480, 640)
    meta = result.meta_info
    for index in (0, len(result.frames.timestamps) - 1):
        points, ids = back_project(result.frames, index)
        for row in scene.instances():
            mask = ids == row["instance_id"]
            if mask.any():
                box = meta["object_bbox"][row["category"]][row["index"]]
                local = (points[mask] - box["centroid"]) @ np.array(box["normalizedAxes"]).reshape(3, 3).T
                assert (np.abs(local) - np.array(box["axesLengths"]) / 2).max() < 0.01
