"""A table of accuracy per metadata column (source, duration) counts every question under its Avg.

The report prints Avg.'s n and interval from the questions its columns cover: a table grouped by
``dataset`` but keyed by task left every task "other", so EmbSpatial-Bench's and VSI-SUPER's Avg. showed
no n and no interval (issue 24, leaderboard screenshots).
"""

from __future__ import annotations

import pandas as pd
import pytest

from spatialbench.benchmarks.shared.choice import column_table
from spatialbench.scoring.uncertainty import table_ci


def _rows() -> pd.DataFrame:
    # by hand: mp3d 2 of 3 right, scannet 1 of 2 -> Avg. 3 of 5 = 60 %
    return pd.DataFrame({
        "id": [f"q{k}" for k in range(5)], "task": ["left", "right", "far", "left", "close"],
        "dataset": ["mp3d", "mp3d", "mp3d", "scannet", "scannet"], "scene_id": ["a", "b", "c", "d", "e"],
        "score": [1.0, 1.0, 0.0, 1.0, 0.0], "answered": [True] * 5,
    })


def test_a_source_table_covers_every_question() -> None:
    table = column_table(_rows(), "dataset", ("mp3d", "scannet"))
    assert table.average == pytest.approx(60.0)
    assert table.counts == {"mp3d": 3, "scannet": 2} and table.other_tasks == ()
    low, high = table_ci(table)["overall"]
    assert low <= 60.0 <= high
