r"""Load BLINK's validation split from its Hugging Face release or from the VLMEvalKit TSV.

The release (``BLINK-Benchmark/BLINK``, one config per subtask: ``<Subtask>/val-*.parquet``; the test
split's answers are hidden) has one row per question: ``idx`` (``val_<Subtask>_<k>``), ``question``,
``sub_task``, ``image_1`` ... ``image_4`` (encoded images or None), ``choices`` (a list of texts),
``answer`` (``"(A)"``), ``prompt`` (the question and its lettered choices, the text the authors send) and
``explanation``; a subtask written with spaces is the one with underscores (``Relative_Depth``). The TSV
(``BLINK.tsv``, VLMEvalKit's ``ImageMCQDataset``: ``index``, ``question``, ``A``...,
``answer`` a letter, ``category`` the subtask, ``image``) is read by the shared TSV reader; its prompt is
built in the release's layout (``<question>\nSelect from the following choices.\n(A) ...``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.images import ImagesOrError, images_or_error, table_images
from spatialbench.benchmarks.shared.tsv import (
    TableRow,
    check_suffix,
    load_tables,
    option_columns,
    parquet_records,
    tsv_rows,
)
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "blink"
SUBTASKS = (
    "Visual_Similarity",
    "Counting",
    "Relative_Depth",
    "Jigsaw",
    "Art_Style",
    "Functional_Correspondence",
    "Semantic_Correspondence",
    "Spatial_Relation",
    "Object_Localization",
    "Visual_Correspondence",
    "Multi-view_Reasoning",
    "Relative_Reflectance",
    "Forensic_Detection",
    "IQ_Test",
)
"""The 14 subtasks, in the official ``evaluate.py`` order."""
SPATIAL = ("Relative_Depth", "Spatial_Relation", "Multi-view_Reasoning", "Object_Localization")
"""The subtasks ``--subset spatial`` keeps (spatialbench's choice: depth, relations, views, boxes)."""
TSV_KIND = TsvKind("BLINK", ("category",), SUBTASKS, "subtasks", lambda v: v.strip().replace(" ", "_"))
COLUMNS = Columns(BENCHMARK_NAME, {
    ".parquet": ("idx", "prompt", "sub_task", "choices", "answer", "image_1"),
    ".tsv": ("index", "question", "A", "B", "answer", ("image", "image_path")),
}, TSV_KIND)
_IMAGE_COLUMNS = ("image_1", "image_2", "image_3", "image_4")


def blink_tables(path: Path) -> list[Path]:
    """Return ``path`` itself, or the validation Parquet files / TSV files under folder ``path`` (two levels).

    Raises:
        FileNotFoundError: no such path, or no BLINK file in it. AnnotationFileError: a file of another
            kind (:func:`~..shared.tsv.check_suffix`).
    """
    if path.is_file():
        return [check_suffix(path, (".parquet", ".tsv"), "BLINK")]
    if not path.is_dir():
        raise FileNotFoundError(f"BLINK data not found: {path}")
    found = [p for p in [*path.glob("*"), *path.glob("*/*")] if p.is_file()]
    tables = sorted(
        p for p in found if (p.suffix == ".parquet" and p.name.startswith("val")) or p.suffix == ".tsv"
    )
    if not tables:
        raise FileNotFoundError(f"no BLINK file (<Subtask>/val-*.parquet or BLINK.tsv) in {path}")
    return tables


def load_blink(path: Path | str, subset: str = "all") -> LoadedItems:
    """Load BLINK's validation questions (module docstring); ``subset``: ``all`` or ``spatial``.

    Returns:
        Items (id: ``idx`` / TSV ``index``; task: the subtask; question: the release's ``prompt``);
        ``.errors`` has one RowError per malformed row (file, row, field).

    Raises:
        FileNotFoundError: see :func:`blink_tables`. ValueError: an unknown ``subset``.
        AnnotationFileError (a ValueError): a file that cannot be read as a table.
    """
    if subset not in ("all", "spatial"):
        raise ValueError(f"subset must be all or spatial, got {subset!r}")
    loaded = load_tables(blink_tables(Path(path).resolve()), _rows, _row_item, _id_field)
    return spatial_only(loaded) if subset == "spatial" else loaded


def _id_field(table: Path) -> str:
    return "index" if table.suffix == ".tsv" else "idx"


def spatial_only(loaded: LoadedItems) -> LoadedItems:
    """Keep the items of the ``SPATIAL`` subtasks, with the row errors."""
    return LoadedItems([i for i in loaded if i.task in SPATIAL], loaded.errors)


def _rows(table: Path) -> Iterator[TableRow]:
    """(row number, row, its images or their error) per row; a release row's images are written first."""
    if table.suffix == ".tsv":
        yield from ((n, {**row, "_tsv": True}, media) for n, row, media in tsv_rows(table, COLUMNS))
        return
    for number, row in enumerate(parquet_records(table, COLUMNS), start=1):
        images = [row[c] for c in _IMAGE_COLUMNS if row.get(c) is not None]
        yield number, row, images_or_error(table_images, images, table, str(row.get("idx", "")), "image_1")


def _row_item(row: dict[str, Any], media: ImagesOrError) -> Item:
    if isinstance(media, MalformedSampleError):
        raise media
    return _tsv_item(row, media) if row.get("_tsv") else _release_item(row, media)


def _release_item(row: Mapping[str, Any], media: tuple[MediaRef, ...]) -> Item:
    listed = row.get("choices")
    choices = [] if listed is None else [str(c) for c in list(listed)]
    answer = str(row.get("answer", "")).strip().strip("()")
    return _item(str(row.get("idx", "")), row.get("sub_task"), row.get("prompt"), choices, answer, media)


def _tsv_item(row: Mapping[str, Any], media: tuple[MediaRef, ...]) -> Item:
    sample_id = str(row.get("index", ""))
    choices = [option[3:] for option in option_columns(row)]  # "A. text" → "text"
    letters = "ABCDEFGHIJ"
    prompt = "\n".join(
        [
            f"{row.get('question', '')}\nSelect from the following choices.",
            *(f"({letters[k]}) {c}" for k, c in enumerate(choices)),
        ]
    )
    return _item(sample_id, row.get("category"), prompt, choices, str(row.get("answer", "")).strip(), media)


def _item(
    sample_id: str, task: Any, prompt: Any, choices: list[str], letter: str, media: tuple[MediaRef, ...]
) -> Item:
    options = tuple(f"{chr(65 + k)}. {c}" for k, c in enumerate(choices))
    if len(letter) != 1 or not "A" <= letter < chr(65 + len(options)):
        raise MalformedSampleError(
            sample_id, "answer", f"{letter!r} is not one of the options (test answers are hidden)"
        )
    for name, value in (("sub_task", task), ("prompt", prompt)):
        if not str(value or "").strip():
            raise MalformedSampleError(sample_id, name, "missing or empty")
    if not media:
        raise MalformedSampleError(sample_id, "image_1", "no image")
    subtask = str(task).strip().replace(" ", "_")  # "Relative Depth" and "Relative_Depth" are one subtask
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=subtask,
        question=str(prompt),
        options=options,
        ground_truth=letter,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
    )
