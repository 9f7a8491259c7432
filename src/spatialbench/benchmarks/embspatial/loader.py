"""Load EmbSpatial-Bench from its release JSON or from the EASI/VLMEvalKit TSV.

The release (github mengfeidu/EmbSpatial-Bench README; Hugging Face ``Phineas476/EmbSpatial-Bench``): a JSON
list (or JSON lines) of questions with ``data_source`` (``mp3d``, ``ai2thor``, ``scannet``), ``scene_id``,
``question_id``, ``question``, ``relation`` (one of the 6 spatial relations), ``image`` (base64),
``answer_options`` (a list of texts), ``answer`` (the index of the right option) and ``objects``. The EASI TSV
(``EmbSpatialBench.tsv``, read by VLMEvalKit's ``EmbSpatialBench``) has ``index``, ``image`` (base64),
``question``, ``options`` (a JSON list), ``answer`` and ``data_source``. An answer may be an option index, a
letter or the option's text.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.fields import not_an_object
from spatialbench.benchmarks.shared.images import (
    ImagesOrError,
    from_base64,
    image_folder,
    images_or_error,
    write_images,
)
from spatialbench.benchmarks.shared.tsv import (
    TableRow,
    data_files,
    json_records,
    jsonl_records,
    load_tables,
    option_columns,
    tsv_rows,
)
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaRef
from spatialbench.records.rows import EntryIndex, LoadedItems

BENCHMARK_NAME = "embspatial"
#: the three embodied scene sources, in VLMEvalKit's ``_task_category`` order
SOURCES = ("mp3d", "ai2thor", "scannet")
TSV_KIND = TsvKind("EmbSpatial-Bench", ("data_source",), SOURCES, "scene sources")
_RELEASE = ("question_id", "question", "answer_options", "answer", "image", "data_source")
COLUMNS = Columns(BENCHMARK_NAME, {".json": _RELEASE, ".jsonl": _RELEASE, ".tsv": (
    "index", "question", ("options", "A"), "answer", "data_source", ("image", "image_path"))}, TSV_KIND)


def load_embspatial(path: Path | str) -> LoadedItems:
    """Load every question of ``path`` (the release ``.json`` / ``.jsonl``, an EASI ``.tsv``, or a folder).

    Returns:
        Items in file order (id: ``question_id`` / ``index``; task: ``relation`` (``-`` when the TSV has
        none); dataset: ``data_source``; scene_id: ``scene_id``); ``.errors`` names each malformed row.

    Raises:
        FileNotFoundError: no such file or no EmbSpatial-Bench file. AnnotationFileError: unreadable.
    """
    return load_tables(
        data_files(Path(path).resolve(), (".json", ".jsonl", ".tsv"), "EmbSpatial-Bench"), _rows, _item,
        lambda table: "index" if table.suffix == ".tsv" else "question_id",
    )


def _rows(table: Path) -> Iterator[TableRow]:
    """Yield (row number, row, its images or the error reading them)."""
    if table.suffix == ".tsv":
        yield from tsv_rows(table, COLUMNS)
        return
    if table.suffix == ".json":
        entries = json_records(table, COLUMNS)
    else:
        entries = jsonl_records(table, "EmbSpatial-Bench", COLUMNS)
    for k, entry in enumerate(entries, start=1):
        number = EntryIndex(k) if table.suffix == ".json" else k  # printed "entry N" in a JSON list
        if not isinstance(entry, dict):  # the row error names the entry's kind
            yield number, {}, not_an_object(entry)
            continue
        yield number, entry, images_or_error(_json_image, entry, table)


def _json_image(entry: Mapping[str, Any], table: Path) -> tuple[MediaRef, ...]:
    sample_id = _id(entry)
    if not isinstance(entry.get("image"), str) or not entry["image"]:
        raise MalformedSampleError(sample_id, "image", "no base64 image")
    return write_images([from_base64(entry["image"], sample_id)], image_folder(table), sample_id)


def _id(row: Mapping[str, Any]) -> str:
    return str(row.get("question_id") or row.get("index") or "")


def _options(row: Mapping[str, Any]) -> list[str]:
    listed = row.get("answer_options", row.get("options"))
    if isinstance(listed, str) and listed.strip():
        try:
            listed = json.loads(listed)
        except ValueError:
            try:  # the kit falls back to a Python literal as well
                listed = ast.literal_eval(listed)
            except (ValueError, SyntaxError):
                listed = None
    if isinstance(listed, list) and listed:
        return [str(o) for o in listed]
    return [o[3:] for o in option_columns(row)]


def _letter(answer: Any, options: list[str], sample_id: str) -> str:
    """Return the answer as a letter, given an index (the release), a letter (``B``, ``B. x``) or the text."""
    text = str(answer).strip()
    if isinstance(answer, bool) or not isinstance(answer, (str, int)):  # JSON true, 1.5, null, a list
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not an option index, letter or text")
    if isinstance(answer, int) or text.isdigit():
        index = int(text)
    elif text[:1].isalpha() and text[:1].isupper() and (len(text) == 1 or text[1] in ".:)"):
        index = ord(text[0]) - 65
    else:
        index = options.index(text) if text in options else -1
    if not 0 <= index < len(options):
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not one of the options")
    return chr(65 + index)


def _item(row: Mapping[str, Any], media: ImagesOrError) -> Item:
    sample_id = _id(row)
    if isinstance(media, MalformedSampleError):
        raise media
    options = _options(row)
    if len(options) < 2:
        field = next((f for f in ("answer_options", "options") if f in row), "A")  # the row's own field
        raise MalformedSampleError(sample_id, field, f"{len(options)} option(s); a question has two or more")
    source = str(row.get("data_source") or "")
    if not source:
        raise MalformedSampleError(sample_id, "data_source", "missing")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=str(row.get("relation") or "-"),
        question=str(row.get("question") or ""),
        options=tuple(f"{chr(65 + k)}. {o}" for k, o in enumerate(options)),
        ground_truth=_letter(row.get("answer"), options, sample_id),
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
        scene_id=str(row.get("scene_id") or "") or None,
        dataset=source,
    )
