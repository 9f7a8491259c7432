"""What a benchmark scores with: extractors per extraction mode, the default mode and its table.

Scoring knows no benchmark: a benchmark package builds one :class:`ScoringRules` value (its own extractors
live in its folder) and hands it to :func:`spatialbench.scoring.scorer.score_items`. ``STANDARD_MODES`` are
VSI-Bench's ``official`` and ``robust`` modes; :data:`PER_TASK` scores any items by task (one column per
task, Avg. = mean of the tasks), for callers that need per-task scores and no benchmark layout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from spatialbench.scoring.extraction import ChoiceExtractor, NumberExtractor, official_choice, official_number
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.robust_choice import robust_choice
from spatialbench.scoring.robust_number import robust_number

TableFn = Callable[[pd.DataFrame], Table]
"""Aggregates per-item score rows (columns ``id``, ``task``, ``dataset``, ``score``, ...) into a table."""


@dataclass(frozen=True)
class Extractors:
    """The answer readers of one extraction mode: letters for multiple choice, numbers for numerical."""

    choice: ChoiceExtractor
    number: NumberExtractor


@dataclass(frozen=True)
class ScoringRules:
    """How one benchmark's answers are read and tabulated.

    Attributes:
        name: what is scored, printed above its tables (the benchmark's name).
        table: per-item score rows → the benchmark's table.
        modes: extraction mode name → its extractors. default_mode: the mode of new runs.
    """

    name: str
    table: TableFn
    modes: Mapping[str, Extractors]
    default_mode: str = "robust"

    def extractors(self, mode: str | None = None) -> Extractors:
        """Return the extractors of ``mode`` (None: the default mode).

        Raises:
            ValueError: ``mode`` is not one of ``modes`` (the message lists them).
        """
        chosen = mode or self.default_mode
        if chosen not in self.modes:
            allowed = ", ".join(sorted(self.modes))
            raise ValueError(f"benchmark {self.name!r} has no extraction mode {chosen!r}; allowed: {allowed}")
        return self.modes[chosen]


STANDARD_MODES: Mapping[str, Extractors] = {
    "official": Extractors(official_choice, official_number),
    "robust": Extractors(robust_choice, robust_number),
}


def task_table(rows: pd.DataFrame) -> Table:
    """One column per task present (task order), Avg. = mean of the task scores."""
    tasks = sorted({str(t) for t in rows["task"]})
    return grouped(rows, [Group.of(t, task=t) for t in tasks], weighting="columns")


PER_TASK = ScoringRules(name="tasks", table=task_table, modes=STANDARD_MODES)
