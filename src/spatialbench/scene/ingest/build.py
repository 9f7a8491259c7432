"""Shared parts of the scan readers: files, the PLY mesh, and assembling the meta-info ``Scene``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError
from spatialbench.scene.box import OrientedBox
from spatialbench.scene.ingest.fit import DEFAULT_ALPHA, room_geometry
from spatialbench.scene.ingest.labels import LabelMap
from spatialbench.scene.model import ObjectInstance, Scene


class IngestError(SpatialBenchError, ValueError):
    """A scan folder or file that cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class IngestOptions:
    """How scans are read.

    Attributes:
        alpha: circumradius limit (metres) of the floor's alpha shape (room size, App. B.1).
        labels: extra raw label -> category entries, on top of the dataset's table.
    """

    alpha: float = DEFAULT_ALPHA
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class IngestedScene:
    """One scan read into the meta-info schema.

    Attributes:
        scene: the Scene (``scene_to_meta`` gives its official entry).
        dropped: raw label -> instances dropped because the label has no VSI-Bench category.
        skipped: instances with no points (annotation names segments the mesh lacks), by raw label.
    """

    scene: Scene
    dropped: dict[str, int]
    skipped: dict[str, int]


@dataclass(frozen=True)
class Mesh:
    """A scan mesh: (V, 3) vertices in metres, (F, 3) faces."""

    vertices: NDArray[np.float64]
    faces: NDArray[np.int64]


def read_json(path: Path) -> Any:
    """Parse a JSON file; a missing or invalid file is an IngestError naming it (and the line)."""
    if not path.is_file():
        raise IngestError(f"{path}: missing")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise IngestError(f"{path}: invalid JSON (line {err.lineno}): {err.msg}") from None


def read_mesh(path: Path) -> Mesh:
    """Read a PLY mesh in file vertex order (no merging: segment files index the vertices as stored).

    Raises:
        IngestError: missing file, not a triangle mesh, no faces, or a vertex not finite (NaN, inf).
    """
    if not path.is_file():
        raise IngestError(f"{path}: missing")
    try:
        mesh = trimesh.load(path, process=False, force="mesh")
    except (ValueError, KeyError, IndexError, OSError) as err:
        raise IngestError(f"{path}: not a readable PLY mesh ({err})") from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise IngestError(f"{path}: expected a triangle mesh with faces")
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(vertices).all(axis=1))
    if bad.size:  # a NaN vertex would make its object's box, and every distance to it, NaN
        raise IngestError(
            f"{path}: vertex {int(bad[0])} is not finite ({vertices[bad[0]].tolist()}); "
            f"{bad.size} such vertices"
        )
    return Mesh(vertices, np.asarray(mesh.faces, dtype=np.int64))


def assemble(
    scene_id: str,
    dataset: str,
    mesh: Mesh,
    boxes: Iterable[tuple[str, OrientedBox]],
    options: IngestOptions,
    where: Path,
) -> Scene:
    """Build the Scene: categories in order of first appearance, instances in annotation order.

    Raises:
        IngestError: no floor in the mesh (names ``where``).
    """
    try:
        room_size, centre = room_geometry(mesh.vertices, mesh.faces, options.alpha)
    except ValueError as err:
        raise IngestError(f"{where}: room size: {err}") from None
    grouped: dict[str, list[ObjectInstance]] = {}
    for category, box in boxes:
        items = grouped.setdefault(category, [])
        items.append(ObjectInstance(category=category, index=len(items), box=box))
    return Scene(
        scene_id=scene_id,
        dataset=dataset,
        room_size=room_size,
        room_center=centre,
        objects={c: tuple(items) for c, items in grouped.items()},
        counts={c: len(items) for c, items in grouped.items()},
        video_path=f"{dataset}/{scene_id}.mp4",
    )


def finish(scene: Scene, labels: LabelMap, skipped: dict[str, int]) -> IngestedScene:
    """Wrap a Scene with the label map's dropped counts and the skipped instances."""
    return IngestedScene(scene, dict(sorted(labels.dropped.items())), dict(sorted(skipped.items())))
