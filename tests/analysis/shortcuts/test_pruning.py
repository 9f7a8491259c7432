"""IBP removes the planted items first and beats the matched random-removal control on a planted benchmark."""

from __future__ import annotations

from spatialbench.analysis.shortcuts.pruning import iterative_bias_pruning
from support.planted_shortcuts import planted_choices


def test_ibp_removes_the_planted_items_and_beats_random_removal():
    items, marked = planted_choices(300, planted=True)
    result = iterative_bias_pruning(items, budget=150, batch_size=50, control_seeds=3)
    assert len(result.removed) == 150 and len(result.kept) == 150
    assert not set(result.removed) & set(result.kept)
    assert sum(i in marked for i in result.removed) >= 140  # 150 planted items exist
    assert [it["removed"] for it in result.groups[0]["iterations"]] == [50, 50, 50]
    assert result.before > 55.0 and result.after < 35.0
    assert min(result.control) > result.after + 15.0


def test_floor_keeps_each_type_and_is_deterministic():
    items, _ = planted_choices(60, planted=True)
    first = iterative_bias_pruning(items, budget=50, batch_size=20, floor=40, control_seeds=1)
    again = iterative_bias_pruning(
        list(reversed(items)), budget=50, batch_size=20, floor=40, control_seeds=1
    )
    assert len(first.kept) == 40 and first.removed == again.removed  # the floor stops it at 20 of 50
    assert first.groups[0]["stop_reason"] == "no_candidates"
