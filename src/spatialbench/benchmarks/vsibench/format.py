"""VSI-Bench's file format: one official record (a row of ``test.jsonl`` / ``test.parquet``) ⇄ ``Item``.

Fields, as in the official ``test.jsonl``: ``id`` (int, or text in exports), ``dataset``, ``scene_name``,
``question_type``, ``question``, ``options`` (list of ``"A. ..."``, null for numerical questions),
``ground_truth`` (letter, or the number as text), optional ``pruned`` (VSI-Bench-Debiased). A numerical
ground truth must be a finite number (text or JSON number); anything else is a row problem, so no consumer
sees ``"abc"``/``"nan"``. Other fields go to ``metadata``; generated benchmarks
(:mod:`spatialbench.generate.vsi`) write two, the multiple-choice version of numerical questions
(App. B.1): ``mc_options`` and ``mc_ground_truth`` (null for multiple-choice questions), and ``slots``,
the objects each question was drawn with by role (JSON text of ``{role: name}``, the stress-test's key
names; null when a question names none), read back into ``metadata["slots"]`` as a dict. Media:
``MediaRef(VIDEO, "<dataset>/<scene_name>.mp4")`` relative to the video root.

Reading: :func:`record_to_item` (the loader, :mod:`~spatialbench.benchmarks.vsibench.loader`, reads files).
Writing: :func:`item_to_record`, :func:`write_jsonl`, :func:`write_parquet`; both files load with
``datasets.load_dataset("json"|"parquet", ...)`` and with the loader.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spatialbench.errors import SpatialBenchError
from spatialbench.records.bulk import Shared, item_of
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef

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
REQUIRED = (*_REQUIRED_TEXT, "ground_truth")
"""The fields a VSI-Bench file must have (in some row): a file without one is another benchmark's."""
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
    if type(raw) is list:  # the usual case: a list equal to one already checked (only texts equal texts)
        known = shared.known(("options", tuple(raw)))
        if known is not None:
            return known
    if isinstance(raw, str) or not hasattr(raw, "__iter__"):
        raise RowProblem("options", f"expected a list of strings or null, got {type(raw).__name__}")
    options = tuple(raw)
    if set(map(type, options)) - {str} and not all(isinstance(o, str) for o in options):
        raise RowProblem("options", "every option must be a string such as 'A. sofa'")
    return shared.made(("options", options), lambda: options)


def _ground_truth(record: dict[str, Any], kind: AnswerKind, options: tuple[str, ...], shared: Shared) -> str:
    """Return the checked ground truth; a letter is checked once per distinct (text, option count).

    Numbers are checked each time: a million distinct ones would make a million-entry table.
    """
    raw = record.get("ground_truth")
    if kind is not AnswerKind.MULTIPLE_CHOICE or type(raw) is not str:
        return checked_truth(raw, kind, len(options))
    return shared.made(("letter", raw, len(options)), checked_truth, raw, kind, len(options))


def checked_truth(raw: object, kind: AnswerKind, option_count: int) -> str:
    """Return the ground truth ``raw`` checked (a letter of ``option_count`` options, or a finite number).

    Raises:
        RowProblem: not a string / number, not an option letter, or not a finite number.
    """
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise RowProblem("ground_truth", f"missing or not a string/number: {raw!r}")
    truth = str(raw).strip()
    if kind is AnswerKind.MULTIPLE_CHOICE:
        letters = _letters(option_count)
        if len(truth) != 1 or truth.upper() not in letters:
            raise RowProblem("ground_truth", f"{truth!r} is not one of the option letters {letters!r}")
        truth = truth.upper()
    elif not is_finite_number(truth):
        raise RowProblem("ground_truth", f"numerical ground truth {truth!r} is not a finite number")
    return truth


@lru_cache(maxsize=64)
def _letters(count: int) -> str:
    return "".join(chr(ord("A") + i) for i in range(count))


def is_finite_number(text: str) -> bool:
    """Return whether ``text`` reads as a finite number with Python's ``float``."""
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def answer_kind(task: str, options: tuple[str, ...]) -> AnswerKind:
    """Return the answer kind of ``task`` with ``options``; RowProblem for a multiple-choice task without."""
    if task in MCA_TASKS:
        if not options:
            raise RowProblem("options", f"multiple-choice task {task!r} needs options")
        return AnswerKind.MULTIPLE_CHOICE
    if task in NA_TASKS:
        return AnswerKind.NUMERICAL
    # A task outside the official eight (e.g. a generated one): the options decide.
    return AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL


