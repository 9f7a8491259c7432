"""The one reader of the TSV files VLMEvalKit and EASI distribute (``MMSI_Bench.tsv``, ``CV-Bench.tsv``...).

The format (VLMEvalKit ``vlmeval/smp/file.py`` ``load`` and ``ImageBaseDataset.dump_image``): a
tab-separated table with a header, one question per row, an ``index`` column, the question, lettered option
columns ``A``, ``B``, ... (empty where a question has fewer), ``answer`` (a letter) and either ``image``
or ``image_path``. ``image`` holds one base64 image, or a JSON list of them for a multi-image question;
a short value equal to another row's ``index`` means "the same image as that row" (how the kit saves
space). ``image_path`` names files instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from spatialbench.benchmarks.shared.columns import Columns, check_columns, check_kind, record_columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.benchmarks.shared.images import (
    ImagesOrError,
    from_base64,
    image_folder,
    images_or_error,
    write_images,
)
from spatialbench.records.errors import AnnotationFileError, MalformedSampleError, unreadable
from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

TableRow = tuple[int, dict[str, Any], ImagesOrError]
"""(line or row number, the row's fields, its images or the error reading them)."""

#: a value of the ``image`` column this short is the index of the row holding the image (VLMEvalKit)
_REFERENCE_LENGTH = 64


def read_tsv(path: Path, columns: Columns | None = None) -> pd.DataFrame:
    """Read a VLMEvalKit TSV file as text columns (empty cells as ``""``), in file order.

    ``columns``: those it must have and its kind, the benchmark it must belong to
    (:func:`~.columns.check_kind`, :func:`~.columns.check_columns`).

    Raises:
        AnnotationFileError (a ValueError): the file is not UTF-8, not a table, or another benchmark's.
            WrongFileError (one): not a TSV of its kind; MissingColumnError (one): a column is missing.
    """
    try:  # as VLMEvalKit's ``load`` reads it: pandas' default quoting
        frame = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    except (UnicodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise unreadable(path, error) from None
    frame.columns = [str(c).strip() for c in frame.columns]
    if columns is not None:  # the rows go with a refusal: looks_like checks other benchmarks' kinds on them
        rows = frame.to_dict(orient="records")
        check_kind(path, frame.columns, rows, columns)
        check_columns(path, frame.columns, columns, rows)
    return frame


def load_tables(
    tables: Iterable[Path],
    rows: Callable[[Path], Iterable[TableRow]],
    item: Callable[[dict[str, Any], ImagesOrError], Item],
    id_field: Callable[[Path], str] = lambda table: "index",
) -> LoadedItems:
    """Return ``item(row, images)`` for every row of every table, a row error for each it refuses.

    ``rows(table)`` yields :data:`TableRow` values; ``item`` raises MalformedSampleError for a bad row
    (its images' error included), recorded with the table and the row's number. An empty or repeated id
    is a row error too (:class:`~.ids.UniqueIds`; ``id_field(table)`` names the field in it).
    """
    loaded, ids = LoadedItems(), UniqueIds()
    for table in tables:
        for number, row, media in rows(table):
            try:
                made = item(row, media)
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), number))
                continue
            ids.keep(loaded, made, str(table), number, id_field(table))
    return loaded


def tsv_rows(table: Path, columns: Columns | None = None) -> Iterator[TableRow]:
    """Yield (line number, row, its images or the error reading them) for each row of a TSV, in order.

    Raises:
        AnnotationFileError (a ValueError): see :func:`read_tsv` (``columns`` as there).
    """
    frame = read_tsv(table, columns)
    by_index = image_index(frame)
    for number, row in enumerate(frame.to_dict(orient="records"), start=2):  # header is line 1
        yield number, row, images_or_error(tsv_images, row, table, by_index)


def jsonl_records(table: Path, benchmark: str, columns: Columns | None = None) -> list[dict[str, Any]]:
    """Return the objects of a JSON Lines file, in order (``benchmark`` names the format in the error).

    Raises:
        AnnotationFileError (a ValueError): not UTF-8 JSON, or a line that is not an object (e.g. another
            benchmark's JSON array). MissingColumnError (one): no line has a field ``columns`` requires.
    """
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as error:
        raise unreadable(table, error) from None
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:  # the line of the file, not line 1 of the one line parsed
            reason = f"invalid JSON at line {number}: {_reason(error)}"
            raise AnnotationFileError(table, reason, number) from None
        if not isinstance(record, dict):
            kind = type(record).__name__
            raise AnnotationFileError(table, f"line {number} is a JSON {kind}, not an object: "
                                      f"{benchmark} files hold one question object per line (another "
                                      "benchmark's file?)", number)
        records.append(record)
    check_columns(table, record_columns(records), columns)
    return records


