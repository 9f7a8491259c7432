"""ARKitScenes 3DOD folders → meta-info scenes.

Layout (``3dod/{Training,Validation}/<video_id>/``): ``<video_id>_3dod_annotation.json`` and
``<video_id>_3dod_mesh.ply``. Each entry of the annotation's ``data`` list has a ``label`` and
``segments.obbAligned`` with ``centroid``, ``axesLengths`` and ``normalizedAxes`` (9 numbers, rows = box
axes, the convention the VSI-Bench meta-info copies; metres, the mesh's z-up frame). Boxes are taken as
annotated; the mesh gives the room size (floor alpha shape) and centre.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialbench.scene.box import OrientedBox
from spatialbench.scene.ingest.build import (
    IngestedScene,
    IngestError,
    IngestOptions,
    assemble,
    finish,
    read_json,
    read_mesh,
)
from spatialbench.scene.ingest.labels import LabelMap
from spatialbench.scene.metainfo import MetaInfoError, box_from_meta


def _boxes(data: Any, labels: LabelMap, path: Path) -> list[tuple[str, OrientedBox]]:
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise IngestError(f"{path}: expected an object with a 'data' list")
    boxes = []
    for i, entry in enumerate(entries):
        where = f"{path}: data[{i}]"
        label = entry.get("label") if isinstance(entry, dict) else None
        if not isinstance(label, str):
            raise IngestError(f"{where}: missing 'label'")
        obb = entry.get("segments", {}).get("obbAligned") if isinstance(entry.get("segments"), dict) else None
        if not isinstance(obb, dict):
            raise IngestError(f"{where}: missing 'segments.obbAligned'")
        category = labels.category(label)
        if category is None:
            continue
        try:
            boxes.append((category, box_from_meta(obb, f"{where}.segments.obbAligned")))
        except MetaInfoError as err:
            raise IngestError(str(err)) from None
    return boxes


def read_arkitscenes(folder: Path, options: IngestOptions) -> IngestedScene:
    """Read one ARKitScenes 3DOD video folder (named after its video id).

    Raises:
        IngestError: a missing or malformed file or box (named), or no floor in the mesh.
    """
    vid = folder.name
    annotation = folder / f"{vid}_3dod_annotation.json"
    mesh_file = folder / f"{vid}_3dod_mesh.ply"
    labels = LabelMap.for_dataset("arkitscenes", options.labels)
    boxes = _boxes(read_json(annotation), labels, annotation)
    mesh = read_mesh(mesh_file)
    return finish(assemble(vid, "arkitscenes", mesh, boxes, options, mesh_file), labels, {})
