"""ScanNet v2 and ScanNet++ scan folders → meta-info scenes (segment groups, App. B.1).

ScanNet v2 (``scans/<scene>/``): ``<scene>_vh_clean_2.ply`` (the annotation mesh),
``<scene>_vh_clean_2.0.010000.segs.json`` (``segIndices``), ``<scene>.aggregation.json`` (``segGroups``)
and, when present, ``<scene>.txt`` whose ``axisAlignment = m00 m01 ... m33`` (row-major 4×4) turns the mesh
into ScanNet's axis-aligned frame before anything is measured.

ScanNet++ (``data/<scene>/scans/``): ``mesh_aligned_0.05.ply``, ``segments.json`` (``segIndices``),
``segments_anno.json`` (``segGroups``); the mesh is already aligned and z-up.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from spatialbench.scene.ingest.build import (
    IngestedScene,
    IngestError,
    IngestOptions,
    Mesh,
    assemble,
    finish,
    read_json,
    read_mesh,
)
from spatialbench.scene.ingest.labels import LabelMap
from spatialbench.scene.ingest.segments import group_boxes, seg_indices


def _axis_alignment(path: Path) -> NDArray[np.float64] | None:
    """Return the 4×4 ``axisAlignment`` of a ScanNet ``<scene>.txt`` (None when absent).

    Raises:
        IngestError: not 16 numbers, or one of them not finite (the line named).
    """
    if not path.is_file():
        return None
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        key, _, value = line.partition("=")
        if key.strip() == "axisAlignment":
            try:
                matrix = np.asarray([float(v) for v in value.split()], dtype=np.float64).reshape(4, 4)
            except ValueError:
                raise IngestError(f"{path}:{number}: axisAlignment: expected 16 numbers") from None
            if not np.isfinite(matrix).all():  # float() takes "nan" and "inf": every box would be NaN
                raise IngestError(
                    f"{path}:{number}: axisAlignment: expected 16 finite numbers, not NaN or inf"
                )
            return matrix
    return None


def _read(
    scene_id: str, dataset: str, files: tuple[Path, Path, Path], options: IngestOptions, align: Path | None
) -> IngestedScene:
    mesh_file, segs_file, groups_file = files
    mesh = read_mesh(mesh_file)
    matrix = _axis_alignment(align) if align is not None else None
    if matrix is not None:
        moved = np.c_[mesh.vertices, np.ones(len(mesh.vertices))] @ matrix.T
        mesh = Mesh(moved[:, :3], mesh.faces)
    ids = seg_indices(read_json(segs_file), mesh, segs_file)
    labels = LabelMap.for_dataset(dataset, options.labels)
    boxes, skipped = group_boxes(read_json(groups_file), ids, mesh, labels, groups_file)
    return finish(assemble(scene_id, dataset, mesh, boxes, options, mesh_file), labels, skipped)


def read_scannet(folder: Path, options: IngestOptions) -> IngestedScene:
    """Read one ScanNet v2 scan folder (named after its scene, e.g. ``scene0000_00``).

    Raises:
        IngestError: a missing or malformed file (named), or no floor in the mesh.
    """
    sid = folder.name
    files = (
        folder / f"{sid}_vh_clean_2.ply",
        folder / f"{sid}_vh_clean_2.0.010000.segs.json",
        folder / f"{sid}.aggregation.json",
    )
    return _read(sid, "scannet", files, options, folder / f"{sid}.txt")


def read_scannetpp(folder: Path, options: IngestOptions) -> IngestedScene:
    """Read one ScanNet++ scene folder (``<scene>/`` holding ``scans/``).

    Raises:
        IngestError: a missing or malformed file (named), or no floor in the mesh.
    """
    scans = folder / "scans"
    files = (scans / "mesh_aligned_0.05.ply", scans / "segments.json", scans / "segments_anno.json")
    return _read(folder.name, "scannetpp", files, options, None)
