"""CV-Bench TsT-RF: fold scores and every s(x) equal the official TsT CV-Bench code's on the same rows.

The expected numbers were computed by us (not published): ``scripts/official_tst_cvbench.py`` ran the
official repository vision-x-nyu/test-set-training, branch meta_nov25 (commit ef47fa7), its
``TsT/benchmarks/cvb/models.py``, ``TsT/evaluators/rf.py``, ``TsT/core/cross_validation.py`` unmodified
(``UnifiedCrossValidator.cross_validate``, k=5, seed 42, ``target_col="gt_idx"`` as its ``__main__`` for
cvb), once on the 240 rows of :func:`support.cvbench_rows.cvbench_rows` written as the release's
``test_2d.jsonl`` / ``test_3d.jsonl``, under scikit-learn 1.9.1 / pandas 3.1.1. Only its package
``__init__`` files (vLLM, LLaMA-Factory) were bypassed. s(x) is not an output of the official code: the
driver read each fold forest's ``predict_proba`` for the gold option; the digest is the SHA-256 (first 16
hex) of ``json.dumps({idx: round(s, 10)})`` in idx order.

Two runs: the official sets as published (relation, depth and distance read the row's own answer through
``pair_answer_freq_score``, relation also through ``is_majority_answer``), and the same code with those
columns left out of each model's ``feature_cols`` (our leak-free default). Count reads no answer.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from spatialbench.analysis.shortcuts import LeakError, stress_test
from spatialbench.analysis.shortcuts.sets import FEATURE_SETS, LEAKY_FEATURE_SETS
from spatialbench.benchmarks import get_benchmark
from spatialbench.records.rows import LoadedItems
from support.cvbench_rows import write_cvbench_rows

# the official fold scores (percent, 4 decimals) and s(x) digests
LEAK_FREE = {
    "count_2d": ([41.6667, 50.0, 58.3333, 33.3333, 33.3333], "86dff8df5e27936b"),
    "relation_2d": ([41.6667, 50.0, 58.3333, 58.3333, 66.6667], "3e86da83b20c1011"),
    "depth_3d": ([50.0, 33.3333, 50.0, 58.3333, 75.0], "b92e7dee41391507"),
    "distance_3d": ([58.3333, 75.0, 50.0, 58.3333, 50.0], "4192cdb6689b228d"),
}
AS_PUBLISHED = {
    "relation_2d": ([83.3333, 75.0, 83.3333, 91.6667, 66.6667], "6ef4f8c206aa4717"),
    "depth_3d": ([58.3333, 33.3333, 50.0, 66.6667, 58.3333], "e3c7b360a9ef4b63"),
    "distance_3d": ([50.0, 66.6667, 50.0, 66.6667, 66.6667], "ecfeca42f5a837fb"),
}
# the official feature_cols, in order
OFFICIAL_COLUMNS = {
    "count_2d": [
        "n_options",
        "object",
        "obj_count",
        "obj_freq_score",
        "obj_val_mean",
        "obj_val_std",
        "obj_val_log_mean",
        "obj_val_log_std",
        "obj_val_log_ratio",
        "global_mean_log",
        "global_std_log",
        *(f"choice_{i}_dist_from_obj_mean" for i in range(6)),
        *(f"choice_{i}_dist_from_global_mean" for i in range(6)),
    ],
    "relation_2d": [
        "n_options",
        "object_1",
        "object_2",
        "pair_freq_score",
        "pair_answer_freq_score",
        "contains_left",
        "contains_right",
        "contains_above",
        "contains_below",
        "contains_front",
        "contains_behind",
        "spatial_keyword_count",
        "question_length",
        "is_majority_answer",
    ],
    "depth_3d": ["object_1", "object_2", "pair_freq_score", "pair_answer_freq_score", "n_options"],
    "distance_3d": ["object_1", "object_2", "pair_freq_score", "pair_answer_freq_score", "n_options"],
}


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> LoadedItems:
    folder = write_cvbench_rows(tmp_path_factory.mktemp("cvbench") / "CV-Bench")
    return get_benchmark("cvbench").load_items(folder)


def _digest(scores: dict[str, float], task: str, rows: LoadedItems) -> str:
    ids = [it.id for it in rows if f"{it.task.lower()}_{it.metadata['type'].lower()}" == task]
    ordered = {i.split(":")[1]: round(scores[i], 10) for i in sorted(ids, key=lambda i: int(i.split(":")[1]))}
    return hashlib.sha256(json.dumps(ordered).encode()).hexdigest()[:16]


def test_leak_free_sets_equal_the_official_code_without_its_label_columns(rows):  # type: ignore[no-untyped-def]
    result = stress_test(rows, "random")  # the leak check runs on every type
    assert sorted(result.tasks) == sorted(LEAK_FREE) and all(t.n == 60 for t in result.tasks.values())
    for task, (folds, digest) in LEAK_FREE.items():
        assert result.tasks[task].folds == pytest.approx(folds, abs=1e-4), task
        assert _digest(result.items, task, rows) == digest, task
        official = [
            c for c in OFFICIAL_COLUMNS[task] if c not in ("pair_answer_freq_score", "is_majority_answer")
        ]
        assert result.tasks[task].features == official, task


def test_the_official_sets_as_published_equal_the_official_code(rows):  # type: ignore[no-untyped-def]
    result = stress_test(rows, "random", sets={**FEATURE_SETS, **LEAKY_FEATURE_SETS}, leak_check=False)
    for task, (folds, digest) in AS_PUBLISHED.items():
        assert result.tasks[task].folds == pytest.approx(folds, abs=1e-4), task
        assert _digest(result.items, task, rows) == digest, task
        assert result.tasks[task].features == OFFICIAL_COLUMNS[task], task
    assert result.tasks["relation_2d"].score == pytest.approx(80.0, abs=1e-4)  # 55.0 without the leak


@pytest.mark.parametrize("task", sorted(AS_PUBLISHED))
def test_the_leak_check_refuses_the_official_label_reading_sets(rows, task):  # type: ignore[no-untyped-def]
    only = [it for it in rows if f"{it.task.lower()}_{it.metadata['type'].lower()}" == task]
    leaked = (
        ["pair_answer_freq_score", "is_majority_answer"]
        if task == "relation_2d"
        else ["pair_answer_freq_score"]
    )
    with pytest.raises(LeakError) as error:
        stress_test(only, "random", sets={**FEATURE_SETS, **LEAKY_FEATURE_SETS})
    assert error.value.task == task and error.value.columns == leaked


def test_release_ids_sort_by_file_then_number(rows):  # type: ignore[no-untyped-def]
    from spatialbench.analysis.shortcuts.table import question_table

    ids = list(question_table(rows)["id"])
    assert ids[:3] == ["test_2d:0", "test_2d:1", "test_2d:2"] and ids[119:122] == [
        "test_2d:119",
        "test_3d:120",
        "test_3d:121",
    ]
