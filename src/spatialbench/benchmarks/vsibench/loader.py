"""VSI-Bench: official annotation files → :class:`Item`.

Formats read (see :mod:`spatialbench.records.files`): ``test.jsonl``, the Hugging Face Parquet
files, and JSON exports holding a list of question objects (or ``{"questions": [...]}``). Fields follow
the official schema: ``id``, ``dataset``, ``scene_name``, ``question_type``, ``question``, ``options``
(null for numerical questions), ``ground_truth``, optional ``pruned``. A numerical ground truth must be
a finite number (text or JSON number); anything else is a row error, so no consumer sees ``"abc"``/``"nan"``.

A record without ``id`` gets a stable derived id ``<scene_name>-<12 hex of sha1(dataset, scene, type,
question, options)>`` (``-2``, ``-3``… for repeats) and ``metadata["derived_id"] = True``.
Media: ``MediaRef(VIDEO, "<dataset>/<scene_name>.mp4")`` relative to the video root.

VSI-Bench-Debiased: the bias-pruned ids come from a ``pruned`` column or an id list
(``pruned_ids=``, one id per line, read strictly by :mod:`spatialbench.benchmarks.vsibench.pruned_ids`); each
item gets ``metadata["pruned"]``; ``subset="debiased"`` keeps only the unpruned items.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.vsibench.pruned_ids import read_pruned_ids
from spatialbench.benchmarks.vsibench.tiny import SUBSETS, tiny_subset
from spatialbench.errors import SpatialBenchError
from spatialbench.records.bulk import Shared, checked_item, paused_gc
from spatialbench.records.files import read_records
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems, RowError

NAME = "vsibench"
MCA_TASKS = (
    "object_rel_direction_easy",
    "object_rel_direction_medium",
    "object_rel_direction_hard",
    "object_rel_distance",
    "route_planning",
    "obj_appearance_order",
)
NA_TASKS = ("object_abs_distance", "object_counting", "object_size_estimation", "room_size_estimation")
REL_DIRECTION_TASKS = MCA_TASKS[:3]

_REQUIRED_TEXT = ("dataset", "scene_name", "question_type", "question")
_KNOWN_FIELDS = {"id", "options", "ground_truth", "pruned", *_REQUIRED_TEXT}
_PATH_FIELDS = ("dataset", "scene_name")  # media: <data>/<dataset>/<scene_name>.mp4
_NOT_IN_NAMES = frozenset("/\\\0")


class RowProblem(SpatialBenchError, ValueError):
    """A record field that cannot be read; carries the field name."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.location = field


def _check_path_name(field: str, value: str) -> None:
    """``dataset`` and ``scene_name`` name a folder and a file under the data folder: one plain name each.

    An absolute path or ``..`` would point a run at a file outside the data folder it was given.
    """
    if value in (".", "..") or not _NOT_IN_NAMES.isdisjoint(value):
        raise RowProblem(
            field, f"{value!r} is not a plain name: media paths must stay inside the data folder"
        )


def _options(record: dict[str, Any], shared: Shared) -> tuple[str, ...]:
    """Return the checked options, one stored tuple per distinct list (``shared``)."""
    raw = record.get("options")
    if raw is None:
        return ()
    if isinstance(raw, str) or not hasattr(raw, "__iter__"):
        raise RowProblem("options", f"expected a list of strings or null, got {type(raw).__name__}")
    options = tuple(raw)
    if set(map(type, options)) - {str} and not all(isinstance(o, str) for o in options):
        raise RowProblem("options", "every option must be a string such as 'A. sofa'")
    return shared(options)


def _ground_truth(record: dict[str, Any], kind: AnswerKind, options: tuple[str, ...]) -> str:
    raw = record.get("ground_truth")
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise RowProblem("ground_truth", f"missing or not a string/number: {raw!r}")
    truth = str(raw).strip()
    if kind is AnswerKind.MULTIPLE_CHOICE:
        letters = _letters(len(options))
        if len(truth) != 1 or truth.upper() not in letters:
            raise RowProblem("ground_truth", f"{truth!r} is not one of the option letters {letters!r}")
        truth = truth.upper()
    elif not _is_finite_number(truth):
        raise RowProblem("ground_truth", f"numerical ground truth {truth!r} is not a finite number")
    return truth


@lru_cache(maxsize=64)
def _letters(count: int) -> str:
    return "".join(chr(ord("A") + i) for i in range(count))


def _is_finite_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _answer_kind(task: str, options: tuple[str, ...]) -> AnswerKind:
    if task in MCA_TASKS:
        if not options:
            raise RowProblem("options", f"multiple-choice task {task!r} needs options")
        return AnswerKind.MULTIPLE_CHOICE
    if task in NA_TASKS:
        return AnswerKind.NUMERICAL
    # A task outside the official eight (e.g. a generated one): the options decide.
    return AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL


def derived_id(record: dict[str, Any]) -> str:
    """Stable id for a record without one: ``<scene_name>-<sha1 of its content, 12 hex>``."""
    options = record.get("options")
    content = "\x1f".join(
        [str(record.get(k, "")) for k in ("dataset", "scene_name", "question_type", "question")]
        + [str(o) for o in (options if options is not None else [])]
    )
    return f"{record.get('scene_name', '')}-{hashlib.sha1(content.encode('utf-8')).hexdigest()[:12]}"


