"""A predictions file none of whose rows has an id or a response field: a usage error, said in one line.

``score`` (and ``breakdown``) used to list every row as skipped and exit 1 ("nothing was scored"), as for
predictions that match no item. A file without the columns cannot be scored at all: :func:`unusable_columns`
says which fields the file has against those expected, and the command exits 2.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from spatialbench.records.files import read_records
from spatialbench.scoring.prediction_tables import describe_table, table_columns
from spatialbench.scoring.predictions import RESPONSE_FIELDS, Predictions

_LOOKED_AT = 100  # JSONL records whose fields are collected
EXPECTED_FIELDS = "'id' and a response field (response, prediction, model_answer or *_answer) on each line"
"""The fields a JSONL prediction line needs, as the message says them."""


def unusable_columns(read: Predictions, response_field: str | None = None) -> str | None:
    """Return why no prediction was read when the file lacks the id or response column, else None.

    Only a JSONL or JSON file or a table, of which no row was usable and some row was readable:
    ``"expected ...; found: a, b"`` (a table: :func:`~.prediction_tables.describe_table`).
    """
    source = read.source
    if read.responses or not read.errors or not isinstance(source, Path) or not source.is_file():
        return None
    if read.format == "table":
        columns = table_columns(source)
        ids = bool({"id", "index"} & set(columns)) or {"scene_name", "question"} <= set(columns)
    elif read.format in ("jsonl", "export"):  # export: a JSON list of records (an annotation file, too)
        columns = _jsonl_fields(source)
        ids = "id" in columns
    else:
        return None
    if not columns or (ids and _has_response(columns, response_field)):
        return None
    if read.format == "table":
        return describe_table(source)
    return f"expected {EXPECTED_FIELDS}; found: {', '.join(columns)}"


def _has_response(columns: list[str], chosen: str | None) -> bool:
    if chosen is not None:
        return chosen in columns
    return any(c in RESPONSE_FIELDS or c.endswith("_answer") for c in columns)


def _jsonl_fields(path: Path) -> list[str]:
    """Return the fields of the first readable records of a JSONL (or JSON list) file, in first-seen order."""
    fields: dict[str, None] = {}
    records = (entry[2] for entry in read_records(path) if isinstance(entry, tuple))
    for record in islice(records, _LOOKED_AT):
        fields.update(dict.fromkeys(str(k) for k in record))
    return list(fields)

