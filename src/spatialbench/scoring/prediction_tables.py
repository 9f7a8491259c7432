"""Prediction tables: CSV (``id,response``), TSV and Excel files such as VLMEvalKit's result ``.xlsx``.

Each data row becomes one record ``(file, line, {column: text})`` like the JSON readers give, so the same
field rules apply (:mod:`spatialbench.scoring.predictions`). ``line`` is the spreadsheet row (the header
is row 1, so the first data row is 2; for CSV the file line where the row ends). Every cell is read as
text, exactly as written (``'2'`` stays ``"2"``, never ``2.0``).

* CSV / TSV: UTF-8, a byte-order mark is dropped; ``.tsv`` (or a ``.csv`` whose header line holds tabs
  and no comma — VLMEvalKit writes its score "csv" tab-separated) is tab-separated. A row that is not
  UTF-8 is a :class:`RowError` naming its line and byte; the other rows are read. Cells may be long
  (up to ``MAX_CELL_CHARS``, above the csv module's default of 131,072).
* Excel (``.xlsx``): the first sheet (``openpyxl``); VLMEvalKit's prediction file has the columns of
  its input table plus ``prediction`` (its ``index`` column is the item id).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

from spatialbench.records.files import Record, utf8_bytes
from spatialbench.records.rows import RowError

TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx")
MAX_CELL_CHARS = 2**31 - 1
"""Longest CSV cell read (the csv module's default limit, 131,072 characters, is below long replies)."""
_UNDECODED = re.compile("[\udc80-\udcff]")


def _delimiter(path: Path, text: str) -> str:
    header = text.split("\n", 1)[0]
    tabbed = "\t" in header and "," not in header
    return "\t" if path.suffix.lower() == ".tsv" or tabbed else ","


def _bad_bytes(row: list[str]) -> str | None:
    """Return the message for a row holding bytes that were not UTF-8, else None."""
    for column, cell in enumerate(row, start=1):
        found = _UNDECODED.search(cell)
        if found:
            byte = ord(found.group()) - 0xDC00
            return f"not UTF-8 text (byte 0x{byte:02x} in column {column}); save the file as UTF-8"
    return None


def _csv_rows(path: Path) -> Iterator[Record | RowError]:
    data, problem = utf8_bytes(path)
    if problem:
        yield RowError(str(path), 1, None, problem)
        return
    text = data.decode("utf-8", errors="surrogateescape")
    csv.field_size_limit(max(csv.field_size_limit(), MAX_CELL_CHARS))  # model replies can be long
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(path, text))
    header = next(reader, None)
    if header is None:
        return
    if _bad_bytes(header):
        yield RowError(str(path), 1, None, f"header: {_bad_bytes(header)}")
        return
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        problem = _bad_bytes(row)
        if problem:
            yield RowError(str(path), reader.line_num, None, problem)
        elif len(row) > len(header):
            message = f"{len(row)} cells for {len(header)} columns ({', '.join(header)})"
            yield RowError(str(path), reader.line_num, None, message)
        else:
            yield str(path), reader.line_num, dict(zip(header, row, strict=False))


def _xlsx_rows(path: Path) -> Iterator[Record | RowError]:
    import pandas as pd

    try:
        frame = pd.read_excel(path, sheet_name=0, dtype=str, keep_default_na=False)
    except ImportError as err:  # openpyxl is what pandas reads .xlsx with
        raise ValueError(f"{path}: reading .xlsx needs openpyxl (pip install openpyxl)") from err
    except (ValueError, OSError, KeyError, zipfile.BadZipFile) as err:  # not a workbook (zip/XML damage)
        raise ValueError(f"{path}: not a readable .xlsx workbook ({err})") from err
    columns = [str(c) for c in frame.columns]
    for number, row in enumerate(frame.itertuples(index=False, name=None), start=2):
        yield str(path), number, dict(zip(columns, row, strict=True))


def read_table(path: Path) -> Iterator[Record | RowError]:
    """Yield ``(file, row, {column: text})`` or a :class:`RowError` for each data row of ``path``.

    Raises:
        ValueError: an ``.xlsx`` file that cannot be read as a workbook (or openpyxl is missing).
    """
    if path.suffix.lower() == ".xlsx":
        yield from _xlsx_rows(path)
    else:
        yield from _csv_rows(path)


EXPECTED_COLUMNS = ("an id column (id or index; else scene_name and question) and a response column "
                    "(response, prediction, model_answer or *_answer)")
"""The columns a prediction table needs (:mod:`spatialbench.scoring.predictions`), as an error says them."""


def table_columns(path: Path) -> list[str]:
    """Return a prediction table's column names (the first sheet's, for ``.xlsx``)."""
    return _header(path)[0]


def _header(path: Path) -> tuple[list[str], int, str]:
    """Return a table's columns, data rows and where they were read (``X.xlsx sheet 'Sheet1'``)."""
    if path.suffix.lower() != ".xlsx":
        text = utf8_bytes(path)[0].decode("utf-8", errors="replace")
        header = next(csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(path, text)), [])
        rows = sum(1 for _ in _csv_rows(path))
        return header, rows, path.name
    import pandas as pd

    book = pd.ExcelFile(path)
    frame = pd.read_excel(book, sheet_name=0, dtype=str, keep_default_na=False)
    names = [str(name) for name in book.sheet_names]
    others = f" (other sheets: {', '.join(names[1:])})" if len(names) > 1 else ""
    return [str(c) for c in frame.columns], len(frame), f"{path.name} sheet {names[0]!r}{others}"


def describe_table(path: Path) -> str:
    """Say what a prediction table holds against what is expected (for a table nothing was scored from).

    ``read 1 row(s) from X.xlsx sheet 'Sheet1' (other sheets: preds); expected ...; found: note``. A
    header of one column holding ``;`` is named as a semicolon-separated file.

    Raises:
        ValueError, OSError: the file cannot be read (it was read once already, so only if it changed).
    """
    columns, rows, where = _header(path)
    found = ", ".join(columns) or "no header"
    if len(columns) == 1 and ";" in columns[0]:
        found += " (one column: a semicolon-separated file? save it comma-separated)"
    return f"read {rows} row(s) from {where}; expected {EXPECTED_COLUMNS}; found: {found}"


def table_files(folder: Path) -> list[Path]:
    """List the prediction tables (:data:`TABLE_SUFFIXES`) directly in ``folder``, sorted."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in TABLE_SUFFIXES)


def file_names(files: list[Path]) -> str:
    """Name the first five files (``a.csv, b.csv ...``) for a message."""
    return ", ".join(f.name for f in files[:5]) + (" ..." if len(files) > 5 else "")


def check_folder(folder: Path) -> None:
    """Refuse a folder holding prediction tables beside other prediction files (``.jsonl`` / ``.json``).

    Raises:
        ValueError: both kinds are there (VLMEvalKit's output folder), naming the first of each.
    """
    tables = table_files(folder)
    others = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in (".jsonl", ".json"))
    if tables and others:
        raise ValueError(f"{folder}: a folder of prediction tables ({file_names(tables)}) and other "
                         f"prediction files ({file_names(others)}); give the prediction file itself")
