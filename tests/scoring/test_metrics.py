import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spatialbench.scoring.metrics import (
    MRA_THRESHOLDS,
    exact_match,
    ground_truth_error,
    mean_relative_accuracy,
    mra_array,
)


def test_thresholds_are_the_papers_ten():
    assert np.allclose(MRA_THRESHOLDS, [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95])


# Hand computations: relative error |pred - gt| / gt against tolerances 1 - θ = 0.50, 0.45, ..., 0.05.
@pytest.mark.parametrize(
    ("gt", "pred", "official", "paper"),
    [
        (2, 3, 0.1, 0.0),  # error 0.50: only θ = 0.50 counts, and only with <=
        (4, 5, 0.6, 0.5),  # error 0.25: θ = 0.50..0.75 with <= (6), 0.50..0.70 with < (5)
        (10, 10, 1.0, 1.0),  # exact
        # error 0.2, but 1 - 0.8 is 0.19999999999999996 in numpy: θ = 0.8 fails even with <=
        (10, 12, 0.6, 0.6),
        (10, 16, 0.0, 0.0),  # error 0.60 > 0.50
        (1.2, 0.0, 0.0, 0.0),  # error 1.0
    ],
)
def test_hand_computed_mra(gt, pred, official, paper):
    assert mean_relative_accuracy(pred, gt, "official") == pytest.approx(official)
    assert mean_relative_accuracy(pred, gt, "paper") == pytest.approx(paper)


def test_no_answer_scores_zero_not_error():
    assert mean_relative_accuracy(None, 3.0) == 0.0
    assert mean_relative_accuracy(math.inf, 3.0) == 0.0
    assert mean_relative_accuracy(math.nan, 3.0) == 0.0


@pytest.mark.parametrize("gt", [0.0, -1.0, math.inf, math.nan, "abc"])
def test_bad_ground_truth_is_a_data_error(gt):
    assert ground_truth_error(gt) is not None
    assert math.isnan(mean_relative_accuracy(1.0, gt))


def test_good_ground_truth():
    assert ground_truth_error("2.3") is None


def test_vectorised_matches_scalar():
    preds, gts = [3.0, 5.0, np.nan], [2.0, 4.0, 1.0]
    assert list(mra_array(preds, gts)) == pytest.approx([0.1, 0.6, 0.0])


@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_mra_never_raises_on_arbitrary_floats(pred, gt):
    for mode in ("official", "paper"):
        value = mean_relative_accuracy(pred, gt, mode)
        assert math.isnan(value) or 0.0 <= value <= 1.0


def test_exact_match_is_case_insensitive_and_no_answer_is_wrong():
    assert exact_match("b", "B") == 1.0
    assert exact_match(None, "B") == 0.0
    assert exact_match("C", "B") == 0.0


@pytest.mark.parametrize(("gt", "pred"), [(10, 13), (1.0, 1.3), (100, 130), (10, 7), (1.0, 0.7), (0.5, 0.35)])
def test_paper_mode_at_an_exact_boundary_does_not_depend_on_float_rounding(gt, pred):
    # error exactly 0.3 as written: the strict rule keeps θ = 0.50, 0.55, 0.60, 0.65 -> 0.4; in floats
    # 0.3 (13 for 10) or 0.30000000000000004 (1.3 for 1.0) meet 1 - 0.7 = 0.30000000000000004 differently
    assert mean_relative_accuracy(pred, gt, "paper") == pytest.approx(0.4)
    # the official code's float comparison is kept as it is: <= counts θ = 0.7 here (0.5)
    assert mean_relative_accuracy(pred, gt, "official") == pytest.approx(0.5)


def test_paper_mode_vectorised_equals_scalar_at_boundaries():
    preds, gts = [13.0, 1.3, 130.0, 3.0, 5.0], [10.0, 1.0, 100.0, 2.0, 4.0]
    assert list(mra_array(preds, gts, "paper")) == pytest.approx([0.4, 0.4, 0.4, 0.0, 0.5])
