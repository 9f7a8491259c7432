"""Segment-group annotations (ScanNet ``*.aggregation.json``, ScanNet++ ``segments_anno.json``) → boxes.

Both datasets over-segment the mesh (``segIndices``: one segment id per vertex, in PLY vertex order) and
annotate each object instance as a group of segments with a raw label (``segGroups``: ``label``,
``segments``, ``objectId``). An instance's points are the vertices of its segments; its box is
:func:`spatialbench.scene.ingest.fit.fit_box` of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.scene.box import OrientedBox
from spatialbench.scene.ingest.build import IngestError, Mesh
from spatialbench.scene.ingest.fit import fit_box
from spatialbench.scene.ingest.labels import LabelMap


def seg_indices(data: Any, mesh: Mesh, path: Path) -> NDArray[np.int64]:
    """Return the (V,) per-vertex segment ids of a segments file.

    Raises:
        IngestError: no ``segIndices`` list of integers, or one whose length differs from the mesh's vertices.
    """
    raw = data.get("segIndices") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise IngestError(f"{path}: expected an object with a 'segIndices' list")
    try:
        ids = np.asarray(raw, dtype=np.int64)
    except (TypeError, ValueError):
        raise IngestError(f"{path}: segIndices: expected integers") from None
    if ids.shape != (len(mesh.vertices),):
        vertices = len(mesh.vertices)
        raise IngestError(f"{path}: segIndices has {ids.size} entries, the mesh {vertices} vertices")
    return ids


def _groups(data: Any, path: Path) -> Iterator[tuple[str, list[int]]]:
    groups = data.get("segGroups") if isinstance(data, dict) else None
    if not isinstance(groups, list):
        raise IngestError(f"{path}: expected an object with a 'segGroups' list")
    for i, group in enumerate(groups):
        label = group.get("label") if isinstance(group, dict) else None
        segments = group.get("segments") if isinstance(group, dict) else None
        if not isinstance(label, str) or not isinstance(segments, list):
            raise IngestError(f"{path}: segGroups[{i}]: expected 'label' (text) and 'segments' (list)")
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in segments):
            raise IngestError(f"{path}: segGroups[{i}].segments: expected integers")
        yield label, segments


def group_boxes(
    groups_data: Any,
    ids: NDArray[np.int64],
    mesh: Mesh,
    labels: LabelMap,
    path: Path,
) -> tuple[list[tuple[str, OrientedBox]], dict[str, int]]:
    """Boxes of every annotated instance with a category, in ``segGroups`` order.

    Returns:
        ((category, box) pairs, raw label -> instances skipped because none of their segments has a vertex).

    Raises:
        IngestError: malformed ``segGroups`` (names ``path`` and the group's index).
    """
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    boxes: list[tuple[str, OrientedBox]] = []
    skipped: dict[str, int] = {}
    for label, segments in _groups(groups_data, path):
        category = labels.category(label)
        if category is None:
            continue
        wanted = np.asarray(segments, dtype=np.int64)
        lo, hi = np.searchsorted(sorted_ids, wanted), np.searchsorted(sorted_ids, wanted, side="right")
        vertices = np.concatenate([order[a:b] for a, b in zip(lo, hi, strict=True)] or [np.zeros(0, int)])
        if len(vertices) == 0:
            skipped[label] = skipped.get(label, 0) + 1
            continue
        boxes.append((category, fit_box(mesh.vertices[vertices])))
    return boxes, skipped
