"""What the stress-test prints besides its result (issue 23 item 6): no sklearn fold warning, counted nouns.

A multiple-choice type whose gold letter is rare (fewer than k questions) made ``StratifiedKFold`` warn
"The least populated class in y has only N members" once per stress-test, 13 times in one ``debias``. The
folds it makes are still k valid folds (the official ``UnifiedCrossValidator``'s), so the warning is
silenced where the folds are made; the folds themselves must stay sklearn's.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.analysis.shortcuts.folds import fold_plan
from support.planted_shortcuts import planted_choices, planted_sizes

# 10 questions, gold index 1 only twice: fewer than k = 5 members
RARE = pd.DataFrame({"gt_idx": [0, 0, 1, 0, 0, 0, 1, 0, 0, 0], "scene": [f"s{i}" for i in range(10)]})


def test_sklearn_warns_on_this_input() -> None:
    with pytest.warns(UserWarning, match="The least populated class in y has only 2 members"):
        list(StratifiedKFold(n_splits=5, shuffle=True, random_state=42).split(RARE, RARE["gt_idx"]))


def test_fold_plan_is_silent_and_keeps_sklearns_folds() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        splitter = StratifiedKFold(n_splits=5, shuffle=True, random_state=42)
        expected = list(splitter.split(RARE, RARE["gt_idx"]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        plan = list(fold_plan(RARE, "random", 5, 42, "mc"))
    assert len(plan) == 5 and all(np.array_equal(a[1], b[1]) for a, b in zip(plan, expected, strict=True))
    assert sorted(np.concatenate([test for _, test in plan]).tolist()) == list(range(10))
    assert [len(test) for _, test in plan] == [2, 2, 2, 2, 2]


def test_a_stress_test_with_a_rare_gold_letter_warns_nothing() -> None:
    items, _ = planted_choices(60, planted=True)
    golds = [i.ground_truth for i in items]
    # keep two D answers, turn the other D answers into A (the option text stays: a shortcut-free change)
    rare = [it.model_copy(update={"ground_truth": "A"}) if g == "D" and golds[:k].count("D") >= 2 else it
            for k, (it, g) in enumerate(zip(items, golds, strict=True))]
    assert [i.ground_truth for i in rare].count("D") == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = stress_test(rare, "random")
    assert result.tasks["object_rel_distance"].n == 60


@pytest.mark.parametrize(
    ("count", "folds", "reason"),
    [
        (1, "random", "1 item in 1 row < k=5"),
        (1, "grouped", "1 item in 1 scene < k=5"),
        (2, "random", "2 items in 2 rows < k=5"),
        (3, "grouped", "3 items in 3 scenes < k=5"),
    ],
)
def test_a_type_too_small_is_counted_in_words(count: int, folds: str, reason: str) -> None:
    result = stress_test(planted_sizes(count, planted=True), folds)  # scene0, scene1, ...: one per item
    assert result.tasks == {} and result.skipped == {"object_size_estimation": reason}