def record_to_item(
    record: dict[str, Any], pruned: set[str] | None = None, shared: Shared | None = None
) -> Item:
    """One official record → :class:`Item` (id must already be set).

    Every field is checked here (the module docstring's rules), so the item is built without a second
    validation (:func:`~spatialbench.records.bulk.item_of`). ``pruned``: the pruned id list, which
    sets ``metadata["pruned"]``; ``shared``: a table storing repeated names, options and media once.

    Raises:
        RowProblem: a missing or malformed field (``.field`` names it).
    """
    shared = shared if shared is not None else Shared()
    for name in _REQUIRED_TEXT:
        value = record.get(name)
        if not isinstance(value, str) or not value or value.isspace():  # as ``not value.strip()``, no copy
            raise RowProblem(name, f"missing or not a non-empty string: {value!r}")
    dataset, scene, media = scene_of(record["dataset"], record["scene_name"], shared)
    options = _options(record, shared)
    task = shared(record["question_type"])
    kind = answer_kind(task, options)
    item_id = str(record["id"])
    # the official fields only (the usual case): no extra metadata to copy
    metadata = (
        {} if record.keys() <= _KNOWN_FIELDS else {k: v for k, v in record.items() if k not in _KNOWN_FIELDS}
    )
    if record.get("slots") is not None:
        metadata["slots"] = _slots(record["slots"])
    if record.get("pruned") is not None:
        metadata["pruned"] = bool(record["pruned"])
    if pruned is not None:
        metadata["pruned"] = item_id in pruned
    return item_of(
        id=item_id,
        benchmark=NAME,
        task=task,
        question=record["question"],
        options=options,
        ground_truth=_ground_truth(record, kind, options, shared),
        answer_kind=kind,
        media=media,
        scene_id=scene,
        dataset=dataset,
        metadata=metadata,
    )


def _slots(raw: object) -> dict[str, str]:
    """Parse a generated question's slots: JSON text (or an object) of names by role."""
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as exc:
        raise RowProblem("slots", f"not JSON: {exc.msg}") from None
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise RowProblem("slots", f"not an object of names by role: {raw!r}")
    return value


def scene_of(dataset: str, scene: str, shared: Shared) -> tuple[str, str, tuple[MediaRef, ...]]:
    """Return the checked names and the video reference of a scene, made once per scene (``shared``).

    Raises:
        RowProblem: ``dataset`` or ``scene_name`` is not a plain name (checked in that order).
    """
    return shared.made(("scene", dataset, scene), _checked_scene, dataset, scene)


def _checked_scene(dataset: str, scene: str) -> tuple[str, str, tuple[MediaRef, ...]]:
    for field, value in zip(_PATH_FIELDS, (dataset, scene), strict=True):
        _check_path_name(field, value)
    return dataset, scene, (MediaRef(kind=MediaKind.VIDEO, path=f"{dataset}/{scene}.mp4"),)


#: the columns written, in order (``write_parquet``'s schema; ``write_jsonl`` writes the same keys)
SCHEMA = pa.schema(
    [
        ("id", pa.int64()),
        ("dataset", pa.string()),
        ("scene_name", pa.string()),
        ("question_type", pa.string()),
        ("question", pa.string()),
        ("options", pa.list_(pa.string())),
        ("ground_truth", pa.string()),
        ("mc_options", pa.list_(pa.string())),
        ("mc_ground_truth", pa.string()),
        ("slots", pa.string()),
    ]
)


def item_to_record(item: Item) -> dict[str, Any]:
    """Return the official record of an item with an integer id, keys in :data:`SCHEMA` order.

    ``mc_options`` / ``mc_ground_truth`` come from ``metadata`` (None when absent).

    Raises:
        ValueError: the id is not an integer (a derived id of an id-less file cannot be written).
    """
    return {
        "id": int(item.id),
        "dataset": item.dataset,
        "scene_name": item.scene_id,
        "question_type": item.task,
        "question": item.question,
        "options": list(item.options) or None,
        "ground_truth": item.ground_truth,
        "mc_options": item.metadata.get("mc_options"),
        "mc_ground_truth": item.metadata.get("mc_ground_truth"),
        "slots": json.dumps(item.metadata["slots"], sort_keys=True) if item.metadata.get("slots") else None,
    }


def write_jsonl(items: Sequence[Item], path: Path | str) -> None:
    """One official record per line, UTF-8, keys in schema order."""
    lines = (json.dumps(item_to_record(it), ensure_ascii=False) for it in items)
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def write_parquet(items: Sequence[Item], path: Path | str) -> None:
    """Write the same records as a Parquet table with a fixed schema (:data:`SCHEMA`)."""
    table = pa.Table.from_pylist([item_to_record(it) for it in items], schema=SCHEMA)
    pq.write_table(table, path)


def write_items(items: Sequence[Item], folder: Path) -> list[Path]:
    """Write ``folder/test.jsonl`` (created with its folder), which the loader reads back; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "test.jsonl"
    write_jsonl(items, path)
    return [path]
