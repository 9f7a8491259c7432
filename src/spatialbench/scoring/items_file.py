"""``items.csv``: one row per scored item, written in chunks straight to the file (never one big text).

Columns :data:`CSV_COLUMNS`, quoted as :data:`~spatialbench.scoring.render.CSV_OPTIONS`; text cells that
start like a spreadsheet formula are escaped (:func:`~spatialbench.scoring.render.spreadsheet_safe`). The
bytes are those ``DataFrame.to_csv`` wrote before (a missing value is ``""``, numbers bare as ``repr``
writes them, booleans ``True`` / ``False``), as ``csv.writer`` with ``QUOTE_NONNUMERIC`` writes them: a
text cell in double quotes with its quotes doubled, any other number as ``str`` gives it.

Each column is read once, before the first line: an Arrow text column of mostly distinct values (the ids)
is escaped :data:`CHUNK` rows at a time by Arrow compute (C passes); any other column becomes its distinct
values' cells, each made once, and each row's index among them (a numeric column keyed by its bits, so
``-0.0`` stays ``-0.0``; an object column of texts and floats by one hashed pass, any other per kind of
cell, so ``True`` is not ``1``), taken :data:`CHUNK` rows at a time. The cells are joined into lines by
Arrow (a million rows: ~0.7 s CPU instead of the csv module's ~3.5 s).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from itertools import repeat
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from spatialbench.scoring.render import FORMULA_STARTS
from spatialbench.scoring.row_frame import arrow_texts

CSV_COLUMNS = ("id", "task", "prediction", "extracted", "score", "rule", "ground_truth", "dataset", "pruned",
               "scene_id", "n_options")
CHUNK = 65_536
"""Rows converted and written at a time."""
_QUOTE, _APOSTROPHE, _NOTHING, _COMMA = (pa.scalar(s, pa.large_string()) for s in ('"', "'", "", ","))
_FORMULA = "^[" + "".join("\\" + c if c in "-^]\\" else c for c in FORMULA_STARTS) + "]"
"""A text starting like a formula (one of ``FORMULA_STARTS``, each a single character)."""
assert all(len(start) == 1 and start.isascii() for start in FORMULA_STARTS)
_FORMULA_BYTES = np.zeros(256, dtype=bool)
"""Whether a text's first byte is one of ``FORMULA_STARTS`` (ASCII: a byte is the character)."""
_FORMULA_BYTES[list("".join(FORMULA_STARTS).encode())] = True


def write_items_csv(rows: pd.DataFrame, handle: TextIO) -> None:
    """Write the ``items.csv`` of score rows (columns :data:`CSV_COLUMNS` among them) to ``handle``.

    ``handle``: a text file opened with ``newline=""`` (the writer ends each line itself).
    """
    handle.write(",".join(_quoted(name) for name in CSV_COLUMNS) + "\n")
    if not len(rows):
        return
    columns = [_column(rows[name], "\n" if name == CSV_COLUMNS[-1] else "") for name in CSV_COLUMNS]
    for start in range(0, len(rows), CHUNK):
        cells = [found.cells(start, start + CHUNK) for found in columns]
        handle.write(_text(pc.binary_join_element_wise(*cells, _COMMA)))


def _text(lines: pa.Array) -> str:
    """All of ``lines`` (a large-string array without nulls) as one text: its data buffer, decoded once."""
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
    data = lines.buffers()[2]
    return "" if data is None else str(memoryview(data)[offsets[0]:offsets[-1]], "utf-8")


def items_csv_text(rows: pd.DataFrame) -> str:
    """Return the ``items.csv`` text of score rows (:func:`write_items_csv` into a string)."""
    buffer = io.StringIO(newline="")
    write_items_csv(rows, buffer)
    return buffer.getvalue()


@dataclass(frozen=True)
class _Texts:
    """A text column of mostly distinct values, escaped a chunk at a time; each cell ends with ``end``."""

    texts: pa.Array
    end: pa.Scalar

    def cells(self, start: int, stop: int) -> pa.Array:
        return pc.binary_join_element_wise(_QUOTE, _escaped(self.texts[start:stop]), self.end, _NOTHING)


@dataclass(frozen=True)
class _Coded:
    """A column as its distinct values' cells (``dictionary``) and each row's index among them (``codes``)."""

    dictionary: pa.Array
    codes: np.ndarray

    def cells(self, start: int, stop: int) -> pa.Array:
        return self.dictionary.take(self.codes[start:stop])


def _column(column: pd.Series, end: str) -> _Texts | _Coded:
    """Return ``column``'s cells as the CSV writer writes them, each followed by ``end`` (the line's end).

    Made once per column, then taken a chunk at a time (:class:`_Texts`, :class:`_Coded`).
    """
    if isinstance(column.array, pd.arrays.ArrowStringArray):
        texts = arrow_texts(column).cast(pa.large_string())  # one array (its buffers are read)
        # a column whose values repeat (task, scene, rule...) has each distinct value's cell made once
        if len(pc.unique(texts[:CHUNK])) * 2 > min(len(texts), CHUNK):
            return _Texts(texts, pa.scalar('"' + end, pa.large_string()))
        encoded = pc.dictionary_encode(texts, null_encoding="encode")
        cells = _text_cells(encoded.dictionary)
        codes = encoded.indices.to_numpy()
    else:
        values = column.to_numpy()
        numeric = values.dtype.kind in "fiub"
        found, codes = _numbers(values) if numeric else _objects(values.astype(object, copy=False))
        cells = pa.array(found, type=pa.large_string())
    return _Coded(pc.binary_join_element_wise(cells, pa.scalar(end, pa.large_string()), _NOTHING), codes)


