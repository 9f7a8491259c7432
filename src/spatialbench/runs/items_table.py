"""A run's ``items.csv`` as scored: its ``score`` cells are numbers (or empty) before anything averages them.

A hand-edited or foreign ``items.csv`` with a word in a score cell made ``compare`` and ``report`` fail in
pandas (``dtype 'str' does not support operation 'mean'``); it is refused where the table is read, naming
the run, the column and the first item.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from spatialbench.runs.checks import RunFolderError


def check_numeric_scores(rows: pd.DataFrame, path: Path) -> None:
    """Refuse ``rows`` (``items.csv`` at ``path``) whose ``score`` column holds a value that is no number.

    Raises:
        RunFolderError: names the file, the column, the first such item and its value.
    """
    scores = pd.to_numeric(rows["score"], errors="coerce")
    bad = rows["score"].notna() & scores.isna()
    if bad.any():
        first = rows[bad].iloc[0]
        raise RunFolderError(f"{path}: column score, item {first['id']}: {first['score']!r} is not a number "
                             f"({int(bad.sum())} such cell(s)); re-score the run (spatialbench score --run)")
