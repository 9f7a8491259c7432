"""The background writer process (issue 25): same bytes as writing in-process, errors, aborts, a lost child.

The demo's files are compared with digests frozen from main's code before the writer process
(02a52b7: encoding and deflating on two threads of the rendering process), on the machine and
software they were computed with (Mesa llvmpipe, PyAV; not the core count any more: x264's threads are
pinned, tests/synth/test_video_threads.py); elsewhere that one test is skipped and says why.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
from pathlib import Path

import numpy as np
import pytest

from spatialbench.synth.export import FrameSet
from spatialbench.synth.streams import FrameSetWriter, VideoWriter
from spatialbench.synth.writer_jobs import SceneAborted
from spatialbench.synth.writer_process import SceneStream, SceneWriter, Slot, WriterProcessError

W, H, FPS = 64, 48, 8


def frames(n: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``n`` frames: smooth moving colour (so x264 has real work), ids in blocks, depth rising per row."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    out = []
    for k in range(n):
        rgb = np.stack([(xx * 4 + k * 3) % 256, (yy * 5) % 256, (xx + yy + k) % 256], -1).astype(np.uint8)
        ids = ((xx + k) // 16 + 4 * (yy // 12)).astype(np.int32)
        depth_m = (1.0 + 0.01 * yy + 0.002 * xx + rng.uniform(0, 0.001, (H, W))).astype(np.float32)
        id_depth = np.stack([ids, depth_m.view(np.int32)], -1)
        out.append((rgb, id_depth, np.rint(depth_m * 1000).astype(np.uint16)))
    return out


def arrays(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    return np.eye(3), np.tile(np.eye(4), (n, 1, 1)), np.arange(n) / FPS, float(FPS)


def write_in_process(folder: Path, data: list) -> None:  # type: ignore[type-arg]
    """What the pipeline did before issue 25: both writers fed in the rendering process."""
    folder.mkdir(parents=True)
    video = VideoWriter(folder / "v.mp4", W, H, FPS)
    npz = FrameSetWriter(folder / "frames.npz", (len(data), H, W))
    for rgb, id_depth, depth_mm in data:
        video.write(rgb)
        npz.write(id_depth[..., 0], depth_mm)
    video.close()
    npz.close(*arrays(len(data)))


def fill(slot: Slot, rgb: np.ndarray, id_depth: np.ndarray, depth_mm: np.ndarray) -> None:
    """What the pipeline writes into a slot: the read-back, the ids as uint16, the depth in mm."""
    slot.color[...], slot.id_depth[...], slot.depth_mm[...] = rgb, id_depth, depth_mm
    np.copyto(slot.ids, id_depth[..., 0], casting="unsafe")


def stream_scene(writer: SceneWriter, folder: Path, data: list, total: int | None = None) -> SceneStream:  # type: ignore[type-arg]
    """Begin a scene of ``total`` frames (default: all of ``data``) and queue ``data`` into it."""
    folder.mkdir(parents=True)
    stream = writer.begin(folder / "v.mp4", folder / "frames.npz", total or len(data), FPS, 23)
    for rgb, id_depth, depth_mm in data:
        slot = stream.slot()
        fill(slot, rgb, id_depth, depth_mm)
        stream.push(slot)
    return stream


def test_the_process_writes_the_same_bytes_as_writing_in_process(tmp_path: Path) -> None:
    scenes = [frames(20, seed) for seed in (1, 2, 3)]
    for k, data in enumerate(scenes):
        write_in_process(tmp_path / "direct" / str(k), data)
    # 4 slots for 20 frames a scene: every slot is reused, and scene k+1 is queued before k is written
    with SceneWriter(W, H, slots=4) as writer:
        streams = [stream_scene(writer, tmp_path / "process" / str(k), d) for k, d in enumerate(scenes)]
        for future in [stream.finish(*arrays(20)) for stream in streams]:
            future.result(timeout=60)
    for k in range(3):
        for name in ("v.mp4", "frames.npz"):
            direct = (tmp_path / "direct" / str(k) / name).read_bytes()
            assert (tmp_path / "process" / str(k) / name).read_bytes() == direct, (k, name)
    loaded = FrameSet.load(tmp_path / "process" / "2" / "frames.npz")
    assert np.array_equal(loaded.instance[7], scenes[2][7][1][..., 0])
    assert np.array_equal(loaded.depth_mm[19], scenes[2][19][2])


def test_the_video_writer_converts_each_frame_as_a_fresh_pyav_frame_does(tmp_path: Path) -> None:
    """One reused rgb24 frame and converter (issue 25) give the yuv420p of a fresh frame per image.

    22 px wide: PyAV pads each rgb24 row of 66 bytes to 96, so the reused frame's padding is exercised;
    crf 0 is lossless, so the decoded planes are those the encoder was given.
    """
    import av

    rng = np.random.default_rng(5)
    images = [rng.integers(0, 256, (16, 22, 3), dtype=np.uint8) for _ in range(4)]
    video = VideoWriter(tmp_path / "v.mp4", 22, 16, FPS, crf=0)
    for image in images:
        video.write(image)
    video.close()
    with av.open(str(tmp_path / "v.mp4")) as container:
        decoded = [frame.to_ndarray() for frame in container.decode(video=0)]
    fresh = [av.VideoFrame.from_ndarray(i).reformat(format="yuv420p").to_ndarray() for i in images]
    assert len(decoded) == 4 and all(np.array_equal(d, f) for d, f in zip(decoded, fresh, strict=True))


def test_the_video_writer_refuses_a_frame_of_another_shape(tmp_path: Path) -> None:
    video = VideoWriter(tmp_path / "v.mp4", W, H, FPS)
    expected = r"frame 0: uint8 \(1, 64, 3\), the video's frames are uint8 \(48, 64, 3\)"
    with pytest.raises(ValueError, match=expected):
        video.write(np.zeros((1, W, 3), np.uint8))  # would broadcast into the frame
    video.abort()


def test_a_writer_error_reaches_the_caller_and_leaves_no_files(tmp_path: Path) -> None:
    data = frames(12)
    data[3] = (data[3][0], data[3][1], np.full((H, W), 40_000, np.uint16))  # beyond int16 row differences
    (tmp_path / "s").mkdir()
    with SceneWriter(W, H, slots=2) as writer:
        stream = writer.begin(tmp_path / "s" / "v.mp4", tmp_path / "s" / "frames.npz", 12, FPS, 23)
        queued = 0
        with pytest.raises(ValueError, match="beyond 32.767 m"):
            for rgb, id_depth, depth_mm in data:
                slot = stream.slot()
                fill(slot, rgb, id_depth, depth_mm)
                stream.push(slot)
                queued += 1
        assert 4 <= queued < 12  # reported while the scene is still being queued (2 slots)
        stream.abort()  # what the pipeline does on any error
        assert isinstance(writer.done[stream.token].exception(), ValueError)
        assert writer.process is not None and writer.process.poll() is None  # still serving
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == []  # no video, no .part, no npz


def test_abort_removes_the_partial_video_and_the_next_scene_is_written(tmp_path: Path) -> None:
    with SceneWriter(W, H, slots=3) as writer:
        stream = stream_scene(writer, tmp_path / "a", frames(5), total=10)
        future = writer.done[stream.token]
        stream.abort()
        assert isinstance(future.exception(), SceneAborted)
        stream_scene(writer, tmp_path / "b", frames(6)).finish(*arrays(6)).result(timeout=60)
    assert list((tmp_path / "a").iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["frames.npz", "v.mp4"]


def test_a_writer_started_early_is_the_one_its_scenes_use(tmp_path: Path) -> None:
    with SceneWriter(W, H, slots=2) as writer:
        assert writer.process is None  # nothing runs until asked
        writer.start()
        assert writer.process is not None
        pid = writer.process.pid
        writer.start()  # a second start (begin's own) starts nothing more
        stream_scene(writer, tmp_path / "s", frames(3)).finish(*arrays(3)).result(timeout=60)
        assert writer.process.pid == pid and writer.scenes == 1
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["frames.npz", "v.mp4"]


def test_a_lost_writer_process_is_an_error_not_a_hang(tmp_path: Path) -> None:
    with SceneWriter(W, H, slots=2) as writer:
        (tmp_path / "s").mkdir()
        stream = writer.begin(tmp_path / "s" / "v.mp4", tmp_path / "s" / "frames.npz", 50, FPS, 23)
        assert writer.process is not None
        os.kill(writer.process.pid, signal.SIGKILL)
        with pytest.raises(WriterProcessError, match=r"background writer process exited \(exit status -9\)"):
            for _ in range(50):
                stream.push(stream.slot())
        with pytest.raises(WriterProcessError, match="exit status -9"):
            stream.finish(*arrays(50))
        assert isinstance(writer.done[stream.token].exception(), WriterProcessError)


def _digest(path: Path) -> str:
    """sha256 of a file (16 hex digits); of summary.json without its timings, scene.json without ``code``
    (the digest of the synth sources, which names the code that rendered by design)."""
    data = path.read_bytes()
    if path.name in ("summary.json", "scene.json"):
        payload = json.loads(data)
        payload.pop("timings_s" if path.name == "summary.json" else "code")
        data = json.dumps(payload, sort_keys=True).encode()
    return hashlib.sha256(data).hexdigest()[:16]


#: where MAIN_DIGESTS were computed (bench/demo_time.py's machine): GL renderer and version, PyAV
MAIN_MACHINE = ("llvmpipe (LLVM 15.0.6, 256 bits)", "4.5 (Core Profile) Mesa 22.3.6", "18.1.0")
#: every file of run_demo(out, scenes=2, seed=0, seconds=2.0) from main 02a52b7's code (48 frames a scene)
MAIN_DIGESTS = {
    "benchmark/README.md": "f2fb4742898e10a0",
    "benchmark/manifest.json": "b9687f0684ee4a29",
    "benchmark/meta_info/synthetic_meta_info.json": "1a6c8591807d12b6",
    "benchmark/scenes/synth_0000_000/frames.npz": "942cb40a2d8d11a0",
    "benchmark/scenes/synth_0000_000/freespace.npz": "c76358c47e732cbc",
    "benchmark/scenes/synth_0000_000/mesh.glb": "10898a2b89f18f23",
    "benchmark/scenes/synth_0000_000/meta_info.json": "5ea2dfc6ac6b37eb",
    "benchmark/scenes/synth_0000_000/scene.json": "6ac13f217a56b4ab",
    "benchmark/scenes/synth_0000_001/frames.npz": "2f569b2e96972239",
    "benchmark/scenes/synth_0000_001/freespace.npz": "7801a1c60e025937",
    "benchmark/scenes/synth_0000_001/mesh.glb": "37b7501153f072d3",
    "benchmark/scenes/synth_0000_001/meta_info.json": "d03152e3ab27d9c1",
    "benchmark/scenes/synth_0000_001/scene.json": "18a0d166cc61fa60",
    "benchmark/synth_files.json": "e751d5373f28b705",
    "benchmark/synthetic/synth_0000_000.mp4": "4fd61ae0f62bbb59",
    "benchmark/synthetic/synth_0000_001.mp4": "d155085572eb24de",
    "benchmark/synthetic_files.txt": "3796dcb634591741",
    "benchmark/test.jsonl": "4807505715f576c1",
    "benchmark/test.parquet": "728bf1722daf40a1",
    "chance_baselines.md": "ad3871e189d6b2aa",
    "contact_sheets/synth_0000_000.jpg": "b6ef1db68f2398a9",
    "contact_sheets/synth_0000_001.jpg": "a5995405a79e9836",
    "demo_files.txt": "df738dbd5423fafd",
    "routes.jsonl": "e3b0c44298fc1c14",
    "summary.json": "9e4bea0372e37b09",
}


def _machine() -> tuple[str, str, str]:
    import av
    import moderngl

    ctx = moderngl.create_standalone_context(backend="egl")
    try:
        return ctx.info["GL_RENDERER"], ctx.info["GL_VERSION"], av.__version__
    finally:
        ctx.release()


@pytest.mark.slow
def test_the_demo_writes_the_bytes_main_wrote(tmp_path: Path) -> None:
    from spatialbench.demo import run_demo

    if _machine() != MAIN_MACHINE:
        pytest.skip(f"digests are from {MAIN_MACHINE}; this machine is {_machine()}")
    out = tmp_path / "demo"
    run_demo(out, scenes=2, seed=0, seconds=2.0, log=lambda _: None)
    written = {p.relative_to(out).as_posix(): _digest(p) for p in sorted(out.rglob("*")) if p.is_file()}
    assert written == MAIN_DIGESTS
