"""Load ReMindView-Bench QA tables (CSV or Parquet) into :class:`~spatialbench.records.item.Item`.

Columns (official generation code): ``folder_path`` (a frame set: the image files of one multi-view sample;
the path names the room type, the object-centric / view-centric pattern and the ``level_<k>`` distance
level), ``query_type`` (see :mod:`~spatialbench.benchmarks.remindview.query`), ``query``, ``ground_truth``
(answer text), ``choices`` (comma-separated answer texts), ``cross_frame``, ``object_num``.

The folder a user downloads (Hugging Face release of ReMindView-Bench)::

    DIR/
      *.csv | *.parquet            # QA tables, e.g. object_centric_view_object.csv
      <frame sets>/.../level_<k>/  # images of each folder_path (relative paths resolve against DIR)

Choices (2–4) are lettered A–D in table order (more is a row error); the ground truth becomes the letter of
its choice (texts are compared case-insensitively; ``"B. sofa"`` is also accepted). An item's id is
``<table stem>:<row>``. A malformed row is skipped and reported in ``LoadedItems.errors`` with its id and
field.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.benchmarks.remindview.query import (
    distance_level,
    normalize_query_type,
    parse_query_type,
    pattern_of,
    room_type,
)
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "remindview"
REQUIRED_COLUMNS = (
    "folder_path",
    "query_type",
    "query",
    "ground_truth",
    "choices",
    "cross_frame",
    "object_num",
)
#: ReMindView-Bench questions have 2-4 choices (Table 4); the official evaluation letters them A-D only
#: (``LABELS``, prompt ``^[ABCD]``) and would drop a fifth (``choices[:4]``), maybe the answer: refused here.
MIN_CHOICES, MAX_CHOICES = 2, 4
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
_LETTERED = re.compile(r"^\s*([A-Z])\s*\.\s*(.+?)\s*$")
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}


def load_remindview(path: Path | str) -> LoadedItems:
    """Load every row of the QA tables at ``path`` (one CSV/Parquet file, or a folder searched recursively).

    Returns:
        Items in table and row order; ``.errors`` has one RowError per malformed row (file, line, field,
        sample id). Relative ``folder_path`` values resolve against the data folder, then the table's folder.

    Raises:
        FileNotFoundError: ``path`` does not exist or holds no table.
        ValueError: a table lacks a required column (message names the table and the columns);
            AnnotationFileError (a ValueError): a table cannot be read (not UTF-8, empty, corrupt Parquet).
    """
    path = Path(path).resolve()
    root = path.parent if path.is_file() else path
    loaded = LoadedItems()
    for table in _tables(path):
        frame = _read_table(table)
        for index, row in enumerate(frame.to_dict(orient="records")):
            sample_id = f"{table.stem}:{index}"
            try:
                loaded.append(row_to_item(row, sample_id, (root, table.parent), table.name))
            except MalformedSampleError as error:
                line = index + 2 if table.suffix == ".csv" else None  # header is line 1
                loaded.errors.append(error.row_error(str(table), line))
    return loaded


def _tables(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"ReMindView-Bench data not found: {path}")
    tables = sorted(p for p in path.rglob("*") if p.suffix in (".csv", ".parquet") and p.is_file())
    if not tables:
        raise FileNotFoundError(f"no QA table (*.csv, *.parquet) under {path}")
    return tables


def _read_table(table: Path) -> pd.DataFrame:
    """Read one QA table; an unreadable table (not UTF-8, empty, corrupt) is one error naming it."""
    try:
        if table.suffix == ".parquet":
            frame = pd.read_parquet(table)
        else:
            frame = pd.read_csv(table, dtype=str, keep_default_na=False, encoding="utf-8")
    except (ValueError, OSError) as error:  # UnicodeDecodeError, EmptyDataError, ArrowInvalid are ValueErrors
        raise unreadable(table, error) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{table}: missing columns {missing}; found {list(frame.columns)}")
    return frame


def row_to_item(row: Mapping[str, Any], sample_id: str, roots: tuple[Path, ...], table_name: str) -> Item:
    """One QA row as an Item.

    Raises:
        MalformedSampleError: a field is missing or wrong, or ``folder_path`` is absolute or leaves the
            data folder (``roots[0]``).
    """
    folder = _text(row, sample_id, "folder_path")
    query = _text(row, sample_id, "query")
    query_type = normalize_query_type(_text(row, sample_id, "query_type"))
    try:
        kind = parse_query_type(query_type, query)
    except ValueError as error:
        raise MalformedSampleError(sample_id, "query_type", str(error)) from None
    pattern = pattern_of(folder, table_name)
    if pattern is None:
        raise MalformedSampleError(sample_id, "folder_path", "names neither object_centric nor view_centric")
    choices = _choices(row, sample_id)
    letter = _letter_of(row, sample_id, choices)
    metadata = {
        "pattern": pattern,
        "relation": kind.relation,
        "query_kind": kind.query_kind,
        "perspective": kind.perspective,
        "template_index": kind.template_index,
        "cross_frame": _flag(row, sample_id, "cross_frame"),
        "object_num": _count(row, sample_id, "object_num"),
        "distance_level": distance_level(folder),
        "room_type": room_type(folder),
        "folder_path": folder,
        "answer_text": choices[ord(letter) - ord("A")],
    }
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=query_type,
        question=query,
        options=tuple(f"{chr(ord('A') + i)}. {c}" for i, c in enumerate(choices)),
        ground_truth=letter,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=_frames(sample_id, folder, roots),
        metadata=metadata,
    )


def _text(row: Mapping[str, Any], sample_id: str, field: str) -> str:
    value = row.get(field)
    if value is None or (isinstance(value, float) and pd.isna(value)) or not str(value).strip():
        raise MalformedSampleError(sample_id, field, "missing or empty")
    return str(value).strip()


def _choices(row: Mapping[str, Any], sample_id: str) -> list[str]:
    choices = [c.strip() for c in _text(row, sample_id, "choices").split(",") if c.strip()]
    if not MIN_CHOICES <= len(choices) <= MAX_CHOICES:
        raise MalformedSampleError(
            sample_id,
            "choices",
            f"needs {MIN_CHOICES} to {MAX_CHOICES} comma-separated choices (A-D), got {len(choices)}: "
            f"{choices}",
        )
    return choices


def _letter_of(row: Mapping[str, Any], sample_id: str, choices: list[str]) -> str:
    truth = _text(row, sample_id, "ground_truth")
    lettered = _LETTERED.match(truth)
    candidates = [truth] + ([lettered.group(2)] if lettered else [])
    for text in candidates:
        matches = [i for i, c in enumerate(choices) if c.lower() == text.lower()]
        if len(matches) == 1:
            return chr(ord("A") + matches[0])
    raise MalformedSampleError(
        sample_id, "ground_truth", f"{truth!r} is not exactly one of the choices {choices}"
    )


def _flag(row: Mapping[str, Any], sample_id: str, field: str) -> bool:
    value = str(row.get(field, "")).strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise MalformedSampleError(sample_id, field, f"expected True or False, got {row.get(field)!r}")


def _count(row: Mapping[str, Any], sample_id: str, field: str) -> int:
    try:
        value = float(str(row.get(field, "")).strip())
    except ValueError:
        value = -1.0
    if value < 0 or not value.is_integer():
        raise MalformedSampleError(sample_id, field, f"expected a count, got {row.get(field)!r}")
    return int(value)


def _frames(sample_id: str, folder: str, roots: tuple[Path, ...]) -> tuple[MediaRef, ...]:
    """Return the images of the frame folder in natural order; the folder must lie inside the data folder.

    A folder that is missing or holds no image is not an error here (scoring needs no media): the item
    gets one empty ``FRAMES`` reference to the folder, which a run reports as missing media before it
    sends anything (:mod:`spatialbench.runs.preflight`).

    Raises:
        MalformedSampleError: ``folder`` is absolute or leaves the data folder (``roots[0]``).
    """
    candidates = [Path(os.path.normpath(root / folder)) for root in roots]
    inside = [c for c in candidates if c.is_relative_to(roots[0])]
    if Path(folder).is_absolute() or not inside:
        raise MalformedSampleError(
            sample_id, "folder_path", f"path {folder!r} is absolute or leaves the data folder {roots[0]}"
        )
    found = next((c for c in inside if c.is_dir()), None)
    images = [] if found is None else sorted(
        (p for p in found.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES), key=lambda p: natural_key(p.name)
    )
    if not images:
        return (MediaRef(kind=MediaKind.FRAMES, path=str(found or inside[0])),)
    return tuple(MediaRef(kind=MediaKind.IMAGE, path=str(p), name=p.stem) for p in images)


def natural_key(name: str) -> list[int | str]:
    """Sort key that orders ``frame2`` before ``frame10`` (the official frame order)."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]