def record_to_item(
    record: dict[str, Any], pruned: set[str] | None = None, shared: Shared | None = None
) -> Item:
    """One official record → :class:`Item` (id must already be set).

    Every field is checked here (the module docstring's rules), so the item is built without a second
    validation (:func:`~spatialbench.records.bulk.checked_item`). ``pruned``: the pruned id list, which
    sets ``metadata["pruned"]``; ``shared``: a table storing repeated names, options and media once.

    Raises:
        RowProblem: a missing or malformed field (``.field`` names it).
    """
    shared = shared if shared is not None else Shared()
    for name in _REQUIRED_TEXT:
        value = record.get(name)
        if not isinstance(value, str) or not value.strip():
            raise RowProblem(name, f"missing or not a non-empty string: {value!r}")
    dataset, scene, media = _scene(record["dataset"], record["scene_name"], shared)
    options = _options(record, shared)
    task = shared(record["question_type"])
    kind = _answer_kind(task, options)
    item_id = str(record["id"])
    # the official fields only (the usual case): no extra metadata to copy
    metadata = {} if record.keys() <= _KNOWN_FIELDS else {
        k: v for k, v in record.items() if k not in _KNOWN_FIELDS}
    if record.get("pruned") is not None:
        metadata["pruned"] = bool(record["pruned"])
    if pruned is not None:
        metadata["pruned"] = item_id in pruned
    return checked_item(
        id=item_id,
        benchmark=NAME,
        task=task,
        question=record["question"],
        options=options,
        ground_truth=_ground_truth(record, kind, options),
        answer_kind=kind,
        media=media,
        scene_id=scene,
        dataset=dataset,
        metadata=metadata,
    )


def _scene(dataset: str, scene: str, shared: Shared) -> tuple[str, str, tuple[MediaRef, ...]]:
    """Return the checked names and the video reference of a scene, made once per scene (``shared``).

    Raises:
        RowProblem: ``dataset`` or ``scene_name`` is not a plain name (checked in that order).
    """
    return shared.made(("scene", dataset, scene), lambda: _checked_scene(dataset, scene))


def _checked_scene(dataset: str, scene: str) -> tuple[str, str, tuple[MediaRef, ...]]:
    for field, value in zip(_PATH_FIELDS, (dataset, scene), strict=True):
        _check_path_name(field, value)
    return dataset, scene, (MediaRef(kind=MediaKind.VIDEO, path=f"{dataset}/{scene}.mp4"),)


def _with_id(record: dict[str, Any], seen: dict[str, int]) -> dict[str, Any]:
    if record.get("id") is not None:
        return record
    base = derived_id(record)
    seen[base] = seen.get(base, 0) + 1
    suffix = f"-{seen[base]}" if seen[base] > 1 else ""
    return {**record, "id": base + suffix, "derived_id": True}


def _read_items(path: Path, pruned: set[str] | None) -> LoadedItems:
    """Every item of ``path`` in file order; bad rows and repeated ids go to ``.errors``."""
    items, errors = LoadedItems(), []
    seen_ids: dict[str, int | tuple[str, int]] = {}  # id → its line (in the first file) or (file, line)
    first_file = None
    derived: dict[str, int] = {}
    shared = Shared()
    for entry in read_records(path):
        if isinstance(entry, RowError):
            errors.append(entry)
            continue
        file, line, record = entry
        first_file = first_file or file
        try:
            item = record_to_item(_with_id(record, derived), pruned, shared)
        except RowProblem as problem:
            errors.append(RowError(file, line, problem.field, str(problem)))
            continue
        if item.id in seen_ids:
            place = seen_ids[item.id]
            first = f"{first_file}:{place}" if isinstance(place, int) else "{}:{}".format(*place)
            errors.append(RowError(file, line, "id", f"duplicate id {item.id!r} (first at {first})"))
            continue
        seen_ids[item.id] = line if file == first_file else (file, line)
        items.append(item)
    items.errors = errors
    return items


def load_vsibench(
    path: str | Path,
    *,
    pruned_ids: str | Path | Iterable[Any] | None = None,
    subset: str = "full",
) -> LoadedItems:
    """Load VSI-Bench items from an annotation file or folder.

    Args:
        path: ``test.jsonl``, a Parquet file, a JSON export, or a folder of them.
        pruned_ids: the VSI-Bench-Debiased pruned id list (file or ids); overrides a ``pruned`` column.
        subset: ``full`` (all items, pruning recorded in metadata), ``debiased`` (unpruned only) or
            ``tiny`` (VSI-Bench (tiny) ids; missing ones become row errors: ``vsibench.tiny``).

    Returns:
        The items read; ``.errors`` lists every malformed row (file, line, field); good rows are kept.

    Raises:
        FileNotFoundError: ``path`` or ``pruned_ids`` file missing.
        ValueError: unknown ``subset``, ``debiased`` without pruning information, or a pruned-id file
            with a line that is not an id (or no id at all).
    """
    if subset not in SUBSETS:
        raise ValueError(f"subset must be one of {', '.join(SUBSETS)}, got {subset!r}")
    pruned = read_pruned_ids(pruned_ids) if pruned_ids is not None else None
    with paused_gc():  # a million new items: no cycle scans while they are made (records.bulk)
        items = _read_items(Path(path), pruned)
    if subset == "debiased":
        if any("pruned" not in item.metadata for item in items):
            raise ValueError("subset='debiased' needs a 'pruned' column or pruned_ids for every item")
        items = LoadedItems([i for i in items if not i.metadata["pruned"]], items.errors)
    return tiny_subset(items) if subset == "tiny" else items
