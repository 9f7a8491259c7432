"""Load 3DSRBench from its VLMEvalKit TSV files (the release's evaluation files) or a Parquet of those rows.

The release (Hugging Face ``ccvl/3DSRBench``; its card: "to reproduce the benchmark results, you only need
``3dsrbench_v1_vlmevalkit_circular.tsv``") ships ``3dsrbench_v1_vlmevalkit.tsv`` (each question and its
FlipEval variant, the image already flipped) and ``3dsrbench_v1_vlmevalkit_circular.tsv`` (those, each also
with its options rotated). A row: ``index``, ``qid`` (an 8-character question id, ``-flip`` for the flipped
image, ``-N`` for the N-th rotation: ``VIN6MS3J``, ``VIN6MS3J-1``, ``VIN6MS3J-flip``, ``VIN6MS3J-flip-1``),
``question``, option columns ``A``–``D`` (empty where a question has fewer), ``answer`` (a letter),
``category`` (one of 12 question types), ``image`` (base64), ``image_source``, ``image_url``. A Parquet file
with these columns and ``image`` as bytes (or the ``datasets`` Image feature) is read alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.images import ImagesOrError, image_folder, images_or_error, write_images
from spatialbench.benchmarks.shared.tsv import (
    TableRow,
    data_files,
    load_tables,
    option_columns,
    parquet_records,
    tsv_rows,
)
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "3dsrbench"
#: the paper's four main types and their question types (the release's ``compute_3drbench_results_circular``
#: mapping, also in lmms-eval's ``threedsrbench``)
TYPES: dict[str, tuple[str, ...]] = {
    "height": ("height_higher",),
    "location": ("location_above", "location_closer_to_camera", "location_next_to"),
    "orientation": ("orientation_in_front_of", "orientation_on_the_left", "orientation_viewpoint"),
    "multi_object": (
        "multi_object_closer_to",
        "multi_object_facing",
        "multi_object_viewpoint_towards_object",
        "multi_object_parallel",
        "multi_object_same_direction",
    ),
}
TYPE_OF = {category: kind for kind, categories in TYPES.items() for category in categories}
TSV_KIND = TsvKind("3DSRBench", ("category",), tuple(TYPE_OF), "question types")
_ROW = ("qid", "question", "A", "B", "answer", "category")
COLUMNS = Columns(BENCHMARK_NAME, {".tsv": (*_ROW, ("image", "image_path")), ".parquet": (*_ROW, "image")},
                  TSV_KIND)


def load_3dsrbench(path: Path | str) -> LoadedItems:
    """Load every row of ``path`` (a ``3dsrbench_v1_vlmevalkit*.tsv`` / ``.parquet`` file or their folder).

    Returns:
        Items in file order (id: the ``qid``, required: a row without one is a row error; task: the
        question type; metadata ``type``: its main type, ``index``); ``.errors`` names each malformed row.

    Raises:
        FileNotFoundError: no such file or no 3DSRBench file in the folder. AnnotationFileError: unreadable.
    """
    return load_tables(data_files(Path(path).resolve(), (".tsv", ".parquet"), "3DSRBench"), _rows, _item,
                       lambda table: "qid")


def _rows(table: Path) -> Iterator[TableRow]:
    """Yield (row number, row, its images or the error reading them)."""
    if table.suffix == ".tsv":
        yield from tsv_rows(table, COLUMNS)
        return
    for number, row in enumerate(parquet_records(table, COLUMNS), start=1):
        row = {k: ("" if v is None else v) for k, v in row.items()}
        yield number, row, images_or_error(_parquet_image, row, table)


def _parquet_image(row: Mapping[str, Any], table: Path) -> tuple[MediaRef, ...]:
    image = row.get("image")
    data = image.get("bytes") if isinstance(image, Mapping) else image
    if not isinstance(data, bytes):
        raise MalformedSampleError(_id(row), "image", "no image bytes")
    return write_images([data], image_folder(table), _id(row))


def _id(row: Mapping[str, Any]) -> str:
    return str(row.get("qid") or row.get("index") or "")


def _item(row: Mapping[str, Any], media: ImagesOrError) -> Item:
    sample_id = _id(row)
    if not str(row.get("qid") or "").strip():  # ids from the index silently lost the variant groups before
        reason = "missing: the flip and circular settings group a question's variants by it"
        raise MalformedSampleError(sample_id, "qid", reason)
    if isinstance(media, MalformedSampleError):
        raise media
    options = option_columns(row)
    answer = str(row.get("answer") or "").strip()
    if len(options) < 2 or answer not in [o[0] for o in options]:
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not one of the options")
    category = str(row.get("category") or "")
    if category not in TYPE_OF:
        raise MalformedSampleError(sample_id, "category", f"unknown question type {category!r}")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=category,
        question=str(row.get("question") or ""),
        options=options,
        ground_truth=answer,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
        dataset=str(row.get("image_source") or "") or None,
        metadata={"type": TYPE_OF[category], "index": str(row.get("index", ""))},
    )
