"""Load SITE's two parts from the Hugging Face release or from the EASI/VLMEvalKit TSV files.

The release (``franky-veteran/SITE-Bench``; configs ``image_test`` and ``video_test``, split ``test``, read
by the official lmms-eval task files ``site_image.yaml`` / ``site_video.yaml``; media in
``data_chunked_*.zip``, unzipped into the same folder) has one row per question: ``question``, ``options``
(a list of texts, lettered A, B, ... in order), ``answer`` (a letter), ``category`` (one of six), ``dataset``
(the source benchmark) and ``visual`` (media paths relative to the folder: images, or one video). A table
belongs to the image or the video part by its path (``image_test...`` / ``video_test...``: Parquet, JSON or
JSON lines). The TSVs (``SiteBenchImage.tsv``: ``index``, ``image`` / ``image_path``, ``question``,
``options``; ``SiteBenchVideo.tsv``: ``index``, ``video_path``, ``question``, ``candidates``; both ``answer``
and ``category``) are read by the shared TSV reader.

Items: id ``<part>:<id or row>``, task the category, dataset the part (``image`` / ``video``: the per-part
tables), metadata ``source`` (the release's ``dataset``).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.benchmarks.shared.columns import Columns, check_columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.tsv import image_index, read_tsv, tsv_images
from spatialbench.benchmarks.shared.tsv_kind import TsvKind
from spatialbench.records.errors import AnnotationFileError, MalformedSampleError, unreadable
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "site"
PARTS = ("image", "video")
CATEGORIES = (
    "counting & existence",
    "object localization & positioning",
    "3d information understanding",
    "multi-view & cross-image reasoning",
    "spatial relationship reasoning",
    "movement prediction & navigation",
)
"""The six categories of the release, in EASI's table order."""
TSV_KIND = TsvKind("SITE", ("category",), CATEGORIES, "categories", lambda v: v.strip().lower())
_RELEASE = ("question", "category", "answer", "options", "visual")
COLUMNS = Columns(BENCHMARK_NAME, {".parquet": _RELEASE, ".json": _RELEASE, ".jsonl": _RELEASE,
                                   ".tsv": ("question", "category", "answer", ("options", "candidates"))},
                  TSV_KIND)
_SUFFIXES = (".parquet", ".json", ".jsonl", ".tsv")
_TSV_PART = {"sitebenchimage": "image", "sitebenchvideo": "video"}


def part_of(table: Path) -> str | None:
    """Return the part (``image`` / ``video``) a release table or TSV holds, None for another file."""
    text = table.as_posix().lower()
    stem = table.stem.lower()
    if table.suffix == ".tsv":
        return next((part for prefix, part in _TSV_PART.items() if stem.startswith(prefix)), None)
    return next((part for part in PARTS if f"{part}_test" in text), None)


def site_tables(path: Path) -> list[tuple[str, Path]]:
    """Return ``(part, table)`` for ``path`` (a table) or every table under folder ``path`` (two levels).

    Raises:
        FileNotFoundError: no such path, or no SITE table in it. AnnotationFileError: a file whose name
            names no part.
    """
    if path.is_file():
        if part_of(path) is None:
            raise AnnotationFileError(path, "not a SITE table: its part is read from its name (image_test* / "
                                      "video_test*, SiteBenchImage*.tsv / SiteBenchVideo*.tsv)")
        found = [path]
    elif path.is_dir():
        found = sorted(
            p for p in [*path.glob("*"), *path.glob("*/*")] if p.is_file() and p.suffix in _SUFFIXES
        )
    else:
        raise FileNotFoundError(f"SITE data not found: {path}")
    tables = [(part, table) for table in found if (part := part_of(table))]
    if not tables:
        raise FileNotFoundError(f"no SITE table (image_test* / video_test* / SiteBench*.tsv) in {path}")
    return tables