def json_records(table: Path, columns: Columns | None = None) -> list[Any]:
    """Return the entries of a JSON file holding a list (objects or not: a row error names each other one).

    Raises:
        AnnotationFileError (a ValueError): not UTF-8 JSON, or not a list. MissingColumnError (one): no
            entry has a field ``columns`` requires.
    """
    try:
        entries = json.loads(table.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise unreadable(table, error) from None
    if not isinstance(entries, list):
        raise AnnotationFileError(table, f"a JSON {type(entries).__name__}, not a list of questions")
    check_columns(table, record_columns(entries), columns)
    return entries


def _reason(error: ValueError) -> str:
    """JSON's message with its column (``Unterminated string ... (column 25)``)."""
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} (column {error.colno})"
    return str(error)


def parquet_records(table: Path, columns: Columns | None = None) -> list[dict[str, Any]]:
    """Return the rows of a Parquet file as dicts, in order.

    Raises:
        AnnotationFileError (a ValueError): the file cannot be read as Parquet. MissingColumnError (one):
            it lacks a column ``columns`` requires.
    """
    try:
        frame = pd.read_parquet(table)
    except (OSError, ValueError) as error:
        raise unreadable(table, error) from None
    check_columns(table, frame.columns, columns)
    return frame.to_dict(orient="records")


def tsv_images(row: Mapping[str, Any], table: Path, by_index: Mapping[str, str]) -> tuple[MediaRef, ...]:
    """Return the image references of one TSV row, writing base64 images beside the table (once).

    ``by_index`` maps each row's ``index`` to its ``image`` value (for rows that refer to another's).

    Raises:
        MalformedSampleError: the row has no image, an unreadable JSON list or base64 text.
    """
    sample_id = str(row.get("index", ""))
    if row.get("image_path"):
        return tuple(MediaRef(kind=MediaKind.IMAGE, path=p) for p in _listed(row["image_path"], sample_id))
    value = str(row.get("image", ""))
    if value and len(value) <= _REFERENCE_LENGTH and value in by_index:  # never an empty cell's "reference"
        value = by_index[value]
    if not value:
        raise MalformedSampleError(sample_id, "image", "no image and no image_path")
    encoded = _listed(value, sample_id)
    images = [from_base64(text, sample_id) for text in encoded]
    return write_images(images, image_folder(table), sample_id)


def _listed(value: str, sample_id: str) -> list[str]:
    """Return a JSON list of strings (``["a", "b"]``) as a list, anything else as one value."""
    if not value.startswith("["):
        return [value]
    try:
        listed = json.loads(value)
    except json.JSONDecodeError as error:
        raise MalformedSampleError(sample_id, "image", f"not a JSON list ({error.msg})") from None
    return [str(v) for v in listed]


def image_index(frame: pd.DataFrame) -> dict[str, str]:
    """Map each row's ``index`` to its ``image`` value (empty when the table has no ``image`` column)."""
    if "image" not in frame.columns or "index" not in frame.columns:
        return {}
    return dict(zip(frame["index"], frame["image"], strict=True))


def option_columns(row: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the lettered options of a TSV row (``"A. text"``) from its non-empty ``A``, ``B``... columns."""
    options = []
    for letter in "ABCDEFGHIJ":
        text = str(row.get(letter, "") or "").strip()
        if not text:
            break
        options.append(f"{letter}. {text}")
    return tuple(options)


def check_suffix(path: Path, suffixes: tuple[str, ...], title: str) -> Path:
    """Return ``path`` when its suffix is one of ``suffixes``.

    Raises:
        AnnotationFileError (a ValueError): another kind of file (a ``.json`` would be read as Parquet,
            a ``.parquet`` as text); the message names the kinds ``title`` reads.
    """
    if path.suffix.lower() not in suffixes:
        kinds = ", ".join(f"*{s}" for s in suffixes)
        got = f"*{path.suffix}" if path.suffix else "a file without a suffix"
        raise AnnotationFileError(path, f"{title} reads {kinds}, not {got} (another benchmark's file?)")
    return path


def data_files(path: Path, suffixes: tuple[str, ...], title: str) -> list[Path]:
    """Return ``path`` itself, or the files of folder ``path`` ending in one of ``suffixes`` (sorted).

    Raises:
        FileNotFoundError: ``path`` does not exist, or the folder holds no such file (named by ``title``).
        AnnotationFileError (a ValueError): ``path`` is a file of another kind (:func:`check_suffix`).
    """
    if path.is_file():
        return [check_suffix(path, suffixes, title)]
    if not path.is_dir():
        raise FileNotFoundError(f"{title} data not found: {path}")
    found = sorted(p for p in path.iterdir() if p.suffix in suffixes and p.is_file())
    if not found:
        raise FileNotFoundError(f"no {title} file ({', '.join('*' + s for s in suffixes)}) in {path}")
    return found
