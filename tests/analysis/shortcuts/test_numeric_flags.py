"""Which numerical questions ``generate --debias`` flags: bias above chance, not the MRA itself.

Neither the paper (its s(x) is the diagnostic's confidence in the answer, Sec. 3.1) nor the official code
(TsT-RF reports per-fold MRA only; it computes no per-item score and flags nothing) gives a threshold for
numbers. A forest that guesses near the mean already scores an MRA above 0.25 on many items, so a number's
bias is its MRA minus the MRA of the constant guess (the training fold's mean: the ``chance`` column), as
multiple choice subtracts 1/options. On 240 object sizes whose planted half (every second category) always
has its size: above chance > 0.25 flags 105 of the 125 planted and 14 of the 115 others; the MRA > 0.25
flags all 125 planted and 44 others.
"""

from __future__ import annotations

import numpy as np
import pytest

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.analysis.shortcuts.folds import constant_baseline
from spatialbench.analysis.shortcuts.regenerate import DebiasSettings, DebiasSettingsError, _measure
from spatialbench.analysis.shortcuts.table import question_table
from support.planted_shortcuts import planted_size_categories


@pytest.fixture(scope="module")
def planted():  # type: ignore[no-untyped-def]
    items, marked = planted_size_categories(240)
    return items, marked, stress_test(items, "random")


def _flagged(bias: dict[str, float], threshold: float = 0.25) -> set[str]:
    return {i for i, b in bias.items() if b > threshold}


def test_planted_numbers_are_flagged_and_the_others_mostly_not(planted):  # type: ignore[no-untyped-def]
    items, marked, result = planted
    flagged = _flagged(_measure(items, DebiasSettings())[1])
    assert (len(marked), len(flagged & marked), len(flagged - marked)) == (125, 105, 14)
    raw = _flagged(_measure(items, DebiasSettings(numbers="mra"))[1])
    assert (len(raw & marked), len(raw - marked)) == (125, 44)  # the MRA itself: 38 % of the others


def test_a_numbers_chance_is_the_mra_of_its_training_folds_mean(planted):  # type: ignore[no-untyped-def]
    items, _, result = planted
    table = question_table(items)
    from spatialbench.analysis.shortcuts.folds import fold_plan

    expected = {}
    for train, test in fold_plan(table, "random", 5, 42, "num"):
        got = constant_baseline(table.iloc[train], table.iloc[test], "num")
        expected.update(zip(table["id"].iloc[test], got.tolist(), strict=True))
    assert result.chances == dict(sorted(expected.items()))
    assert float(np.mean(list(result.chances.values()))) * 100 == pytest.approx(
        result.tasks["object_size_estimation"].chance, abs=1e-9
    )
    assert result.above_chance() == {i: result.items[i] - expected[i] for i in result.items}


def test_an_unknown_number_rule_is_refused():
    with pytest.raises(DebiasSettingsError, match="debias numbers 'log': use one of above_chance, mra"):
        DebiasSettings(numbers="log")
