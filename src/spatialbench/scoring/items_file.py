"""``items.csv``: one row per scored item, written in chunks straight to the file (never one big text).

Columns :data:`CSV_COLUMNS`, quoted as :data:`~spatialbench.scoring.render.CSV_OPTIONS`; text cells that
start like a spreadsheet formula are escaped (:func:`~spatialbench.scoring.render.spreadsheet_safe`). The
bytes are those ``DataFrame.to_csv`` wrote before (a missing value is ``""``, numbers bare as ``repr``
writes them, booleans ``True`` / ``False``), as ``csv.writer`` with ``QUOTE_NONNUMERIC`` writes them: a
text cell in double quotes with its quotes doubled, any other number as ``str`` gives it.

Each cell's text is made per column, :data:`CHUNK` rows at a time: an Arrow text column by Arrow compute
(escape, double the quotes, add the quotes: C passes), a numeric column once per distinct value, any other
column cell by cell; the cells are joined into lines by Arrow (a million rows: ~0.6 s instead of the csv
module's ~3.5 s).
"""

from __future__ import annotations

import io
from itertools import repeat
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from spatialbench.scoring.render import FORMULA_STARTS

CSV_COLUMNS = ("id", "task", "prediction", "extracted", "score", "rule", "ground_truth", "dataset", "pruned",
               "scene_id", "n_options")
CHUNK = 65_536
"""Rows converted and written at a time."""
_QUOTE, _APOSTROPHE, _NOTHING, _COMMA, _NEWLINE = (
    pa.scalar(s, pa.large_string()) for s in ('"', "'", "", ",", "\n"))
_FORMULA = "^[" + "".join("\\" + c if c in "-^]\\" else c for c in FORMULA_STARTS) + "]"
"""A text starting like a formula (one of ``FORMULA_STARTS``, each a single character)."""
assert all(len(start) == 1 for start in FORMULA_STARTS)


def write_items_csv(rows: pd.DataFrame, handle: TextIO) -> None:
    """Write the ``items.csv`` of score rows (columns :data:`CSV_COLUMNS` among them) to ``handle``.

    ``handle``: a text file opened with ``newline=""`` (the writer ends each line itself).
    """
    handle.write(",".join(_quoted(name) for name in CSV_COLUMNS) + "\n")
    frame = rows.loc[:, list(CSV_COLUMNS)]
    repeats = [_repeats(frame[name].iloc[:CHUNK]) for name in CSV_COLUMNS]
    for start in range(0, len(frame), CHUNK):
        part = frame.iloc[start:start + CHUNK]
        cells = [_cells(part[name], by_value) for name, by_value in zip(CSV_COLUMNS, repeats, strict=True)]
        cells[-1] = pc.binary_join_element_wise(cells[-1], _NEWLINE, _NOTHING)
        handle.write(_text(pc.binary_join_element_wise(*cells, _COMMA)))


def _text(lines: pa.Array) -> str:
    """All of ``lines`` (a large-string array without nulls) as one text: its data buffer, decoded once."""
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
    data = lines.buffers()[2]
    return "" if data is None else data.to_pybytes()[offsets[0]:offsets[-1]].decode("utf-8")


def items_csv_text(rows: pd.DataFrame) -> str:
    """Return the ``items.csv`` text of score rows (:func:`write_items_csv` into a string)."""
    buffer = io.StringIO(newline="")
    write_items_csv(rows, buffer)
    return buffer.getvalue()


def _repeats(column: pd.Series) -> bool:
    """Say whether ``column`` is an Arrow text column whose values repeat (fewer distinct than half)."""
    if not isinstance(column.array, pd.arrays.ArrowStringArray) or not len(column):
        return False
    return len(pc.unique(pa.array(column.array))) * 2 <= len(column)


