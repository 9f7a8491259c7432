"""Aggregation of per-item scores into a benchmark's table (one grouping combinator for all layouts).

A layout is a list of :class:`Column`: each column averages the per-item scores of one or more tasks;
a column of several tasks (VSI-Bench Rel. Dir. = easy / medium / hard) is the mean of its tasks'
means, as the official code computes it. ``Avg`` is the mean of the columns that have items, and the
table says which columns it averaged, so a missing task never silently changes its meaning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd


@dataclass(frozen=True)
class Column:
    """One column of a table: ``key`` (official name), ``label`` (header), the tasks it averages."""

    key: str
    label: str
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class ScoreTable:
    """Scores in percent, keyed by column key and by task.

    Attributes:
        columns: the layout, in display order.
        scores: column key → percent, or None when the column has no scored items.
        task_scores: task → percent for every task with scored items (including sub-types).
        counts: task → number of scored items.
        average: mean of the column scores present (percent), None when none is present.
        averaged_over: keys of the columns in ``average``.
        missing: keys of layout columns without items; ``partial`` lists columns missing a sub-task.
        other_tasks: tasks with items that no column covers (not in ``average``).
        weighting: ``"columns"`` (``average`` = mean of the column scores, VSI-Bench) or ``"questions"``
            (mean over the questions of the columns' tasks, MMSI-Video-Bench / ReMindView-Bench).
    """

    columns: tuple[Column, ...]
    scores: dict[str, float | None]
    task_scores: dict[str, float]
    counts: dict[str, int]
    average: float | None
    averaged_over: tuple[str, ...]
    missing: tuple[str, ...]
    partial: tuple[str, ...] = ()
    other_tasks: tuple[str, ...] = field(default=())
    weighting: str = "columns"

    @property
    def complete(self) -> bool:
        """True when every layout column (and every sub-task) has items."""
        return not self.missing and not self.partial


def task_means(rows: pd.DataFrame) -> tuple[dict[str, float], dict[str, int]]:
    """Mean score (fraction) and count of scored items per ``task``; rows with NaN score are skipped."""
    scored = rows[rows["score"].notna()]
    grouped = scored.groupby("task", sort=True)["score"]
    means = {str(k): float(v) for k, v in grouped.mean().items()}
    return means, {str(k): int(v) for k, v in grouped.size().items()}


def build_table(rows: pd.DataFrame, columns: Sequence[Column]) -> ScoreTable:
    """Aggregate per-item score rows (columns ``task``, ``score`` in [0, 1]) under ``columns``.

    Returns:
        A :class:`ScoreTable` with scores in percent. Never raises for missing tasks.
    """
    means, counts = task_means(rows)
    scores: dict[str, float | None] = {}
    partial = []
    for column in columns:
        present = [means[t] for t in column.tasks if t in means]
        scores[column.key] = 100.0 * sum(present) / len(present) if present else None
        if present and len(present) < len(column.tasks):
            partial.append(column.key)
    averaged = tuple(k for k, v in scores.items() if v is not None)
    average = sum(scores[k] for k in averaged) / len(averaged) if averaged else None  # type: ignore[misc]
    covered = {t for c in columns for t in c.tasks}
    return ScoreTable(
        columns=tuple(columns),
        scores=scores,
        task_scores={t: 100.0 * m for t, m in means.items()},
        counts=counts,
        average=average,
        averaged_over=averaged,
        missing=tuple(k for k, v in scores.items() if v is None),
        partial=tuple(partial),
        other_tasks=tuple(sorted(set(means) - covered)),
    )
