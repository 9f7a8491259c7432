"""Files written for a rendered scene: video, frames.npz, meta-info, mesh, scene record; determinism; CLI."""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest
import trimesh
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scene import load_meta_info
from spatialbench.synth import (
    FrameSet,
    RenderConfig,
    RenderedScene,
    SceneConfig,
    generate_scene,
    render_scene,
)

TINY = RenderConfig(width=64, height=48, fps=8, max_seconds=2.0)


def test_video_matches_the_frame_annotations(rendered_bedroom: RenderedScene) -> None:
    frames = FrameSet.load(rendered_bedroom.folder / "frames.npz")
    with av.open(str(rendered_bedroom.video)) as container:
        stream = container.streams.video[0]
        decoded = [f.to_ndarray(format="rgb24") for f in container.decode(stream)]
        assert stream.codec_context.name == "h264"
        assert float(stream.average_rate) == 8.0
    assert len(decoded) == len(frames.timestamps) == frames.instance.shape[0] == frames.cam_to_world.shape[0]
    assert decoded[0].shape == (120, 160, 3)
    assert frames.instance.dtype == np.uint16 and frames.depth_mm.dtype == np.uint16
    assert np.allclose(np.diff(frames.timestamps), 1 / 8)


def test_scene_record_and_mesh(rendered_bedroom: RenderedScene) -> None:
    folder = rendered_bedroom.folder
    record = json.loads((folder / "scene.json").read_text())
    assert record["room_type"] == "bedroom" and record["seed"] == 7
    assert [r["instance_id"] for r in record["instances"]] == list(
        range(1, len(rendered_bedroom.scene.objects) + 1)
    )
    mesh = trimesh.load(folder / "mesh.glb")
    names = set(mesh.graph.nodes_geometry)
    assert "shell" in names and f"1_{rendered_bedroom.scene.objects[0].category}" in names
    assert len(names) == len(rendered_bedroom.scene.objects) + 1
    meta = load_meta_info(folder / "meta_info.json")[rendered_bedroom.scene.scene_id]
    assert meta.video_path == f"synthetic/{rendered_bedroom.scene.scene_id}.mp4"


def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    scene = generate_scene(SceneConfig(room_type="kitchen"), 3)
    outputs = [render_scene(scene, tmp_path / name, TINY) for name in ("a", "b")]
    for name in ("frames.npz", "meta_info.json", "scene.json", "freespace.npz"):
        assert (outputs[0].folder / name).read_bytes() == (outputs[1].folder / name).read_bytes(), name
    assert outputs[0].video.read_bytes() == outputs[1].video.read_bytes()


