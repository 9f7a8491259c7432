"""Generate and render synthetic scenes into a folder.

Folder layout written by ``generate_synthetic(out, ...)`` (all paths relative to ``out``)::

    meta_info/synthetic_meta_info.json     {scene_id: entry} in the official VSI-Bench meta-info schema
    synthetic/<scene_id>.mp4               h264 walkthrough, 640×480, 24 fps (VSI-Bench <dataset>/<scene>.mp4)
    scenes/<scene_id>/scene.json           seed, room types, density, plan, render settings, instance table
    scenes/<scene_id>/meta_info.json       {scene_id: entry}, this scene alone, ALL instances (same schema)
    scenes/<scene_id>/frames.npz           per-frame instance ids, depth (mm), K, cam_to_world, timestamps
    scenes/<scene_id>/freespace.npz        FreeSpaceMap (free / walkable grids, origin, resolution)
    scenes/<scene_id>/mesh.glb             the scene mesh, one node per instance named <id>_<category>
    synth_files.json                       {"scenes": [scene_id, ...]}: scenes whose files this module wrote

Frame ``i`` of the mp4 is frame ``i`` of ``frames.npz``. The instance table maps each mask id to its
category and to its index in ``object_bbox[category]`` of the scene's own ``meta_info.json``.

The combined ``meta_info/synthetic_meta_info.json`` (what the question generators read) lists only the
instances the video shows (:mod:`spatialbench.synth.visibility`: at least 1/1536 of the frame in some
frame); its ``instance_ids`` field maps each box to its mask id. Unseen instances stay in ``scene.json``,
``mesh.glb`` and the scene's own ``meta_info.json``.

Files appear complete or not at all (videos and npz are written to a temporary name and renamed;
``scene.json`` is written last), so an interrupted run leaves no truncated video. A re-run reuses a scene
whose ``scene.json`` (seed, render settings, instances, digest of this package's code) and camera poses
match, and removes the files of earlier runs' other scenes (only those its manifest
``synth_files.json`` records as written by this module; see ``remove_stale``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import zipfile
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import ExitStack, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.synth.camera import PathConfig, intrinsics, walkthrough
from spatialbench.synth.export import (
    FrameSet,
    depth_to_mm,
    instance_frames,
    scene_mesh,
    scene_record,
    write_json,
)
from spatialbench.synth.freespace import FreeSpaceMap, free_space_map
from spatialbench.synth.generator import Density, SceneConfig, generate_scene
from spatialbench.synth.plan import PlanKind
from spatialbench.synth.renderer import Renderer
from spatialbench.synth.scene import SYNTHETIC_DATASET, SynthScene
from spatialbench.synth.visibility import Visibility
from spatialbench.synth.writer_process import SceneStream, SceneWriter

ROOM_ORDER = ("bedroom", "living room", "kitchen", "office", "dining room", "bathroom")


@dataclass(frozen=True)
class RenderConfig:
    """Video and camera settings (defaults: VSI-Bench-like 640×480 at 24 fps, at most 30 s)."""

    width: int = 640
    height: int = 480
    fps: int = 24
    horizontal_fov_deg: float = 66.0
    max_seconds: float = 30.0
    crf: int = 23

    def __post_init__(self) -> None:
        """Raise ValueError for sizes h264 (yuv420p) cannot encode, or a frame rate / length that is not."""
        if self.width < 2 or self.height < 2 or self.width % 2 or self.height % 2:
            raise ValueError(f"frame size {self.width}x{self.height}: both sides must be even (h264)")
        if self.fps < 1 or not math.isfinite(self.max_seconds) or self.max_seconds <= 0:
            raise ValueError(f"fps {self.fps}, max_seconds {self.max_seconds}: need fps >= 1, finite s > 0")


@dataclass(frozen=True)
class RenderedScene:
    """Paths and in-memory results of one rendered scene."""

    scene: SynthScene
    video: Path
    folder: Path
    free_space: FreeSpaceMap
    meta_info: dict[str, Any]
    visibility: Visibility
    reused: bool = False

    @property
    def frames(self) -> FrameSet:
        """Per-frame ground truth, read from ``frames.npz`` (not kept in memory between scenes)."""
        return FrameSet.load(self.folder / "frames.npz")

    @property
    def seen_meta_info(self) -> dict[str, Any]:
        """The meta-info entry of the instances the video shows (``meta_info`` lists all of them)."""
        return self.scene.meta_info(self.meta_info["video_path"], self.visibility.visible_ids())

    @property
    def unseen(self) -> int:
        """Number of instances left out of ``seen_meta_info`` because the video never shows them."""
        return len(self.scene.objects) - len(self.visibility.visible_ids())


def entrance(scene: SynthScene, space: FreeSpaceMap) -> np.ndarray:
    """Return a standing point 0.9 m inside the first door (the room centre when there is no door)."""
    for obj in scene.objects:
        if obj.category == "door":
            return obj.position[:2] + obj.pose()[:2, 1] * 0.9
    return np.array(scene.plan.footprint.centroid.coords[0])


def view_targets(scene: SynthScene) -> np.ndarray:
    """Objects worth looking at, (N, 3): x, y and weight (footprint area, at least 0.05 m²)."""
    rows = [
        (*obj.position[:2], max(float(obj.footprint().area), 0.05))
        for obj in scene.objects
        if obj.category not in ("door", "window", "ceiling light")
    ]
    return np.array(rows, dtype=float).reshape(-1, 3)


@functools.cache
def synth_code_digest() -> str:
    """Digest of the ``spatialbench.synth`` source files (16 hex digits).

    Recorded in ``scene.json`` so that a re-run never reuses a video rendered by other renderer, shader,
    asset or camera code.
    """
    root = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def render_scene(
    scene: SynthScene,
    out: Path,
    config: RenderConfig = RenderConfig(),
    renderer: Renderer | None = None,
    writer: SceneWriter | None = None,
) -> RenderedScene:
    """Render ``scene``'s walkthrough into ``out`` (layout in the module docstring); deterministic per seed.

    Returns the RenderedScene; its ``meta_info`` is this scene's entry (all instances, as in the scene
    folder), ``seen_meta_info`` the entry of the visible ones (not yet written to the combined file).
    A complete earlier render of the same scene, settings and camera path in ``out`` is reused. The video
    and ``frames.npz`` are written by ``writer``'s background process (one of its own when none is given).
    """
    with ExitStack() as own:
        writer = writer or own.enter_context(SceneWriter(config.width, config.height))
        return begin_scene(scene, out, config, renderer, writer).finish()


@dataclass
class PendingScene:
    """A scene whose frames are all rendered and queued; :meth:`finish` waits for its files."""

    rendered: RenderedScene
    record: dict[str, Any]
    written: Future[None] | None  # the video and frames.npz (None: an earlier render reused)

    def finish(self) -> RenderedScene:
        """Wait for the video and ``frames.npz``, then write ``scene.json`` (the scene is complete)."""
        if self.written is not None:
            folder = self.rendered.folder
            try:
                self.written.result()
            except BaseException:  # the scene's other files go too (written while the writer worked)
                for name in ("freespace.npz", "mesh.glb", "meta_info.json"):
                    (folder / name).unlink(missing_ok=True)
                raise
            write_json(folder / ".scene.json.part", self.record)  # last: marks the scene complete
            (folder / ".scene.json.part").replace(folder / "scene.json")
        return self.rendered


def begin_scene(
    scene: SynthScene, out: Path, config: RenderConfig, renderer: Renderer | None, writer: SceneWriter
) -> PendingScene:
    """Render ``scene`` (see :func:`render_scene`) and return before its video and npz are written."""
    space = free_space_map(scene)
    rng = np.random.default_rng([scene.seed, 1])
    path = PathConfig(
        fps=config.fps, max_seconds=config.max_seconds, eye_height=float(rng.uniform(1.45, 1.65))
    )
    objects = np.array([o.position[:2] for o in scene.objects if o.category != "ceiling light"])
    poses = walkthrough(space, entrance(scene, space), rng, path, view_targets(scene), objects)
    folder = out / "scenes" / scene.scene_id
    folder.mkdir(parents=True, exist_ok=True)
    video = out / SYNTHETIC_DATASET / f"{scene.scene_id}.mp4"
    video.parent.mkdir(parents=True, exist_ok=True)
    record = {**scene_record(scene, asdict(config)), "code": synth_code_digest()}
    meta = scene.meta_info(f"{SYNTHETIC_DATASET}/{scene.scene_id}.mp4")
    n_ids = max((o.instance_id for o in scene.objects), default=0) + 1
    timestamps = _earlier_render(folder, video, record, poses)
    if timestamps is not None:  # the masks are read back one frame at a time
        visibility = Visibility.from_masks(instance_frames(folder / "frames.npz"), timestamps, n_ids)
        return PendingScene(RenderedScene(scene, video, folder, space, meta, visibility, True), record, None)
    with ExitStack() as own:
        renderer = renderer or own.enter_context(Renderer(config.width, config.height))
        writer.start()  # its imports run on the other core while the scene's lighting is baked
        renderer.load(scene)
        stream = writer.begin(video, folder / "frames.npz", len(poses), config.fps, config.crf)
        visibility, written = _render_frames(renderer, poses, stream, config, n_ids)
    space.save(folder / "freespace.npz")  # while the writer process finishes the video
    scene_mesh(scene).export(folder / "mesh.glb")
    write_json(folder / "meta_info.json", {scene.scene_id: meta})
    return PendingScene(RenderedScene(scene, video, folder, space, meta, visibility), record, written)


def _earlier_render(
    folder: Path, video: Path, record: dict[str, Any], poses: np.ndarray
) -> NDArray[np.float64] | None:
    """Return the frame times of a complete earlier render of the same scene record and poses, else None."""
    names = ("scene.json", "frames.npz", "freespace.npz", "mesh.glb", "meta_info.json")
    if not video.is_file() or not all((folder / name).is_file() for name in names):
        return None
    try:
        if json.loads((folder / "scene.json").read_text()) != json.loads(json.dumps(record)):
            return None
        with np.load(folder / "frames.npz") as data:  # reads only the members named
            earlier, timestamps = data["cam_to_world"], data["timestamps"]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None
    if earlier.shape != poses.shape or not np.allclose(earlier, poses, atol=1e-9):
        return None
    return np.asarray(timestamps, dtype=np.float64)


def _render_frames(
    renderer: Renderer, poses: NDArray[Any], stream: SceneStream, config: RenderConfig, n_ids: int
) -> tuple[Visibility, Future[None]]:
    """Render every pose into the writer's slots; return the visibility and the future of the two files.

    Each frame is read back straight into a free slot of the ring the writer process shares; its
    instance masks are counted here while the process encodes and deflates (:mod:`.writer_process`).
    On any error or Ctrl-C the scene is aborted (no video or npz, no ``.part`` file) before it propagates.
    """
    K = intrinsics(config.width, config.height, config.horizontal_fov_deg)
    timestamps = np.arange(len(poses)) / config.fps

    def rendered() -> Iterator[NDArray[np.uint16]]:
        for pose in poses:
            slot = stream.slot()
            frame = renderer.render(K, pose, into=(slot.color, slot.id_depth))
            # the ids as frames.npz stores them, made once for both the counting here and the deflater
            np.copyto(slot.ids, frame.instance, casting="unsafe")
            slot.depth_mm[...] = depth_to_mm(frame.depth)
            stream.push(slot)
            yield slot.ids

    try:
        visibility = Visibility.from_masks(rendered(), timestamps, n_ids)
        return visibility, stream.finish(K, poses, timestamps, float(config.fps))
    except BaseException:
        stream.abort()
        raise


def scene_configs(count: int, seed: int) -> list[tuple[SceneConfig, int]]:
    """``count`` (config, scene seed) pairs cycling through room types, both densities and plan shapes."""
    rng = np.random.default_rng(seed)
    configs = []
    for index in range(count):
        room_type = ROOM_ORDER[index % len(ROOM_ORDER)]
        density = Density.DENSE if (index // len(ROOM_ORDER) + index) % 2 else Density.SPARSE
        plan = PlanKind(rng.choice([k.value for k in PlanKind], p=[0.6, 0.25, 0.15]))
        if room_type == "bathroom":
            plan = PlanKind.RECTANGLE
        second = ROOM_ORDER[int(rng.integers(len(ROOM_ORDER) - 1))] if plan is PlanKind.TWO_ROOMS else None
        configs.append(
            (
                SceneConfig(room_type=room_type, density=density, plan=plan, second_room_type=second),
                int(rng.integers(2**31)),
            )
        )
    return configs


def generate_synthetic(
    out: Path, scenes: int = 3, seed: int = 0, config: RenderConfig = RenderConfig(), progress: Any = None
) -> list[RenderedScene]:
    """Generate and render ``scenes`` scenes into ``out`` and write the combined meta-info file.

    ``progress`` is an optional callable ``f(done, total, scene_id)``. The scenes an earlier run wrote
    (recorded in ``synth_files.json``) that this run does not produce are removed (``remove_stale``).
    """
    out.mkdir(parents=True, exist_ok=True)
    plan = [(c, s, i) for (c, s), i in zip(scene_configs(scenes, seed), scene_ids(scenes, seed), strict=True)]
    record_written(out, recorded_scenes(out) | {scene_id for *_, scene_id in plan})  # before any file
    results: list[RenderedScene] = []

    def finished(pending: PendingScene) -> None:
        results.append(pending.finish())
        if progress is not None:
            progress(len(results), scenes, results[-1].scene.scene_id)

    size = (config.width, config.height)
    with Renderer(*size) as renderer, SceneWriter(*size) as writer:
        pending: PendingScene | None = None
        try:
            for scene_config, scene_seed, scene_id in plan:
                scene = generate_scene(scene_config, scene_seed, scene_id=scene_id)
                current = begin_scene(scene, out, config, renderer, writer)  # the previous scene's
                if pending is not None:  # files were written meanwhile
                    finished(pending)
                pending = current
        except BaseException:
            if pending is not None:  # a scene whose frames were all rendered is kept (Ctrl-C, error)
                with suppress(Exception):
                    finished(pending)
            raise
        if pending is not None:
            finished(pending)
    remove_stale(out, {r.scene.scene_id for r in results})
    (out / "meta_info").mkdir(exist_ok=True)
    write_json(
        out / "meta_info" / f"{SYNTHETIC_DATASET}_meta_info.json",
        {r.scene.scene_id: r.seen_meta_info for r in results},
    )
    return results


#: the scene ids whose files this module wrote into a folder (``{"scenes": [...]}``)
WRITTEN = Path("synth_files.json")
#: the combined meta-info file, relative to the folder (module docstring)
META_INFO = f"meta_info/{SYNTHETIC_DATASET}_meta_info.json"


def scene_ids(scenes: int, seed: int) -> list[str]:
    """Return the ids of a run's ``scenes`` scenes from root ``seed`` (``synth_0000_000``, ...), in order."""
    return [f"synth_{seed:04d}_{i:03d}" for i in range(scenes)]


