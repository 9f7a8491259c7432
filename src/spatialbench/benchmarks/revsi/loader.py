"""Load ReVSI for one frame budget: its own questions and ground truth, its own videos.

The release (Hugging Face ``3dlg-hcvc/ReVSI``, as VLMEvalKit's ``ReVSI`` reads it): one dataset config per
frame budget (``16_frame``, ``32_frame``, ..., ``all_frame``), split ``test``, each with its own ground truth
(what the frames of that budget show), and ``video.zip`` holding ``<budget>/<scene_id>.mp4`` per budget. A
row: ``scene_id``, ``question_type`` (13 types), ``question``, ``options`` (lettered, multiple choice only),
``ground_truth`` (a letter or a number), and an id when the release has one. Layout read here, under the data
folder: the budget's rows in ``<budget>/`` (the config's Parquet/JSONL/JSON files) or ``<budget>.parquet``
(``.jsonl``, ``.json``), its videos in ``revsi_videos/<budget>/<scene_id>.mp4`` (``video.zip`` extracted
into ``revsi_videos``, as VLMEvalKit does). A file given directly is read as the budget's rows, its videos
beside it under ``revsi_videos/<budget>/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns, check_columns, record_columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.files import Record, read_records
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems, RowError

BENCHMARK_NAME = "revsi"
#: VLMEvalKit ``revsi.py`` ``NQ_QUESTION_TYPES`` (scored by MRA) and ``MCQ_QUESTION_TYPES`` (accuracy)
NA_TYPES = (
    "object_counting_single",
    "object_counting_multiple",
    "object_abs_distance",
    "object_size_estimation",
    "room_size_estimation_single",
    "room_size_estimation_multiple",
)
MCA_TYPES = (
    "object_rel_direction_forward_easy",
    "object_rel_direction_backward_easy",
    "object_rel_direction_forward_hard",
    "object_rel_direction_backward_hard",
    "object_rel_distance_closest",
    "object_rel_distance_farthest",
    "route_planning",
)
_SUFFIXES = (".parquet", ".jsonl", ".json")
_REQUIRED = ("scene_id", "question_type", "question", "ground_truth")
COLUMNS = Columns(BENCHMARK_NAME, dict.fromkeys(_SUFFIXES, _REQUIRED))


def subset_name(budget: str) -> str:
    """Return the release config of a frame budget: ``"16"`` → ``16_frame``, ``"all"`` → ``all_frame``.

    Raises:
        ValueError: ``budget`` is neither ``all`` nor a whole number above 0.
    """
    text = str(budget).strip()
    if text != "all" and not (text.isdigit() and int(text) > 0):
        raise ValueError(f"frame budget {budget!r} is not 'all' or a whole number of frames")
    return f"{text}_frame"


def load_revsi(path: Path | str, budget: str = "all") -> LoadedItems:
    """Load the questions of frame budget ``budget`` (``16``, ``32``, ..., ``all``) under ``path``.

    Returns:
        Items in file order (id: ``id`` / ``question_id`` / the row number; task: ``question_type``;
        scene_id: ``scene_id``; metadata ``budget``: the config name); ``.errors`` names each bad row.

    Raises:
        ValueError: a bad ``budget``. FileNotFoundError: no rows for the budget under ``path``.
        MissingColumnError (a ValueError): a file with rows lacks ``scene_id``, ``question_type``,
            ``question`` or ``ground_truth`` in all of them.
    """
    subset = subset_name(budget)
    path = Path(path).resolve()
    rows, root = _rows_of(path, subset)
    videos = root / "revsi_videos" / subset
    loaded, ids = LoadedItems(), UniqueIds()
    entries = list(read_records(rows))
    _check_columns(entries)
    for entry in entries:
        if isinstance(entry, RowError):
            loaded.errors.append(entry)
            continue
        file, line, record = entry
        try:
            item = _item(record, line, subset, videos)
        except MalformedSampleError as error:
            loaded.errors.append(error.row_error(str(file), line))
            continue
        ids.keep(loaded, item, str(file), line, "id" if "id" in record else "question_id")
    return loaded


def _check_columns(entries: list[Record | RowError]) -> None:
    """Refuse a file none of whose rows has a column every ReVSI row needs: one line, not a row error each."""
    by_file: dict[Path, list[Mapping[str, Any]]] = {}
    for entry in entries:
        if not isinstance(entry, RowError):
            by_file.setdefault(Path(entry[0]), []).append(entry[2])
    for file, records in by_file.items():
        check_columns(file, record_columns(records), COLUMNS)


def _rows_of(path: Path, subset: str) -> tuple[Path, Path]:
    """Return (the budget's rows: a file or folder, the data folder its videos lie under)."""
    if path.is_file():
        return path, path.parent
    if (path / subset).is_dir():
        return path / subset, path
    for suffix in _SUFFIXES:
        if (path / f"{subset}{suffix}").is_file():
            return path / f"{subset}{suffix}", path
    raise FileNotFoundError(f"no ReVSI rows for {subset} in {path} (expected {subset}/ or {subset}.parquet)")


def _item(record: Mapping[str, Any], line: int, subset: str, videos: Path) -> Item:
    sample_id = str(record.get("id") if record.get("id") is not None else record.get("question_id", line))
    task, scene = str(record.get("question_type") or ""), str(record.get("scene_id") or "")
    if task not in NA_TYPES + MCA_TYPES:
        raise MalformedSampleError(sample_id, "question_type", f"unknown question type {task!r}")
    if not scene or "/" in scene:
        raise MalformedSampleError(sample_id, "scene_id", "missing or not a plain name")
    truth = str(record.get("ground_truth", "")).strip()
    options: tuple[str, ...] = ()
    if task in MCA_TYPES:
        listed = record.get("options")
        options = tuple(str(o) for o in listed) if listed is not None and not isinstance(listed, str) else ()
        if truth.upper() not in [chr(65 + k) for k in range(len(options))]:
            raise MalformedSampleError(sample_id, "ground_truth", f"{truth!r} is not an option letter")
    elif not truth:
        raise MalformedSampleError(sample_id, "ground_truth", "missing")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=task,
        question=str(record.get("question") or ""),
        options=options,
        ground_truth=truth.upper() if options else truth,
        answer_kind=AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL,
        media=(MediaRef(kind=MediaKind.VIDEO, path=str(videos / f"{scene}.mp4")),),
        scene_id=scene,
        dataset=str(record.get("dataset") or "") or None,
        metadata={"budget": subset},
    )