def load_site(path: Path | str) -> LoadedItems:
    """Load both parts of SITE (module docstring); media paths resolve against the data folder.

    Returns:
        Items, image part first; ``.errors`` has one RowError per malformed row (file, row, field).

    Raises:
        FileNotFoundError: see :func:`site_tables`. AnnotationFileError (a ValueError): an unreadable table.
    """
    given = Path(path).resolve()
    root = given if given.is_dir() else given.parent
    loaded, ids = LoadedItems(), UniqueIds()
    tables = sorted(site_tables(given), key=lambda pair: PARTS.index(pair[0]))
    for part, table in tables:
        frame = read_tsv(table, COLUMNS) if table.suffix == ".tsv" else _release_frame(table)
        by_index = image_index(frame)  # TSV rows may point at another row's image
        first = 2 if table.suffix == ".tsv" else 1  # a TSV's header is line 1
        for number, row in enumerate(frame.to_dict(orient="records"), start=first):
            sample_id = str(row.get("index", row.get("id", number - first)))
            try:
                item = _item(f"{part}:{sample_id}", part, row, (table, root, by_index))
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
                continue
            ids.keep(loaded, item, str(table), number, "index" if "index" in row else "id", sample_id)
    return loaded


def _release_frame(table: Path) -> pd.DataFrame:
    try:
        if table.suffix == ".parquet":
            frame = pd.read_parquet(table)
        else:
            frame = pd.read_json(table, lines=table.suffix == ".jsonl", dtype=False)
    except (OSError, ValueError) as error:
        raise unreadable(table, error) from None
    check_columns(table, frame.columns, COLUMNS)
    return frame


def _listed(value: Any, sample_id: str, field: str) -> list[str]:
    """Return a list field: a list/array as is, or its JSON / Python-literal text (EASI writes both)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            try:
                value = ast.literal_eval(value)  # literals only: no code runs
            except (ValueError, SyntaxError):
                raise MalformedSampleError(sample_id, field, "not a list") from None
    if value is None or isinstance(value, (str, bytes, Mapping)):
        raise MalformedSampleError(sample_id, field, "not a list")
    return [str(v) for v in list(value)]


Source = tuple[Path, Path, Mapping[str, str]]
"""(table, data folder, TSV index → image) of the rows being read."""


def _media(row: Mapping[str, Any], part: str, source: Source, sample_id: str) -> tuple[MediaRef, ...]:
    table, root, by_index = source
    kind = MediaKind.VIDEO if part == "video" else MediaKind.IMAGE
    if table.suffix == ".tsv" and part == "image":
        return tsv_images(row, table, by_index)
    field = "video_path" if table.suffix == ".tsv" else "visual"
    paths = _listed(row.get(field), sample_id, field)
    return tuple(MediaRef(kind=kind, path=str(root / p)) for p in (paths[:1] if part == "video" else paths))


def _item(sample_id: str, part: str, row: Mapping[str, Any], source: Source) -> Item:
    field = "candidates" if source[0].suffix == ".tsv" and part == "video" else "options"
    texts = _listed(row.get(field), sample_id, field)
    options = tuple(f"{chr(65 + k)}. {text}" for k, text in enumerate(texts))
    answer = str(row.get("answer", "")).strip()
    if len(answer) != 1 or not "A" <= answer < chr(65 + len(options)):
        raise MalformedSampleError(
            sample_id, "answer", f"{answer!r} is not one of the {len(options)} options"
        )
    for name in ("question", "category"):
        if not str(row.get(name) or "").strip():
            raise MalformedSampleError(sample_id, name, "missing or empty")
    media = _media(row, part, source, sample_id)
    if not media:
        raise MalformedSampleError(sample_id, "visual", "no image or video")
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=str(row["category"]).strip(),
        question=str(row["question"]).strip(),
        options=options,
        ground_truth=answer,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=media,
        dataset=part,
        metadata={"source": str(row.get("dataset") or "")},
    )
