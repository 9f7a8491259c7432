"""Load MMSI-Bench from its Hugging Face Parquet release or from the VLMEvalKit/EASI TSV file.

The Hugging Face release (``RunsenXu/MMSI-Bench``, ``MMSI_Bench.parquet``; the README's loading snippet)
has one row per question: ``id``, ``images`` (a list of encoded images, bytes), ``question_type``,
``question`` (the question with its options written in, ``Options: A: ..., B: ...``), ``answer`` (a
letter) and ``thought`` (the annotators' reasoning). The TSV (``MMSI_Bench.tsv``, read by the kit's
``MMSIBenchDataset``) has ``index``, ``image`` (a JSON list of base64 images), ``question``, ``answer``
and ``category``; EASI's copy (``MMSIBench_wo_circular.tsv``) may give the options as ``A``-``D`` columns
instead, written into the question as EASI's prompt writes them. Images are written once beside the file
(``images/<stem>/<id>_<k>.<ext>``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.mmsi_bench.circular import rotations
from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.images import images_or_error, table_images
from spatialbench.benchmarks.shared.tsv import data_files, option_columns, parquet_records, tsv_rows
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "mmsi-bench"
#: the letters MMSI-Bench questions use: every question has four options (paper Sec. 3; the official
#: extractor's ``[A-D]``)
LETTERS = ("A", "B", "C", "D")
SUFFIXES = (".parquet", ".tsv")
EVALUATIONS = ("vanilla", "circular")
#: the question types under the main categories of the paper's main table (Positional Relationship,
#: Attribute, Motion, then Multi-Step Reasoning); a header prints the part in parentheses
CATEGORIES = {
    "Positional Relationship": ("Cam.-Cam.", "Obj.-Obj.", "Reg.-Reg.", "Cam.-Obj.", "Obj.-Reg.", "Cam.-Reg."),
    "Attribute": ("Meas.", "Appr."),
    "Motion": ("Cam.", "Obj."),
}
LABELS = {f"{category} ({part})": part for category, parts in CATEGORIES.items() for part in parts}
ORDER = (*LABELS, "MSR")
#: an MMSI-Bench TSV names these question types (a 3DSRBench or CV-Bench TSV has the same columns)
TSV_KIND = TsvKind("MMSI-Bench", ("category", "question_type"), ORDER, "question types",
                   lambda v: v.strip().replace("\u2013", "-"))
COLUMNS = Columns(BENCHMARK_NAME, {
    ".tsv": ("index", "question", "answer", ("category", "question_type"), ("image", "image_path")),
    ".parquet": ("images", "question_type", "question", "answer"),
}, TSV_KIND)


def load_mmsi_bench(path: Path | str, evaluation: str = "vanilla") -> LoadedItems:
    """Load every question of ``path`` (``MMSI_Bench.parquet`` / ``.tsv``, or a folder holding them).

    ``evaluation``: ``vanilla`` (each question once) or ``circular`` (each question four times, its
    options rotated: :mod:`~spatialbench.benchmarks.mmsi_bench.circular`).

    Returns:
        Items in file order (id: the ``id`` / ``index``; task: the question type); ``.errors`` has one
        RowError per malformed row (file, row, field).

    Raises:
        FileNotFoundError: no such file, or a folder without a Parquet/TSV file.
        AnnotationFileError (a ValueError): a file that cannot be read as a table.
        ValueError: an unknown ``evaluation``.
    """
    check_evaluation(evaluation)
    loaded, ids = LoadedItems(), UniqueIds()
    for table in data_files(Path(path).resolve(), SUFFIXES, "MMSI-Bench"):
        for number, sample_id, fields in _rows(table):
            try:
                item = _item(sample_id, fields)
                made = rotations(item) if evaluation == "circular" else [item]
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
                continue
            field = "index" if table.suffix == ".tsv" else "id"
            problem = ids.refusal(item.id, str(table), number, field)
            loaded.extend([] if problem else made)
            loaded.errors.extend([problem] if problem else [])
    return loaded


def check_evaluation(evaluation: object) -> None:
    """Refuse an ``evaluation`` other than ``vanilla`` / ``circular`` (ValueError)."""
    if evaluation not in EVALUATIONS:
        raise ValueError(f"unknown evaluation {evaluation!r}; known: {', '.join(EVALUATIONS)}")


def _rows(table: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Yield (row number, id, fields with ``media``) per row; images are written as files first."""
    if table.suffix == ".tsv":
        for number, row, media in tsv_rows(table, COLUMNS):
            kind = row.get("category") or row.get("question_type")
            names = {"question_type": "category" if "category" in row else "question_type", "images": "image"}
            fields = {**row, "question_type": kind, "media": media, **_option_fields(row), "_names": names}
            yield number, str(row.get("index", "")), fields
        return
    for number, row in enumerate(parquet_records(table, COLUMNS), start=1):
        sample_id = str(row.get("id", number))
        media = images_or_error(_parquet_images, row.get("images"), table, sample_id)
        yield number, sample_id, {**row, "media": media}


def _option_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """Options given as ``A``-``D`` columns (EASI's TSV), written into the question as EASI's prompt does.

    EASI's ``MMSIBench.build_prompt``: the question, a line break, ``Options: `` and ``A: x, `` per option;
    the texts are kept (``option_texts``) for the rotations of circular evaluation. No columns, or a
    question that already holds ``Options:`` (the MMSI-Bench TSV): nothing changes.
    """
    options = option_columns(row)
    question = str(row.get("question") or "")
    if not options or "Options:" in question:
        return {}
    written = "".join(f"{o[0]}: {o[3:]}, " for o in options)
    return {"question": f"{question}\nOptions: {written}", "option_texts": {o[0]: o[3:] for o in options}}


def _parquet_images(images: Any, table: Path, sample_id: str) -> tuple[MediaRef, ...]:
    """Images of a Parquet row (none when the cell is empty); see :func:`~..shared.images.table_images`."""
    return () if images is None else table_images(list(images), table, sample_id, "images")


def _item(sample_id: str, row: Mapping[str, Any]) -> Item:
    if isinstance(row["media"], MalformedSampleError):
        raise row["media"]
    names = row.get("_names", {})  # a TSV's own names for the release's fields (its category column)
    for field in ("question", "answer", "question_type"):
        if not str(row.get(field) or "").strip():
            raise MalformedSampleError(sample_id, names.get(field, field), "missing or empty")
    answer = str(row["answer"]).strip()
    if answer not in LETTERS:
        raise MalformedSampleError(sample_id, "answer", f"{answer!r} is not one of A-D")
    if not row["media"]:
        raise MalformedSampleError(sample_id, names.get("images", "images"), "no image")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=str(row["question_type"]),
        question=str(row["question"]),
        options=LETTERS,  # the options are written in the question text itself
        ground_truth=answer,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=row["media"],
        metadata={"option_texts": row["option_texts"]} if row.get("option_texts") else {},
    )
