"""Read and write the official VSI-Bench meta-information JSON (App. B.1).

A meta-info file maps ``scene_name`` to an entry::

    {"dataset": "scannet", "video_path": "...", "room_size": 35.86, "room_center": [x, y, z],
     "object_counts": {"chair": 2, ...},
     "object_bbox": {"chair": [{"centroid": [3], "axesLengths": [3], "normalizedAxes": [9],
                                "min": [3], "max": [3]}, ...], ...}}

Axis convention (checked on all 3,197 official boxes, max error 2e-15 m): ``normalizedAxes`` is a 3×3
matrix stored row-major whose *rows* are the box axes, ``axesLengths[i]`` the full length along row ``i``,
so ``max - min == |A|ᵀ @ axesLengths`` and ``(min + max) / 2 == centroid``. Our rotation (columns = axes)
is therefore ``A.T``. ``min``/``max`` are derived data; the loader checks them against the box.

``dataset`` is required (the official files always have it; it names the video folder and the per-dataset
tables). Category names must be non-empty, without control characters, double quotes, braces or commas.

Exact duplicate boxes of one category (the official ScanNet printers appear twice) are dropped on load;
``object_counts`` is kept as the count of record.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from spatialbench.errors import SpatialBenchError
from spatialbench.scene.box import OrientedBox, make_box
from spatialbench.scene.model import ObjectInstance, Scene

_KNOWN_FIELDS = ("dataset", "video_path", "room_size", "room_center", "object_counts", "object_bbox")
# Tolerance for min/max consistency: the official files agree to 1e-14 m; synthetic writers may round.
_AABB_TOL = 1e-4
# Official names are lowercase words ([a-z0-9 ]); these characters would break a question's wording (quotes),
# the second template pass that fills {choice_a}.. (braces) or comma-joined category lists (appearance order).
_FORBIDDEN_IN_CATEGORY = frozenset('"{},')


class MetaInfoError(SpatialBenchError, ValueError):
    """A meta-info file or entry that does not follow the schema; the message names file, scene, field."""


class MetaInfoNotFoundError(MetaInfoError, FileNotFoundError):
    """No meta-info JSON at the path given: no such file, or a folder without JSON files."""


def _fail(where: str, message: str) -> MetaInfoError:
    return MetaInfoError(f"{where}: {message}")


def _vector(value: Any, size: int, where: str) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise _fail(where, f"expected {size} numbers, got {value!r}") from None
    if arr.shape != (size,) or not np.all(np.isfinite(arr)):
        raise _fail(where, f"expected {size} finite numbers, got {value!r}")
    return arr


def box_from_meta(entry: Mapping[str, Any], where: str = "box") -> OrientedBox:
    """Parse one ``object_bbox`` entry into an OrientedBox.

    Raises:
        MetaInfoError: missing field, wrong length, non-orthonormal axes or ``min``/``max`` inconsistent
            with the box (tolerance 1e-4 m); the message names ``where`` and the field.
    """
    if not isinstance(entry, Mapping):
        raise _fail(where, f"expected an object, got {type(entry).__name__}")
    for key in ("centroid", "axesLengths", "normalizedAxes"):
        if key not in entry:
            raise _fail(where, f"missing field {key!r}")
    center = _vector(entry["centroid"], 3, f"{where}.centroid")
    lengths = _vector(entry["axesLengths"], 3, f"{where}.axesLengths")
    axes = _vector(entry["normalizedAxes"], 9, f"{where}.normalizedAxes").reshape(3, 3)
    try:
        box = make_box(center, lengths, axes.T)
    except ValueError as err:
        raise _fail(where, str(err)) from None
    if "min" in entry and "max" in entry:
        lo, hi = box.aabb()
        if (
            np.abs(lo - _vector(entry["min"], 3, f"{where}.min")).max() > _AABB_TOL
            or np.abs(hi - _vector(entry["max"], 3, f"{where}.max")).max() > _AABB_TOL
        ):
            raise _fail(where, "min/max do not match centroid/axesLengths/normalizedAxes (rows = box axes)")
    return box


def box_to_meta(box: OrientedBox) -> dict[str, list[float]]:
    """Return the official ``object_bbox`` entry of a box (inverse of :func:`box_from_meta`)."""
    lo, hi = box.aabb()
    return {
        "centroid": box.center.tolist(),
        "axesLengths": box.extent.tolist(),
        "normalizedAxes": box.rotation.T.reshape(9).tolist(),
        "min": lo.tolist(),
        "max": hi.tolist(),
    }


def _check_category(category: str, where: str) -> None:
    """Refuse names that would corrupt question text: category names are pasted into the templates."""
    if not category or category != category.strip():
        raise _fail(where, f"category {category!r}: empty or with leading/trailing spaces")
    bad = sorted(
        {ch for ch in category if ch in _FORBIDDEN_IN_CATEGORY or unicodedata.category(ch)[0] == "C"}
    )
    if bad:
        raise _fail(
            where,
            f"category {category!r} contains {''.join(bad)!r} (control characters, quotes, "
            "braces and commas break question text and option lists)",
        )


def _parse_objects(raw: Any, where: str) -> dict[str, tuple[ObjectInstance, ...]]:
    if not isinstance(raw, Mapping):
        raise _fail(f"{where}.object_bbox", "expected an object mapping category -> list of boxes")
    objects: dict[str, tuple[ObjectInstance, ...]] = {}
    for category, boxes in raw.items():
        _check_category(category, f"{where}.object_bbox")
        if not isinstance(boxes, list) or not boxes:
            raise _fail(f"{where}.object_bbox[{category!r}]", "expected a non-empty list of boxes")
        seen: set[str] = set()
        instances: list[ObjectInstance] = []
        for i, entry in enumerate(boxes):
            key = json.dumps(entry, sort_keys=True)
            if key in seen:  # exact duplicate annotation (official ScanNet printers)
                continue
            seen.add(key)
            box = box_from_meta(entry, f"{where}.object_bbox[{category!r}][{i}]")
            instances.append(ObjectInstance(category=category, index=len(instances), box=box))
        objects[category] = tuple(instances)
    return objects


def _parse_counts(raw: Any, objects: Mapping[str, tuple[ObjectInstance, ...]], where: str) -> dict[str, int]:
    if raw is None:
        return {c: len(inst) for c, inst in objects.items()}
    if not isinstance(raw, Mapping):
        raise _fail(f"{where}.object_counts", "expected an object mapping category -> count")
    counts: dict[str, int] = {}
    for category, count in raw.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise _fail(f"{where}.object_counts[{category!r}]", f"expected a positive integer, got {count!r}")
        if category not in objects:
            raise _fail(f"{where}.object_counts[{category!r}]", "category has no boxes in object_bbox")
        counts[category] = count
    missing = [c for c in objects if c not in counts]
    if missing:
        raise _fail(f"{where}.object_counts", f"no count for categories with boxes: {missing}")
    return counts


def scene_from_meta(scene_id: str, entry: Mapping[str, Any], source: str = "<meta-info>") -> Scene:
    """Parse one meta-info entry.

    Args:
        scene_id: the key of the entry (``scene_name``).
        entry: the entry's mapping.
        source: file name used in error messages.

    Raises:
        MetaInfoError: schema violation, naming ``source``, the scene and the field.
    """
    where = f"{source}: scene {scene_id!r}"
    if not isinstance(entry, Mapping):
        raise _fail(where, f"expected an object, got {type(entry).__name__}")
    for key in ("room_size", "object_bbox", "dataset"):
        if key not in entry:
            raise _fail(where, f"missing field {key!r}")
    dataset = entry["dataset"]
    if not isinstance(dataset, str) or not dataset.strip():
        raise _fail(
            f"{where}.dataset", f"expected the source dataset's name (e.g. 'scannet'), got {dataset!r}"
        )
    room_size = entry["room_size"]
    if not isinstance(room_size, (int, float)) or isinstance(room_size, bool) or not room_size > 0:
        raise _fail(f"{where}.room_size", f"expected a positive number (m²), got {room_size!r}")
    center = entry.get("room_center", [0.0, 0.0, 0.0])
    objects = _parse_objects(entry["object_bbox"], where)
    return Scene(
        scene_id=str(scene_id),
        dataset=dataset,
        room_size=float(room_size),
        room_center=_vector(center, 3, f"{where}.room_center"),
        objects=objects,
        counts=_parse_counts(entry.get("object_counts"), objects, where),
        video_path=str(entry.get("video_path", "")),
        extra={k: v for k, v in entry.items() if k not in _KNOWN_FIELDS},
    )


def scene_to_meta(scene: Scene) -> dict[str, Any]:
    """Return the official meta-info entry of a scene (inverse of :func:`scene_from_meta`)."""
    return {
        "dataset": scene.dataset,
        "video_path": scene.video_path,
        "room_size": scene.room_size,
        "room_center": scene.room_center.tolist(),
        "object_counts": dict(scene.counts),
        "object_bbox": {c: [box_to_meta(i.box) for i in inst] for c, inst in scene.objects.items()},
        **scene.extra,
    }


def load_meta_info(path: Path | str) -> dict[str, Scene]:
    """Load one meta-info JSON file, or every ``*.json`` in a folder (sorted by file name).

    Returns:
        scene_id -> Scene, in file order.

    Raises:
        MetaInfoNotFoundError (a FileNotFoundError): no such file, or a folder without JSON files.
        MetaInfoError: invalid JSON or schema violation (names the file, scene and field);
            a scene id present in two files.
    """
    path = Path(path)
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    if not files or not files[0].exists():
        raise MetaInfoNotFoundError(f"no meta-info JSON at {path}")
    scenes: dict[str, Scene] = {}
    for file in files:
        try:
            data = json.loads(file.read_text())
        except json.JSONDecodeError as err:
            raise MetaInfoError(f"{file}: invalid JSON (line {err.lineno}): {err.msg}") from None
        if not isinstance(data, dict):
            raise MetaInfoError(f"{file}: expected an object mapping scene_name -> entry")
        for scene_id, entry in data.items():
            if scene_id in scenes:
                raise MetaInfoError(f"{file}: scene {scene_id!r} already loaded from another file")
            scenes[scene_id] = scene_from_meta(scene_id, entry, str(file))
    return scenes


def write_meta_info(scenes: Iterable[Scene], path: Path | str) -> None:
    """Write scenes as one meta-info JSON file, scenes in iteration order (indent 2, UTF-8)."""
    data = {s.scene_id: scene_to_meta(s) for s in scenes}
    Path(path).write_text(json.dumps(data, indent=2) + "\n")
