"""Writers and readers of a rendered scene's files (layout documented in ``synth.pipeline``).

``frames.npz`` keys: ``instance`` (T, H, W) uint16 instance ids (0 = room shell), ``depth_mm_dx``
(T, H, W) int16 depth along the optical axis in millimetres stored as differences along each row (the
first column holds the value itself; ``np.cumsum(depth_mm_dx, axis=2)`` gives uint16 millimetres, 0 = none;
this halves the file), ``K`` (3, 3) intrinsics, ``cam_to_world`` (T, 4, 4) OpenCV-convention camera-to-world
poses (z-up world), ``timestamps`` (T,) seconds, ``fps``. Read it with ``FrameSet.load``.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import av
import numpy as np
import trimesh
from numpy.typing import NDArray

from spatialbench.synth.npz import NpzWriter
from spatialbench.synth.parts import Material
from spatialbench.synth.scene import SynthScene
from spatialbench.synth.structure import shell_parts


@dataclass(frozen=True)
class FrameSet:
    """Per-frame ground truth of one walkthrough (see module docstring for shapes and units)."""

    instance: NDArray[np.uint16]
    depth_mm: NDArray[np.uint16]
    K: NDArray[np.float64]
    cam_to_world: NDArray[np.float64]
    timestamps: NDArray[np.float64]
    fps: float

    def depth(self, index: int) -> NDArray[np.float32]:
        """Depth of frame ``index`` in metres, (H, W) float32 (0 where nothing was hit)."""
        return self.depth_mm[index].astype(np.float32) / 1000.0

    def save(self, path: Path) -> None:
        """Write ``frames.npz`` (deflate-compressed, readable with ``np.load``)."""
        writer = FrameSetWriter(path, self.instance.shape)
        for instance, depth_mm in zip(self.instance, self.depth_mm, strict=True):
            writer.write(instance, depth_mm)
        writer.close(self.K, self.cam_to_world, self.timestamps, self.fps)

    @classmethod
    def load(cls, path: Path) -> FrameSet:
        """Read a ``frames.npz`` written by ``save``."""
        with np.load(path) as data:
            return cls(
                data["instance"],
                np.cumsum(data["depth_mm_dx"], axis=2, dtype=np.int32).astype(np.uint16),
                data["K"],
                data["cam_to_world"],
                data["timestamps"],
                float(data["fps"]),
            )


class FrameSetWriter:
    """Writes ``frames.npz`` frame by frame (same file as :meth:`FrameSet.save`), compressing as it goes.

    Only the compressed bytes are kept (about 1/10 of the frames), so memory does not grow with the
    video's length as whole (T, H, W) arrays do. Not thread-safe: feed it from one thread (a worker
    thread may do it; zlib releases the GIL).

    Args:
        path: the ``frames.npz`` to write (through ``.frames.npz.part``).
        shape: (T, H, W) of the walkthrough.
    """

    def __init__(self, path: Path, shape: tuple[int, ...]) -> None:
        self._npz = NpzWriter(path)
        self._instance = self._npz.stream("instance", tuple(shape), np.uint16)
        self._depth = self._npz.stream("depth_mm_dx", tuple(shape), np.int16)

    def write(self, instance: NDArray[np.integer], depth_mm: NDArray[np.uint16]) -> None:
        """Append one frame: (H, W) instance ids (< 65536) and uint16 depth in millimetres.

        Raises:
            ValueError: depth beyond 32.767 m (int16 row differences cannot hold it), a wrong shape.
        """
        if depth_mm.size and int(depth_mm.max()) > np.iinfo(np.int16).max:
            raise ValueError("depth beyond 32.767 m cannot be stored as int16 row differences")
        self._instance.write(instance)
        self._depth.write(np.diff(depth_mm.astype(np.int32), axis=-1, prepend=0))

    def close(
        self, K: NDArray[np.float64], cam_to_world: NDArray[np.float64], timestamps: NDArray[np.float64],
        fps: float,
    ) -> None:
        """Add the per-walkthrough arrays and write the file (renamed into place when complete)."""
        for name, array in (("K", K), ("cam_to_world", cam_to_world), ("timestamps", timestamps)):
            self._npz.add(name, array)
        self._npz.add("fps", np.asarray(fps))
        self._npz.close()


def instance_frames(path: Path) -> Iterator[NDArray[np.uint16]]:
    """Yield the (H, W) instance masks of a ``frames.npz`` one at a time (without loading them all)."""
    with zipfile.ZipFile(path) as archive, archive.open("instance.npy") as member:
        npy = np.lib.format
        version = npy.read_magic(member)
        read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, _, dtype = read_header(member)
        frame_bytes = int(np.prod(shape[1:])) * dtype.itemsize
        for _ in range(shape[0]):
            yield np.frombuffer(member.read(frame_bytes), dtype=dtype).reshape(shape[1:])


def depth_to_mm(depth: NDArray[np.float32]) -> NDArray[np.uint16]:
    """Metres → uint16 millimetres (rounded; saturates at 65.535 m)."""
    return np.clip(np.rint(depth * 1000.0), 0, 65535).astype(np.uint16)


class VideoWriter:
    """h264 mp4 writer (PyAV, yuv420p); feed (H, W, 3) uint8 frames in order.

    Frames go to ``.<name>.part`` beside ``path``, renamed to ``path`` by :meth:`close`, so an interrupted
    render never leaves a shorter video that decodes as valid; :meth:`abort` removes the temporary.
    """

    def __init__(self, path: Path, width: int, height: int, fps: int, crf: int = 23) -> None:
        self.path, self.partial = path, path.with_name(f".{path.name}.part")
        self.container = av.open(str(self.partial), mode="w", format="mp4")
        self.stream = self.container.add_stream("libx264", rate=fps)
        self.stream.width, self.stream.height, self.stream.pix_fmt = width, height, "yuv420p"
        # mbtree off: with it, x264 gave different bytes for identical input now and then (seen in 1 of ~10
        # encodes of the same frames); without it the output is reproducible.
        self.stream.options = {"crf": str(crf), "preset": "veryfast", "x264-params": "mbtree=0"}
        self.stream.codec_context.time_base = Fraction(1, fps)
        self.frames, self.fps = 0, fps

    def write(self, rgb: NDArray[np.uint8]) -> None:
        """Encode one frame."""
        frame = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(format="yuv420p")
        frame.pts, frame.time_base = (
            self.frames,
            Fraction(1, self.fps),
        )  # explicit timestamps, frame i at i/fps
        self.frames += 1
        for packet in self.stream.encode(frame):
            self.container.mux(packet)

    def close(self) -> None:
        """Flush the encoder, close the file and move it to its final name."""
        for packet in self.stream.encode():
            self.container.mux(packet)
        self.container.close()
        self.partial.replace(self.path)

    def abort(self) -> None:
        """Close and delete the unfinished file."""
        try:
            self.container.close()
        finally:
            self.partial.unlink(missing_ok=True)


def scene_mesh(scene: SynthScene) -> trimesh.Scene:
    """Return the scene as a trimesh Scene: node ``shell`` plus one node ``<id>_<category>`` per object."""
    out = trimesh.Scene()
    palette = scene.palette
    shell = [
        p
        for p in shell_parts(
            scene.plan, tuple(palette["wall"]), tuple(palette["floor"]), Material[palette["floor_material"]]
        )
    ]
    out.add_geometry(_coloured(shell), node_name="shell", geom_name="shell")
    for obj in scene.objects:
        name = f"{obj.instance_id}_{obj.category.replace(' ', '_')}"
        out.add_geometry(
            _coloured(list(obj.asset.parts)), node_name=name, geom_name=name, transform=obj.pose()
        )
    return out


def _coloured(parts: list[Any]) -> trimesh.Trimesh:
    meshes = []
    for part in parts:
        mesh = part.mesh.copy()
        mesh.visual = trimesh.visual.ColorVisuals(
            mesh, face_colors=np.append(np.array(part.color) * 255, 255)
        )
        meshes.append(mesh)
    return cast(trimesh.Trimesh, trimesh.util.concatenate(meshes))


def scene_record(scene: SynthScene, config: dict[str, Any]) -> dict[str, Any]:
    """``scene.json``: how the scene was made (seed, types, plan) and its instance table."""
    plan = scene.plan
    return {
        "scene_id": scene.scene_id,
        "seed": scene.seed,
        "room_type": scene.room_type,
        "room_types": list(scene.room_types),
        "density": scene.density,
        "plan": plan.kind.value,
        "room_polygons": [np.round(np.asarray(r.exterior.coords), 6).tolist() for r in plan.rooms],
        "ceiling_height": round(plan.height, 6),
        "wall_thickness": plan.wall_thickness,
        "render": config,
        "instances": scene.instances(),
    }


def write_json(path: Path, payload: Any) -> None:
    """Write JSON with stable key order and a trailing newline (byte-identical for equal input)."""
    path.write_text(json.dumps(payload, indent=1) + "\n")
