"""What a benchmark scores with: extractors per extraction mode, the default mode and its table.

Scoring knows no benchmark: a benchmark package builds one :class:`ScoringRules` value (its own extractors
live in its folder) and hands it to :func:`spatialbench.scoring.scorer.score_items`. ``STANDARD_MODES`` are
VSI-Bench's ``official`` and ``robust`` modes; :data:`PER_TASK` scores any items by task (one column per
task, Avg. = mean of the tasks), for callers that need per-task scores and no benchmark layout.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import pandas as pd

from spatialbench.records.item import Item
from spatialbench.scoring.extraction import ChoiceExtractor, NumberExtractor, official_choice, official_number
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.peer_lmms_eval import lmms_eval_073_choice, lmms_eval_073_number
from spatialbench.scoring.peer_vlmevalkit import vlmevalkit_choice, vlmevalkit_number
from spatialbench.scoring.robust_choice import robust_choice
from spatialbench.scoring.robust_number import question_unit, robust_number

TableFn = Callable[[pd.DataFrame], Table]
"""Aggregates per-item score rows (columns ``id``, ``task``, ``dataset``, ``score``, ...) into a table."""
ResponseScorer = Callable[[Item, "str | None", str], tuple[object, str, float]]
"""(item, its response or None, MRA mode) -> (the value read, the rule that read it, the score in [0, 1])."""


def whole_question(question: str) -> str:
    """Return ``question``: a number reader that may use any of its text."""
    return question


def no_question(question: str) -> None:
    """Return None: a number reader that ignores the question (the official first-token reader)."""
    return None


@dataclass(frozen=True)
class Extractors:
    """The answer readers of one extraction mode: letters for multiple choice, numbers for numerical.

    ``question_key``: all of the question that ``number`` reads (``number(text, q1) == number(text, q2)``
    whenever the keys of ``q1`` and ``q2`` are equal), so that the scorer reads each response once per
    key rather than once per question: the robust reader uses only the unit asked for
    (:func:`~spatialbench.scoring.robust_number.question_unit`), the official one nothing.
    """

    choice: ChoiceExtractor
    number: NumberExtractor
    question_key: Callable[[str], Hashable] = whole_question


@dataclass(frozen=True)
class ColumnGroup:
    """A header over adjacent columns of a benchmark's score table: the top header row of its paper's table.

    Attributes:
        label: as the paper prints it (``Spatial Construction``). keys: the cell keys under it.
    """

    label: str
    keys: tuple[str, ...]


@dataclass(frozen=True)
class ScoringRules:
    """How one benchmark's answers are read and tabulated.

    Attributes:
        name: what is scored, printed above its tables (the benchmark's name).
        table: per-item score rows → the benchmark's table.
        modes: extraction mode name → its extractors. default_mode: the mode of new runs.
        column_groups: headers over the table's cells, as its paper groups them (VSI-Bench Fig. 6 by answer
            kind, MMSI-Video-Bench Table 2 by main category); () = one header row.
        score_response: scores each item from its whole response instead of extractors then a metric, for
            answers that are neither one letter nor one number (VSI-SUPER's streaming counts: a list).
    """

    name: str
    table: TableFn
    modes: Mapping[str, Extractors]
    default_mode: str = "robust"
    column_groups: tuple[ColumnGroup, ...] = ()
    score_response: ResponseScorer | None = None

    def group_of(self, key: str) -> str:
        """Return the label of the column group holding cell ``key`` ("" when none does)."""
        return next((g.label for g in self.column_groups if key in g.keys), "")

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
    "official": Extractors(official_choice, official_number, no_question),
    "robust": Extractors(robust_choice, robust_number, question_unit),
}


PEER_MODES: Mapping[str, Extractors] = {
    "lmms-eval-0.7.2": STANDARD_MODES["official"],
    "lmms-eval-0.7.3": Extractors(lmms_eval_073_choice, lmms_eval_073_number, no_question),
    "vlmevalkit": Extractors(vlmevalkit_choice, vlmevalkit_number, no_question),
}
"""VSI-Bench as the peer toolkits score it, by version (lmms-eval v0.6–v0.7.2 read like ``official``)."""


def task_table(rows: pd.DataFrame) -> Table:
    """One column per task present (task order), Avg. = mean of the task scores."""
    tasks = sorted({str(t) for t in rows["task"]})
    return grouped(rows, [Group.of(t, task=t) for t in tasks], weighting="columns")


PER_TASK = ScoringRules(name="tasks", table=task_table, modes=STANDARD_MODES)
