"""Each benchmark's leaderboard header groups (``ScoringRules.column_groups``) cover its score table's columns
in order, as its paper's table groups them."""

from __future__ import annotations

import pandas as pd
import pytest

from spatialbench.benchmarks import get_benchmark
from spatialbench.scoring.scorer import ROW_COLUMNS


def _keys(name: str) -> list[str]:
    rules = get_benchmark(name).scoring
    return [c.key for c in rules.table(pd.DataFrame({c: [] for c in ROW_COLUMNS})).cells]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("vsibench", [("Numerical Answer", 4), ("Multiple-Choice Answer", 4)]),  # Fig. 6
        ("mmsi-video", [("Spatial Construction", 6), ("Motion Understanding", 3), ("Cross-Video", 2),
                        ("Planning", 1), ("Prediction", 1)]),  # Table 2
        ("remindview", [("Relation", 3), ("Query Type", 2)]),  # Table 1's caption: V–V/V–O/O–O, Dir./Dis.
        ("revsi", [("Numerical Answer", 4), ("Multiple-Choice Answer", 3)]),  # VSI-Bench's Fig. 6 layout
    ],
)
def test_groups_span_the_table_columns_in_order(name: str, expected: list[tuple[str, int]]) -> None:
    rules = get_benchmark(name).scoring
    labels = [rules.group_of(key) for key in _keys(name)]
    spans = [(label, labels.count(label)) for label in dict.fromkeys(labels)]
    assert spans == expected
    assert labels == [label for label, n in expected for _ in range(n)]  # adjacent: one header each
