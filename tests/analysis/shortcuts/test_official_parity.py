"""Per-fold TsT-RF scores equal the official TsT code's on the official 300-question sample.

The expected numbers were computed by us (not published): the official repository
vision-x-nyu/test-set-training, branch meta_nov25 (commit ef47fa7), its files unmodified
(``TsT/benchmarks/vsi/models.py``, ``TsT/evaluators/rf.py``, ``TsT/core/cross_validation.py``), run once on
``subset_300.jsonl`` with ``UnifiedCrossValidator.run_cross_validation`` (k=5, seed 42, repeat 0) under
scikit-learn 1.9.1 / pandas 3.1.1; only its package ``__init__`` files (which import vLLM/LLaMA-Factory)
were bypassed. The three relative-direction levels were merged into ``object_rel_direction`` as its
``select_rows`` expects; only the types whose official features we reproduce are compared here.
"""

from __future__ import annotations

import pytest

from spatialbench.analysis.shortcuts import stress_test
from spatialbench.analysis.shortcuts.sets import FEATURE_SETS, LEAKY_FEATURE_SETS

# fold scores in percent, from the official code's FoldResult.score (x100, 4 decimals)
OFFICIAL_FOLDS = {
    "object_counting": [30.0, 16.6667, 26.6667, 8.3333, 11.6667],
    "object_abs_distance": [36.6667, 25.0, 20.0, 30.0, 26.6667],
    "object_size_estimation": [50.0, 36.6667, 60.0, 45.0, 61.6667],
    "room_size_estimation": [15.0, 35.0, 28.3333, 5.0, 13.3333],
}
# the official relative-distance set (with its label-reading pair frequencies)
OFFICIAL_REL_DISTANCE = [50.0, 33.3333, 16.6667, 33.3333, 83.3333]


@pytest.mark.parametrize("task", sorted(OFFICIAL_FOLDS))
def test_numerical_types_equal_the_official_folds(subset_300, task):
    result = stress_test(subset_300, "random")
    assert result.tasks[task].n == 30
    assert result.tasks[task].folds == pytest.approx(OFFICIAL_FOLDS[task], abs=1e-4)
    assert result.tasks[task].features == list(FEATURE_SETS[task].columns)


def test_official_relative_distance_set_equals_the_official_folds(subset_300):
    sets = {**FEATURE_SETS, **LEAKY_FEATURE_SETS}
    result = stress_test(subset_300, "random", sets=sets, leak_check=False)
    assert result.tasks["object_rel_distance"].folds == pytest.approx(OFFICIAL_REL_DISTANCE, abs=1e-4)
    assert result.tasks["object_rel_distance"].score == pytest.approx(43.3333, abs=1e-4)
