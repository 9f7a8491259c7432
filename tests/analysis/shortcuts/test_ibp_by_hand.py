"""IBP's loop (Brown et al., Sec. 4.1, Algorithm 1) on 12 items worked out by hand: batch 2, budget 4, ties.

No official IBP code is published (vision-x-nyu/test-set-training: its README's "IBP" section reads
"TODO"), so the order is pinned against the algorithm as the paper states it: re-diagnose the remaining
items, stop when the highest bias is at most tau, take k = min(b, B - R) by bias, repeat. The diagnosis
here is a stand-in whose scores a person can compute: a multiple-choice item's s(x) is the share of the
remaining items of its type with the same gold letter (so removals move the other scores), a number's
s(x) is fixed per id.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import pytest

from spatialbench.analysis.shortcuts.pruning import iterative_bias_pruning
from spatialbench.records import AnswerKind, Item

GOLD = {"1": "A", "2": "A", "3": "A", "4": "B", "5": "B", "6": "C", "7": "C", "8": "D"}  # 4 options
NUMBER_S = {"9": 0.125, "10": 0.5, "11": 0.1, "12": 0.125}


def _items() -> list[Item]:
    choices = [
        Item(
            id=i,
            benchmark="vsibench",
            task="object_rel_distance",
            question=f"Which is closest ({i})?",
            options=("A. sofa", "B. bed", "C. tv", "D. sink"),
            ground_truth=g,
            answer_kind=AnswerKind.MULTIPLE_CHOICE,
            scene_id=f"s{i}",
        )
        for i, g in GOLD.items()
    ]
    numbers = [
        Item(
            id=i,
            benchmark="vsibench",
            task="object_size_estimation",
            question=f"How long is the bed ({i})?",
            ground_truth="100",
            answer_kind=AnswerKind.NUMERICAL,
            scene_id=f"s{i}",
        )
        for i in NUMBER_S
    ]
    return [*choices, *numbers]


def by_hand(table: pd.DataFrame) -> Mapping[str, float]:
    """s(x): multiple choice, the share of remaining same-type items with its gold index; numbers, fixed."""
    mc = table[table["format"] == "mc"]
    share = mc["gt_idx"].map(mc["gt_idx"].value_counts(normalize=True))
    return {
        **dict(zip(mc["id"], share, strict=True)),
        **{i: NUMBER_S[i] for i in table["id"] if i in NUMBER_S},
    }


def _run(budget: int, stop_below: float | None = None):  # type: ignore[no-untyped-def]
    return iterative_bias_pruning(
        _items(), budget=budget, batch_size=2, floor=2, stop_below=stop_below, control_seeds=1, scorer=by_hand
    )


def test_the_removal_order_equals_the_hand_computation():
    # iteration 1 (12 items), bias = s - 1/4 for multiple choice, s for numbers:
    #   1, 2, 3: 3/8 - 1/4 = 0.125; 4-7: 0; 8: -0.125; 9: 0.125; 10: 0.5; 11: 0.1; 12: 0.125
    #   ranked by (-bias at 12 decimals, id numerically): 10, then the 0.125 tie 1, 2, 3, 9, 12 -> [10, 1]
    # iteration 2 (10 items): letters left A 2, B 2, C 2, D 1 of 7 -> 2, 3, 4, 5, 6, 7: 2/7 - 1/4 = 0.0357;
    #   8: 1/7 - 1/4; 9, 12: 0.125; 11: 0.1. Ranked: 9, 12, 11, 2, ... ; k = min(2, 4 - 2) = 2.
    #   9 goes (numbers 3 -> 2), 12 and 11 would take numbers below the floor of 2: skipped; then 2.
    result = _run(budget=4)
    assert result.removed == ["10", "1", "9", "2"]
    assert result.kept == ["3", "4", "5", "6", "7", "8", "11", "12"]
    first, second = result.groups[0]["iterations"]
    assert (first["size_before"], first["removed"], second["size_before"], second["removed"]) == (
        12,
        2,
        10,
        2,
    )
    assert first["max_bias"] == pytest.approx(0.5) and second["max_bias"] == pytest.approx(0.125)
    assert first["mean_bias"] == pytest.approx((3 * 0.125 - 0.125 + 0.125 + 0.5 + 0.1 + 0.125) / 12)
    assert second["mean_bias"] == pytest.approx((6 * (2 / 7 - 0.25) + (1 / 7 - 0.25) + 0.35) / 10)
    assert result.groups[0]["stop_reason"] == "budget"


def test_the_last_batch_is_what_the_budget_leaves():
    # B = 3: k = min(2, 3 - 2) = 1 in iteration 2 -> only 9
    assert _run(budget=3).removed == ["10", "1", "9"]


def test_early_stop_when_the_highest_bias_is_at_most_tau():
    # tau = 0.125: iteration 2's highest bias is 0.125 (not above tau) -> stop after [10, 1]
    result = _run(budget=4, stop_below=0.125)
    assert result.removed == ["10", "1"] and result.groups[0]["stop_reason"] == "early_stop"
    assert _run(budget=4, stop_below=0.1249).removed == ["10", "1", "9", "2"]


def test_summary_settings_say_the_procedure_follows_the_paper():
    settings = _run(budget=4).settings
    assert settings["procedure"].startswith("Algorithm 1 / Sec. 4.1")
    assert "no official IBP code" in settings["procedure"]
    assert settings["scorer"] == "by_hand"