def test_cli_writes_a_vsibench_style_folder(tmp_path: Path) -> None:
    args = [
        "generate",
        "synthetic",
        "--out",
        str(tmp_path),
        "--scenes",
        "2",
        "--seed",
        "5",
        "--seconds",
        "1.5",
        "--width",
        "64",
        "--height",
        "48",
        "--fps",
        "8",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    scenes = load_meta_info(tmp_path / "meta_info" / "synthetic_meta_info.json")
    assert sorted(scenes) == ["synth_0005_000", "synth_0005_001"]
    for scene_id, scene in scenes.items():
        assert (tmp_path / scene.video_path).is_file()
        assert (tmp_path / "scenes" / scene_id / "frames.npz").is_file()
    rooms = {json.loads((tmp_path / "scenes" / s / "scene.json").read_text())["room_type"] for s in scenes}
    assert rooms == {"bedroom", "living room"}


def test_frameset_round_trip_is_exact(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    depth = rng.integers(0, 32768, size=(2, 3, 5)).astype(np.uint16)
    frames = FrameSet(
        depth.copy(), depth, np.eye(3), np.tile(np.eye(4), (2, 1, 1)), np.array([0.0, 0.5]), 2.0
    )
    frames.save(tmp_path / "frames.npz")
    loaded = FrameSet.load(tmp_path / "frames.npz")
    assert np.array_equal(loaded.depth_mm, depth) and loaded.depth_mm.dtype == np.uint16
    assert loaded.depth(1)[0, 0] == np.float32(depth[1, 0, 0] / 1000.0)
    too_far = FrameSet(depth, depth + 40000, np.eye(3), frames.cam_to_world, frames.timestamps, 2.0)
    with pytest.raises(ValueError, match="32.767 m"):
        too_far.save(tmp_path / "far.npz")


def test_rerun_removes_only_files_the_manifest_records(tmp_path: Path) -> None:
    from spatialbench.synth import generate_synthetic

    config = RenderConfig(width=32, height=24, fps=4, max_seconds=1.0)
    generate_synthetic(tmp_path, 2, 0, config)
    assert json.loads((tmp_path / "synth_files.json").read_text()) == {
        "scenes": ["synth_0000_000", "synth_0000_001"]
    }
    # a user's files: one named like the pipeline's own (another seed's video, never written here),
    # one inside a scene folder the re-run drops
    (tmp_path / "synthetic" / "synth_0001_000.mp4").write_bytes(b"copied from another run")
    (tmp_path / "scenes" / "synth_0001_000").mkdir()
    (tmp_path / "scenes" / "synth_0001_000" / "scene.json").write_text("{}")
    (tmp_path / "scenes" / "synth_0000_001" / "notes.txt").write_text("mine")
    rendered = generate_synthetic(tmp_path, 1, 0, config)
    assert rendered[0].reused
    videos = sorted(p.name for p in (tmp_path / "synthetic").iterdir())
    assert videos == ["synth_0000_000.mp4", "synth_0001_000.mp4"]
    assert (tmp_path / "synthetic" / "synth_0001_000.mp4").read_bytes() == b"copied from another run"
    assert (tmp_path / "scenes" / "synth_0001_000" / "scene.json").read_text() == "{}"
    assert [p.name for p in (tmp_path / "scenes" / "synth_0000_001").iterdir()] == ["notes.txt"]
    assert json.loads((tmp_path / "synth_files.json").read_text()) == {"scenes": ["synth_0000_000"]}


def test_an_interrupted_run_is_recorded_before_it_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import spatialbench.synth.pipeline as pipeline

    config = RenderConfig(width=32, height=24, fps=4, max_seconds=1.0)
    real = pipeline.begin_scene

    def interrupted(scene, out, *args):
        if scene.scene_id == "synth_0000_001":
            (out / "synthetic" / ".synth_0000_001.mp4.part").write_bytes(b"half a video")
            raise KeyboardInterrupt
        return real(scene, out, *args)

    monkeypatch.setattr(pipeline, "begin_scene", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pipeline.generate_synthetic(tmp_path, 2, 0, config)
    monkeypatch.undo()
    pipeline.generate_synthetic(tmp_path, 1, 0, config)
    assert sorted(p.name for p in (tmp_path / "synthetic").iterdir()) == ["synth_0000_000.mp4"]


def test_render_memory_does_not_grow_with_video_length(tmp_path: Path) -> None:
    # Masks and depth used to be kept as whole (T, H, W) arrays until the scene was written (1.6 GB peak
    # for the demo); now frames are deflated as they are rendered and only compressed bytes are kept.
    import tracemalloc

    from spatialbench.synth.renderer import Renderer

    scene = generate_scene(SceneConfig(room_type="bedroom", density="dense"), seed=7)
    peaks, frames = [], []
    with Renderer(320, 240) as renderer:
        for seconds in (5.0, 15.0):
            tracemalloc.start()
            config = RenderConfig(320, 240, 8, max_seconds=seconds)
            result = render_scene(scene, tmp_path / str(seconds), config, renderer)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            frames.append(len(result.visibility.timestamps))
    assert frames == [40, 120]
    whole_arrays = 120 * 240 * 320 * 2 * 2  # instance + depth, uint16: 35 MiB
    assert peaks[1] < 1.25 * peaks[0] and peaks[1] < whole_arrays / 2


def test_streamed_frames_npz_reads_back_exactly_and_frame_by_frame(tmp_path: Path) -> None:
    import zipfile

    from spatialbench.synth.export import FrameSetWriter, instance_frames

    rng = np.random.default_rng(5)
    instance = rng.integers(0, 40, (6, 12, 16)).astype(np.int32)
    depth = rng.integers(0, 32_767, (6, 12, 16)).astype(np.uint16)
    writer = FrameSetWriter(tmp_path / "frames.npz", (6, 12, 16))
    for i in range(6):
        writer.write(instance[i], depth[i])
    poses = np.tile(np.eye(4), (6, 1, 1))
    writer.close(np.eye(3), poses, np.arange(6) / 8, 8.0)
    loaded = FrameSet.load(tmp_path / "frames.npz")
    assert np.array_equal(loaded.instance, instance) and loaded.instance.dtype == np.uint16
    assert np.array_equal(loaded.depth_mm, depth) and loaded.fps == 8.0
    streamed = instance_frames(tmp_path / "frames.npz")
    assert all(np.array_equal(a, b) for a, b in zip(streamed, instance, strict=True))

    with zipfile.ZipFile(tmp_path / "frames.npz") as archive:
        assert archive.testzip() is None  # every CRC checks
        assert [i.filename for i in archive.infolist()][:2] == ["instance.npy", "depth_mm_dx.npy"]
    copy = tmp_path / "copy.npz"
    loaded.save(copy)
    assert copy.read_bytes() == (tmp_path / "frames.npz").read_bytes()


def test_a_failed_frame_write_leaves_no_video_or_partial_file(tmp_path: Path, monkeypatch) -> None:
    import spatialbench.synth.pipeline as pipeline

    monkeypatch.setattr(pipeline, "depth_to_mm", lambda depth: np.full(depth.shape, 40_000, np.uint16))
    scene = generate_scene(SceneConfig(room_type="office", density="sparse"), seed=3)
    with pytest.raises(ValueError, match="beyond 32.767 m"):
        render_scene(scene, tmp_path, RenderConfig(width=32, height=24, fps=4, max_seconds=1.0))
    assert list((tmp_path / "synthetic").iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "scenes" / scene.scene_id).iterdir()) == []
