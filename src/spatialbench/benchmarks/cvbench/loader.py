"""Load CV-Bench (Cambrian-1's vision-centric benchmark) from its Hugging Face release or a VLMEvalKit TSV.

The release (``nyu-visionx/CV-Bench``, dataset card "Files" and fields): ``test_2d.parquet`` and
``test_3d.parquet`` with the image inside (the ``datasets`` Image feature: ``{"bytes", "path"}``), or
``test_2d.jsonl`` / ``test_3d.jsonl`` naming ``filename`` under ``img/``. Each row: ``idx``, ``type``
(2D/3D), ``task`` (Count, Relation, Depth, Distance), ``question``, ``choices``, ``answer`` (``"(A)"``),
``prompt`` (the question with its choices pre-formatted), ``source`` (ADE20K, COCO, Omni3D). A
VLMEvalKit-style TSV row has ``index``, ``image`` (base64), ``question``, option columns ``A``...,
``answer`` (a letter), ``category`` (the task) and ``source``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.images import image_folder, write_images
from spatialbench.benchmarks.shared.tsv import (
    data_files,
    image_index,
    jsonl_records,
    option_columns,
    parquet_records,
    read_tsv,
    tsv_images,
)
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "cvbench"
SUFFIXES = (".parquet", ".jsonl", ".tsv")
SOURCES = ("ADE20K", "COCO", "Omni3D")
TSV_KIND = TsvKind("CV-Bench", ("source",), SOURCES, "image sources")
_RELEASE = ("choices", "answer", ("task", "category"), "source", ("prompt", "question"),
            ("image", "filename"))
COLUMNS = Columns(BENCHMARK_NAME, {".parquet": _RELEASE, ".jsonl": _RELEASE, ".tsv": (
    "question", "A", "B", "answer", ("task", "category"), "source", ("image", "image_path"))}, TSV_KIND)
_LETTER = re.compile(r"^\(?([A-F])\)?$")


def load_cvbench(path: Path | str) -> LoadedItems:
    """Load every question of ``path`` (a ``test_*.parquet`` / ``.jsonl`` / ``.tsv`` file or their folder).

    Returns:
        Items (id: ``idx`` / ``index``, prefixed by the file stem when a folder holds several files;
        task: the task; dataset: the image source); ``.errors`` names each malformed row.

    Raises:
        FileNotFoundError: no such file or no CV-Bench file in the folder. AnnotationFileError: unreadable.
    """
    root = Path(path).resolve()
    tables = data_files(root, SUFFIXES, "CV-Bench")
    loaded, ids = LoadedItems(), UniqueIds()
    for table in tables:
        prefix = f"{table.stem}:" if len(tables) > 1 else ""
        for number, row in _rows(table):
            sample_id = prefix + str(row.get("idx", row.get("index", number)))
            try:
                item = _item(sample_id, row, table)
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
                continue
            field = "idx" if "idx" in row else "index"
            ids.keep(loaded, item, str(table), number, field, sample_id[len(prefix):])
    return loaded


def _rows(table: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    if table.suffix == ".tsv":
        frame = read_tsv(table, COLUMNS)
        by_index = image_index(frame)
        for number, row in enumerate(frame.to_dict(orient="records"), start=2):
            yield number, {**row, "_by_index": by_index}
        return
    if table.suffix == ".parquet":
        yield from enumerate(parquet_records(table, COLUMNS), start=1)
    else:
        yield from enumerate(jsonl_records(table, "CV-Bench", COLUMNS), start=1)


def _media(sample_id: str, row: Mapping[str, Any], table: Path) -> tuple[MediaRef, ...]:
    if "_by_index" in row:
        return tsv_images(row, table, row["_by_index"])
    image = row.get("image")
    if isinstance(image, Mapping) and isinstance(image.get("bytes"), bytes):
        return write_images([image["bytes"]], image_folder(table), sample_id.replace(":", "_"))
    if row.get("filename"):  # the jsonl + img/ layout: relative to the data folder
        return (MediaRef(kind=MediaKind.IMAGE, path=str(table.parent / str(row["filename"]))),)
    raise MalformedSampleError(sample_id, "image", "no image bytes and no filename")


def _options(sample_id: str, row: Mapping[str, Any]) -> tuple[str, ...]:
    if "_by_index" in row:
        return option_columns(row)
    choices = row.get("choices")
    if choices is None or isinstance(choices, str) or not len(choices):
        raise MalformedSampleError(sample_id, "choices", "missing or not a list")
    return tuple(f"{chr(65 + k)}. {c}" for k, c in enumerate(choices))


def _item(sample_id: str, row: Mapping[str, Any], table: Path) -> Item:
    options = _options(sample_id, row)
    answer = _LETTER.match(str(row.get("answer", "")).strip())
    if answer is None or ord(answer.group(1)) - 65 >= len(options):
        raise MalformedSampleError(sample_id, "answer", f"{row.get('answer')!r} is not one of the options")
    task = str(row.get("task") or row.get("category") or "")
    source = str(row.get("source") or "")
    if not task or source not in SOURCES:
        raise MalformedSampleError(sample_id, "source" if task else "task", "missing or unknown")
    prompt = str(row.get("prompt") or "") or _prompt(str(row["question"]), options)
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=task,
        question=prompt,
        options=options,
        ground_truth=answer.group(1),
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=_media(sample_id, row, table),
        dataset=source,
        metadata={"type": str(row.get("type") or ("3D" if source == "Omni3D" else "2D")),
                  "question_text": str(row.get("question") or "")},
    )


def _prompt(question: str, options: tuple[str, ...]) -> str:
    """Return the release's ``prompt`` layout for a row without one: the question, ``(A) choice`` lines."""
    lines = [f"({o[0]}) {o[3:]}" for o in options]
    return "\n".join([f"{question} Select from the following choices.", *lines])
