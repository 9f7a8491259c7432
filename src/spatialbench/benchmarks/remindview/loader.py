"""Load ReMindView-Bench QA tables (CSV or Parquet) into :class:`~spatialbench.records.item.Item`.

The folder a user downloads (Hugging Face release of ReMindView-Bench)::

    DIR/
      *.csv | *.parquet            # QA tables, e.g. object_centric_view_object.csv
      <frame sets>/.../level_<k>/  # images of each folder_path (relative paths resolve against DIR)

Columns and how a row becomes an item: :mod:`~spatialbench.benchmarks.remindview.format`. An item's id is
``<table stem>:<row>``. A malformed row is skipped and reported in ``LoadedItems.errors`` with its id and
field.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spatialbench.benchmarks.remindview.format import REQUIRED_COLUMNS, row_to_item
from spatialbench.benchmarks.shared.columns import Columns
from spatialbench.benchmarks.shared.ids import UniqueIds
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.rows import LoadedItems

# Declared so that another benchmark refusing a ReMindView table names this one (looks_like); the
# loader itself checks its tables' columns in _read_table.
COLUMNS = Columns("remindview", dict.fromkeys((".csv", ".parquet"), REQUIRED_COLUMNS))


def load_remindview(path: Path | str) -> LoadedItems:
    """Load every row of the QA tables at ``path`` (one CSV/Parquet file, or a folder searched recursively).

    Returns:
        Items in table and row order; ``.errors`` has one RowError per malformed row (file, line, field,
        sample id). Relative ``folder_path`` values resolve against the data folder, then the table's folder.

    Raises:
        FileNotFoundError: ``path`` does not exist or holds no table.
        ValueError: a table lacks a required column (message names the table and the columns);
            AnnotationFileError (a ValueError): a table cannot be read (not UTF-8, empty, corrupt Parquet).
    """
    path = Path(path).resolve()
    root = path.parent if path.is_file() else path
    loaded, ids = LoadedItems(), UniqueIds()
    for table in _tables(path):
        frame = _read_table(table)
        for index, row in enumerate(frame.to_dict(orient="records")):
            sample_id = f"{table.stem}:{index}"
            line = index + 2 if table.suffix == ".csv" else None  # header is line 1
            try:
                item = row_to_item(row, sample_id, (root, table.parent), table.name)
            except MalformedSampleError as error:
                loaded.errors.append(error.row_error(str(table), line))
                continue
            ids.keep(loaded, item, str(table), line)
    return loaded


def _tables(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"ReMindView-Bench data not found: {path}")
    tables = sorted(p for p in path.rglob("*") if p.suffix in (".csv", ".parquet") and p.is_file())
    if not tables:
        raise FileNotFoundError(f"no QA table (*.csv, *.parquet) under {path}")
    return tables


def _read_table(table: Path) -> pd.DataFrame:
    """Read one QA table; an unreadable table (not UTF-8, empty, corrupt) is one error naming it."""
    try:
        if table.suffix == ".parquet":
            frame = pd.read_parquet(table)
        else:
            frame = pd.read_csv(table, dtype=str, keep_default_na=False, encoding="utf-8")
    except (ValueError, OSError) as error:  # UnicodeDecodeError, EmptyDataError, ArrowInvalid are ValueErrors
        raise unreadable(table, error) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{table}: missing columns {missing}; found {list(frame.columns)}")
    return frame
