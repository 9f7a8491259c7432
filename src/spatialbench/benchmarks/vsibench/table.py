"""VSI-Bench's table (Fig. 6 / Table 1): 8 task columns, Rel. Dir. = mean of its 3 sub-types, Avg."""

from __future__ import annotations

import pandas as pd

from spatialbench.benchmarks.vsibench.format import NA_TASKS, REL_DIRECTION_TASKS
from spatialbench.scoring.grouped import Group, Table, grouped
from spatialbench.scoring.rules import ColumnGroup

#: paper column order; keys are the official task names (``object_rel_direction`` for the three sub-types)
COLUMNS = (
    Group.of("Obj. Count", "object_counting", task="object_counting"),
    Group.of("Abs. Dist.", "object_abs_distance", task="object_abs_distance"),
    Group.of("Obj. Size", "object_size_estimation", task="object_size_estimation"),
    Group.of("Room Size", "room_size_estimation", task="room_size_estimation"),
    Group.of("Rel. Dist.", "object_rel_distance", task="object_rel_distance"),
    Group.of("Rel. Dir.", "object_rel_direction", task=REL_DIRECTION_TASKS),
    Group.of("Route Plan", "route_planning", task="route_planning"),
    Group.of("Appr. Order", "obj_appearance_order", task="obj_appearance_order"),
)

#: Fig. 6's top header row: the four numerical tasks, then the four multiple-choice columns
COLUMN_GROUPS = (
    ColumnGroup("Numerical Answer", tuple(c.key for c in COLUMNS if c.key in NA_TASKS)),
    ColumnGroup("Multiple-Choice Answer", tuple(c.key for c in COLUMNS if c.key not in NA_TASKS)),
)


def vsibench_table(rows: pd.DataFrame) -> Table:
    """Aggregate per-item score rows into the paper's layout.

    A column of several tasks (Rel. Dir.) is the mean of its tasks' means and Avg. the mean of the columns
    present, as the official code computes.
    """
    return grouped(rows, COLUMNS, weighting="columns")
