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
from pathlib import Path
from typing import Any, cast

import numpy as np
import trimesh
from numpy.typing import NDArray

from spatialbench.synth.parts import Material
from spatialbench.synth.scene import SynthScene
from spatialbench.synth.streams import FrameSetWriter
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
    mm = np.multiply(depth, 1000.0)  # float32 for float32 depth, as before; then rounded in place
    np.rint(mm, out=mm)
    return np.clip(mm, 0, 65535, out=mm).astype(np.uint16)


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
