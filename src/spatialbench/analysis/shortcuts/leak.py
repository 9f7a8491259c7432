"""The leak check (official TsT ``check_label_invariance``): features may not read the held-out answer.

Only the held-out rows' label columns are changed (multiple choice: the gold index moves to the next
option; numbers: ``x -> 1.7 x + 1``), the features are recomputed from the same training-fold statistics,
and every feature column whose held-out values change is a leak.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from spatialbench.analysis.shortcuts.features import FeatureSet
from spatialbench.errors import SpatialBenchError


class LeakError(SpatialBenchError, ValueError):
    """A feature set reads the held-out answer; the stress-test refuses to report."""

    def __init__(self, task: str, columns: list[str]) -> None:
        super().__init__(
            f"feature leak in {task!r}: columns {', '.join(columns)} change when only the "
            "held-out answers change (check_label_invariance); nothing reported"
        )
        self.task = task
        self.columns = columns


def _changed_answers(test: pd.DataFrame) -> pd.DataFrame:
    out = test.copy()
    if (out["format"] == "mc").all():
        moved = [(g + 1) % max(len(o), 1) for g, o in zip(out["gt_idx"], out["options"], strict=True)]
        out["gt_idx"] = moved
        out["gt_val"] = [o[g] if o else "" for g, o in zip(moved, out["options"], strict=True)]
    else:
        out["gt_num"] = out["gt_num"] * 1.7 + 1.0
        out["gt_val"] = out["gt_num"].map(repr)
        out["log_gt"] = np.log10(out["gt_num"] + 1.0)
    return out


def check_label_invariance(features: FeatureSet, train: pd.DataFrame, test: pd.DataFrame) -> list[str]:
    """Feature columns of ``test`` that change when only ``test``'s answers change; ``[]`` when leak-free.

    Args:
        features: the feature set; ``train`` and ``test`` already carry its key columns.
        train: training-fold rows, a question table.
        test: held-out rows, a question table (:func:`.table.question_table` rows).
    """
    maps = features.fit(train)
    cols = list(features.columns)
    before = features.transform(maps, test)[cols].reset_index(drop=True)
    after = features.transform(maps, _changed_answers(test))[cols].reset_index(drop=True)
    changed = []
    for column in cols:
        a, b = before[column], after[column]
        same = (a == b) | (a.isna() & b.isna())
        if not bool(same.all()):
            changed.append(column)
    return changed
