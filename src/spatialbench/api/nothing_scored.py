"""Why a score call scored nothing: no prediction read, or none matching an item (NothingScoredError's text).

One sentence naming the file and what it held: a table's columns against the ones expected, ids written as
decimals (pandas' floats for an integer column with gaps), or the wrong annotation file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spatialbench.scoring.predictions import Predictions
from spatialbench.scoring.scorer import ScoreResult


def nothing_scored(
    read: Predictions, result: ScoreResult, predictions: Path | None, annotations: Path
) -> str | None:
    """Return the error when no prediction was read or none matched an item, else None."""
    if read.format == "baseline":
        return None  # a baseline run's answers come from the items
    if not read.responses and not read.errors:
        return f"no usable prediction in {predictions}: the file has no rows"
    if not read.responses:
        return f"no usable prediction in {predictions} ({len(read.errors)} rows skipped, listed above)" + (
            f"; {_table_found(predictions)}" if read.format == "table" else "")
    if len(read.responses) == len(result.unmatched_predictions):
        shown = ", ".join(result.unmatched_predictions[:5])
        return (f"none of the {len(read.responses)} predictions in {predictions} matches an item of "
                f"{annotations} (ids such as {shown}); {_id_hint(result.unmatched_predictions)}")
    return None


def _table_found(predictions: Path | None) -> str:
    """Return what a prediction table holds against what is expected (a folder: the table in it)."""
    from spatialbench.scoring.prediction_tables import TABLE_SUFFIXES, describe_table

    if predictions is None:
        return ""
    inside = predictions.iterdir() if predictions.is_dir() else ()  # a folder is read when it holds one table
    tables = sorted(p for p in inside if p.suffix.lower() in TABLE_SUFFIXES) or [predictions]
    return describe_table(tables[0]) if tables[0].is_file() else ""


def _id_hint(unmatched: Sequence[str]) -> str:
    """Why no id matched: decimals for whole numbers (pandas writes an int column with gaps as float)."""
    if all(i.endswith(".0") and i[:-2].lstrip("-").isdigit() for i in unmatched):
        return ("the ids are written as decimals (0.0, 1.0, ...): write the id column as whole numbers "
                "(pandas turns an integer column with empty cells into floats)")
    return "wrong annotation file?"