def _numbers(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Return the cells of a numeric array's distinct values and each value's index among them.

    Floats are told apart by their bits (``0.0`` and ``-0.0`` compare equal but are written apart).
    """
    if values.dtype.kind != "f":
        codes, distinct = pd.factorize(values)
        return [_cell(value) for value in distinct.tolist()], codes
    codes, bits = pd.factorize(np.asarray(values, dtype=np.float64).view(np.int64))
    return [_cell(value) for value in bits.view(np.float64).tolist()], codes


def _objects(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Return the cells of an object array's distinct values and each value's index among them.

    Texts, floats and missing values (an ``extracted`` column) are coded in one hashed pass
    (:func:`_texts_and_floats`); any other mix per kind (texts, floats, bools, missing ones, others one by
    one): ``True == 1``, yet they are written apart.
    """
    if pd.isna(values).all():  # e.g. ``pruned`` without pruned ids: None, NaN, NA... all written ""
        return _missing(values)
    coded = _texts_and_floats(values)
    if coded is not None:
        return coded
    types = set(map(type, values))
    if len(types) == 1:  # one kind: no kind per cell
        return _KIND_CELLS[_KINDS.get(types.pop(), -1)](values)
    kinds = np.fromiter(map(_KINDS.get, map(type, values), repeat(-1)), dtype=np.int8, count=len(values))
    cells: list[str] = []
    codes = np.empty(len(values), dtype=np.intp)
    for kind in np.unique(kinds).tolist():
        where = np.flatnonzero(kinds == kind)
        found, kind_codes = _KIND_CELLS[kind](values[where])
        codes[where] = kind_codes + len(cells)
        cells += found
    return cells, codes


def _texts_and_floats(values: np.ndarray) -> tuple[list[str], np.ndarray] | None:
    """Code an object array of texts, floats and missing values by its distinct values; None for others.

    A hash takes equal values for one value: a text only equals a text, but ``1.0 == True`` and
    ``0.0 == -0.0``, so the rows whose value is no text must all be floats; they are coded by their bits.
    """
    try:
        codes, distinct = pd.factorize(values)  # missing ones (None, NaN) coded -1
    except TypeError:  # an unhashable value (a list)
        return None
    is_text = np.fromiter(map(isinstance, distinct, repeat(str)), dtype=bool, count=len(distinct))
    numbers = np.flatnonzero(~np.append(is_text, True)[codes])  # a missing value's -1: the appended True
    if not set(map(type, values[numbers])) <= {float}:
        return None
    texts, text_codes = _texts(distinct[is_text])
    floats, float_codes = _numbers(values[numbers].astype(float))
    cell_of = np.zeros(len(distinct) + 1, dtype=np.intp)  # by code + 1; a missing value's cell first
    cell_of[1:][is_text] = 1 + text_codes
    found = cell_of[codes + 1]
    found[numbers] = 1 + len(texts) + float_codes
    return ['""', *texts, *floats], found


def _texts(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    codes, distinct = pd.factorize(values)
    try:
        texts = pa.array(distinct.tolist(), type=pa.large_string())
    except (pa.ArrowException, UnicodeError):  # e.g. a lone surrogate: one by one
        return list(map(_cell, distinct.tolist())), codes
    return _text_cells(texts).to_pylist(), codes


def _others(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    return list(map(_cell, values.tolist())), np.arange(len(values))


def _missing(values: np.ndarray) -> tuple[list[str], np.ndarray]:
    return ['""'], np.zeros(len(values), dtype=np.intp)


_KINDS = {str: 0, float: 1, bool: 2, type(None): 3}
"""Cell kinds by exact type (a subclass, e.g. ``numpy.float64``, is written as ``_cell`` writes it)."""
_KIND_CELLS = {0: _texts, 1: lambda values: _numbers(values.astype(float)),
               2: lambda values: _numbers(values.astype(bool)),
               3: _missing, -1: _others}


def _escaped(texts: pa.Array) -> pa.Array:
    """Texts as written between quotes: formula-like ones escaped, quotes doubled, missing ones empty."""
    if _plain(texts):  # the usual case (ids): no pass over the texts
        return pc.fill_null(texts, "")
    risky = pc.fill_null(pc.match_substring_regex(texts, _FORMULA), False)
    if pc.any(risky).as_py():
        texts = pc.if_else(risky, pc.binary_join_element_wise(_APOSTROPHE, texts, _NOTHING), texts)
    return pc.replace_substring(pc.fill_null(texts, ""), '"', '""')


def _plain(texts: pa.Array) -> bool:
    """Say whether no text of ``texts`` (large strings) starts like a formula or holds a quote.

    Read from the data buffer (each text's first byte, then every byte), not text by text; a missing text
    whose slot holds bytes can only make the answer a needless False.
    """
    data = texts.buffers()[2]
    if data is None:
        return True
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)[texts.offset:texts.offset + len(texts) + 1]
    text = np.frombuffer(data, dtype=np.uint8)[offsets[0]:offsets[-1]]
    starts = offsets[:-1][offsets[1:] > offsets[:-1]] - offsets[0]
    return not _FORMULA_BYTES[text[starts]].any() and not (text == ord('"')).any()


def _text_cells(texts: pa.Array) -> pa.Array:
    """Quoted text cells: missing ones ``""``, formula-like ones escaped, quotes doubled."""
    return pc.binary_join_element_wise(_QUOTE, _escaped(texts.cast(pa.large_string())), _QUOTE, _NOTHING)


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