def scene_files(scene_id: str) -> list[str]:
    """Return every file (relative posix path, temporaries too) this module writes for ``scene_id``."""
    video = f"{SYNTHETIC_DATASET}/{scene_id}.mp4"
    return [
        video,
        f"{SYNTHETIC_DATASET}/.{scene_id}.mp4.part",
        *(f"scenes/{scene_id}/{name}" for name in sorted(SCENE_FILES)),
    ]


def recorded_scenes(out: Path) -> set[str]:
    """Scene ids recorded in ``out/synth_files.json`` (none when absent or unreadable)."""
    try:
        ids = json.loads((out / WRITTEN).read_text(encoding="utf-8")).get("scenes", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {i for i in ids if isinstance(i, str) and i == Path(i).name and i not in ("", ".", "..")}


def record_written(out: Path, scene_ids: set[str]) -> None:
    """Write ``scene_ids`` to ``out/synth_files.json`` (through a renamed temporary)."""
    path = out / WRITTEN
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.part")
    write_json(partial, {"scenes": sorted(scene_ids)})
    partial.replace(path)


def remove_stale(out: Path, kept: set[str]) -> list[Path]:
    """Remove the files of recorded scenes other than ``kept``; record ``kept`` only.

    Only what the manifest (``synth_files.json``, written before a run renders anything) says this
    module wrote is touched: ``synthetic/<id>.mp4`` and its ``.<id>.mp4.part`` temporary, and the scene
    files of ``scenes/<id>/`` (the folder goes once empty). Any other file, whatever its name (a user's
    ``synth_0001_000.mp4``, notes inside a scene folder), stays. Returns the removed paths.
    """
    removed = []
    for scene_id in sorted(recorded_scenes(out) - kept):
        folder = out / "scenes" / scene_id
        for path in (out / name for name in scene_files(scene_id)):
            if path.is_file():
                path.unlink()
                removed.append(path)
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            removed.append(folder)
    record_written(out, kept)
    return removed


SCENE_FILES = {
    name
    for base in ("scene.json", "meta_info.json", "frames.npz", "freespace.npz", "mesh.glb")
    for name in (base, f".{base}.part")
}
