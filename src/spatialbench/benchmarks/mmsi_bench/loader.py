"""Load MMSI-Bench from its Hugging Face Parquet release or from the VLMEvalKit/EASI TSV file.

The Hugging Face release (``RunsenXu/MMSI-Bench``, ``MMSI_Bench.parquet``; the README's loading snippet)
has one row per question: ``id``, ``images`` (a list of encoded images, bytes), ``question_type``,
``question`` (the question with its options written in, ``Options: A: ..., B: ...``), ``answer`` (a
letter) and ``thought`` (the annotators' reasoning). The TSV (``MMSI_Bench.tsv``, read by the kit's
``MMSIBenchDataset``) has ``index``, ``image`` (a JSON list of base64 images), ``question``, ``answer``
and ``category``. Images are written once beside the file (``images/<stem>/<id>_<k>.<ext>``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.benchmarks.shared.images import table_images
from spatialbench.benchmarks.shared.tsv import data_files, image_index, read_tsv, tsv_images
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "mmsi-bench"
#: the letters MMSI-Bench questions use: every question has four options (paper Sec. 3; the official
#: extractor's ``[A-D]``)
LETTERS = ("A", "B", "C", "D")
SUFFIXES = (".parquet", ".tsv")


def load_mmsi_bench(path: Path | str) -> LoadedItems:
    """Load every question of ``path`` (``MMSI_Bench.parquet`` / ``.tsv``, or a folder holding them).

    Returns:
        Items in file order (id: the ``id`` / ``index``; task: the question type); ``.errors`` has one
        RowError per malformed row (file, row, field).

    Raises:
        FileNotFoundError: no such file, or a folder without a Parquet/TSV file.
        AnnotationFileError (a ValueError): a file that cannot be read as a table.
    """
    loaded = LoadedItems()
    for table in data_files(Path(path).resolve(), SUFFIXES, "MMSI-Bench"):
        for number, sample_id, fields in _rows(table):
            try:
                loaded.append(_item(sample_id, fields))
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
    return loaded


def _rows(table: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Yield (row number, id, fields with ``media``) per row; images are written as files first."""
    if table.suffix == ".tsv":
        frame = read_tsv(table)
        by_index = image_index(frame)
        for number, row in enumerate(frame.to_dict(orient="records"), start=2):  # header is line 1
            yield number, str(row.get("index", "")), _tsv_fields(row, table, by_index)
        return
    try:
        frame = pd.read_parquet(table)
    except (OSError, ValueError) as error:
        raise unreadable(table, error) from None
    for number, row in enumerate(frame.to_dict(orient="records"), start=1):
        sample_id = str(row.get("id", number))
        try:
            media: tuple[MediaRef, ...] | MalformedSampleError
            images = row.get("images")
            media = () if images is None else table_images(list(images), table, sample_id, "images")
        except MalformedSampleError as error:
            media = error  # reported with the row's number by the caller
        yield number, sample_id, {**row, "media": media}


def _tsv_fields(row: Mapping[str, Any], table: Path, by_index: Mapping[str, str]) -> dict[str, Any]:
    try:
        media: tuple[MediaRef, ...] | MalformedSampleError = tsv_images(row, table, by_index)
    except MalformedSampleError as error:
        media = error  # reported with the row's number by the caller
    return {**row, "question_type": row.get("category") or row.get("question_type"), "media": media}


def _item(sample_id: str, row: Mapping[str, Any]) -> Item:
    if isinstance(row["media"], MalformedSampleError):
        raise row["media"]
    for field in ("question", "answer", "question_type"):
        if not str(row.get(field) or "").strip():
            raise MalformedSampleError(sample_id, field, "missing or empty")
    answer = str(row["answer"]).strip()
    if answer not in LETTERS:
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not one of A-D")
    if not row["media"]:
        raise MalformedSampleError(sample_id, "images", "no image")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=str(row["question_type"]),
        question=str(row["question"]),
        options=LETTERS,  # the options are written in the question text itself
        ground_truth=answer,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=row["media"],
    )