def _cells(column: pd.Series, by_value: bool = False) -> pa.Array:
    """Return each cell of ``column`` as the CSV writer writes it (a large-string Arrow array).

    ``by_value``: an Arrow text column whose values repeat (task, scene, rule...) has each distinct
    value's cell made once (the Arrow passes run over its distinct values, then a ``take``).
    """
    dtype = column.dtype
    if isinstance(column.array, pd.arrays.ArrowStringArray):
        texts = pa.array(column.array)
        if not by_value:
            return _text_cells(texts)
        encoded = pc.dictionary_encode(texts, null_encoding="encode")
        return _text_cells(encoded.dictionary).take(encoded.indices)
    if dtype.kind in "fiub":
        return pa.array(_distinct_cells(column.to_numpy()), type=pa.large_string())
    return pa.array(_object_cells(np.asarray(column, dtype=object)), type=pa.large_string())


def _distinct_cells(values: np.ndarray) -> np.ndarray:
    """Return the cells of a numeric array (texts, an object array): each distinct value formatted once."""
    distinct, where = np.unique(values, return_inverse=True)
    texts = np.array([_cell(value) for value in distinct.tolist()] or [""], dtype=object)
    return texts[where.reshape(-1)]


def _object_cells(values: np.ndarray) -> np.ndarray:
    """Return the cells of an object array: texts, floats, bools, missing ones by kind, others one by one."""
    types = set(map(type, values))
    if len(types) == 1:  # e.g. ``pruned`` all None: one kind, no per-cell sorting
        return _KIND_CELLS[_KINDS.get(types.pop(), -1)](values)
    kinds = np.fromiter(map(_KINDS.get, map(type, values), repeat(-1)), dtype=np.int8, count=len(values))
    cells = np.empty(len(values), dtype=object)
    for kind in np.unique(kinds).tolist():
        where = np.flatnonzero(kinds == kind)
        cells[where] = _KIND_CELLS[kind](values[where])
    return cells


def _texts(values: np.ndarray) -> np.ndarray:
    try:
        texts = pa.array(values.tolist(), type=pa.large_string())
    except (pa.ArrowException, UnicodeError):  # e.g. a lone surrogate: one by one
        return np.array(list(map(_cell, values.tolist())) + [""], dtype=object)[:-1]
    return _text_cells(texts).to_numpy(zero_copy_only=False)


def _others(values: np.ndarray) -> np.ndarray:
    return np.array(list(map(_cell, values.tolist())) + [""], dtype=object)[:-1]


_KINDS = {str: 0, float: 1, bool: 2, type(None): 3}
"""Cell kinds by exact type (a subclass, e.g. ``numpy.float64``, is written as ``_cell`` writes it)."""
_KIND_CELLS = {0: _texts, 1: lambda values: _distinct_cells(values.astype(float)),
               2: lambda values: np.where(values.astype(bool), "True", "False").astype(object),
               3: lambda values: np.full(len(values), '""', dtype=object), -1: _others}


def _text_cells(texts: pa.Array) -> pa.Array:
    """Quoted text cells: missing ones ``""``, formula-like ones escaped, quotes doubled."""
    texts = texts.cast(pa.large_string())
    risky = pc.fill_null(pc.match_substring_regex(texts, _FORMULA), False)
    if pc.any(risky).as_py():
        texts = pc.if_else(risky, pc.binary_join_element_wise(_APOSTROPHE, texts, _NOTHING), texts)
    texts = pc.replace_substring(pc.fill_null(texts, ""), '"', '""')
    return pc.binary_join_element_wise(_QUOTE, texts, _QUOTE, _NOTHING)


def _cell(value: Any) -> str:
    """One cell as ``csv.writer`` (``QUOTE_NONNUMERIC``) writes it, missing values (None, NaN) ``""``."""
    if isinstance(value, str):
        return _quoted("'" + value if value.startswith(FORMULA_STARTS) else value)
    if value is None or value is pd.NA or value != value:
        return '""'
    if isinstance(value, (int, float, np.number)):  # str, as the csv module: "3.0" for numpy.float64(3.0)
        return str(value)
    return _quoted(str(value))


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'
