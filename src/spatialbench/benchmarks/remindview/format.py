"""ReMindView-Bench's file format: one QA-table row ⇄ :class:`~spatialbench.records.item.Item`.

Columns (official generation code), in the release's order (:data:`COLUMNS`): ``folder_path`` (a frame set:
the image files of one multi-view sample; the path names the room type, the object-centric / view-centric
pattern and the ``level_<k>`` distance level), ``query_type`` (see
:mod:`~spatialbench.benchmarks.remindview.query`), ``query``, ``ground_truth`` (answer text), ``choices``
(comma-separated answer texts), ``cross_frame``, ``perspective_changing`` (not read: ``query_type`` says it),
``object_num``.

Choices (2–4) are lettered A–D in table order (more is a row error); the ground truth becomes the letter of
its choice (texts are compared case-insensitively; ``"B. sofa"`` is also accepted).

Reading: :func:`row_to_item` (the loader, :mod:`~spatialbench.benchmarks.remindview.loader`, finds and reads
the tables). Writing: :func:`item_to_row`, :func:`write_table` (the CSV layout ``generate remindview``
writes too) and :func:`write_items`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
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
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.scoring.render import CSV_OPTIONS

BENCHMARK_NAME = "remindview"
#: the release's columns, in its order
COLUMNS = (
    "folder_path",
    "query_type",
    "query",
    "ground_truth",
    "choices",
    "cross_frame",
    "perspective_changing",
    "object_num",
)
#: the columns the loader reads (``perspective_changing`` is implied by ``query_type``)
REQUIRED_COLUMNS = tuple(c for c in COLUMNS if c != "perspective_changing")
#: ReMindView-Bench questions have 2-4 choices (Table 4); the official evaluation letters them A-D only
#: (``LABELS``, prompt ``^[ABCD]``) and would drop a fifth (``choices[:4]``), maybe the answer: refused here.
MIN_CHOICES, MAX_CHOICES = 2, 4
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
_LETTERED = re.compile(r"^\s*([A-Z])\s*\.\s*(.+?)\s*$")
_TRUE, _FALSE = {"true", "1", "yes"}, {"false", "0", "no"}


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


def item_to_row(item: Item) -> dict[str, Any]:
    """Return the QA-table row (:data:`COLUMNS`) of an item read by :func:`row_to_item`.

    Raises:
        KeyError: the item lacks the metadata of a loaded row (``folder_path``, ``answer_text``...).
    """
    meta = item.metadata
    return {
        "folder_path": meta["folder_path"],
        "query_type": item.task,
        "query": item.question,
        "ground_truth": meta["answer_text"],
        "choices": ", ".join(option.partition(". ")[2] for option in item.options),
        "cross_frame": meta["cross_frame"],
        "perspective_changing": meta["perspective"] == "PC",
        "object_num": meta["object_num"],
    }


def write_table(rows: Iterable[Mapping[str, Any]], path: Path, columns: Sequence[str] = COLUMNS) -> None:
    """Write QA rows as a CSV table (header, ``columns`` in order, text quoted, newline line ends, UTF-8)."""
    frame = pd.DataFrame(list(rows), columns=list(columns))
    frame.to_csv(path, index=False, **CSV_OPTIONS)  # a \r in a question stays in its cell


def write_items(items: Sequence[Item], folder: Path) -> list[Path]:
    """Write one CSV table per table of the items' ids (``<table stem>:<row>``) into ``folder``; return them.

    The loader reads the tables back, with the same ids when no row of a table was left out, and with
    the frame sets when ``folder`` holds them (``folder_path`` is relative to it).
    """
    folder.mkdir(parents=True, exist_ok=True)
    tables: dict[str, list[dict[str, Any]]] = {}
    for item in items:
        tables.setdefault(item.id.rpartition(":")[0], []).append(item_to_row(item))
    paths = [folder / f"{stem}.csv" for stem in tables]
    for path, rows in zip(paths, tables.values(), strict=True):
        write_table(rows, path)
    return paths
