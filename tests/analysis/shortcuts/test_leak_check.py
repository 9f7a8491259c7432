"""check_label_invariance: every default set is leak-free; a feature that reads the answer is refused."""

from __future__ import annotations

import dataclasses

import pytest

from spatialbench.analysis.shortcuts import LeakError, check_label_invariance, question_table, stress_test
from spatialbench.analysis.shortcuts.choices import GENERIC_CHOICE
from spatialbench.analysis.shortcuts.cvbench import CVBENCH_SETS
from spatialbench.analysis.shortcuts.sets import FEATURE_SETS, GENERIC_NUMBER, LEAKY_FEATURE_SETS, feature_set
from spatialbench.benchmarks import get_benchmark
from support.cvbench_rows import write_cvbench_rows
from support.planted_shortcuts import planted_choices, planted_sizes


def _split(table, task, fs):
    rows = fs.keys(table[table["task"] == task]).reset_index(drop=True)
    return rows.iloc[: len(rows) // 2], rows.iloc[len(rows) // 2 :]


@pytest.mark.parametrize("task", sorted(set(FEATURE_SETS) - {fs.name for fs in CVBENCH_SETS}))
def test_every_default_set_is_label_invariant_on_the_official_sample(subset_300, task):
    table = question_table(subset_300)
    fs = FEATURE_SETS[task]
    assert check_label_invariance(fs, *_split(table, task, fs)) == []


@pytest.mark.parametrize("fs", CVBENCH_SETS, ids=lambda fs: fs.name)
def test_every_cvbench_default_set_is_label_invariant(tmp_path, fs):
    items = get_benchmark("cvbench").load_items(write_cvbench_rows(tmp_path / "CV-Bench"))
    assert check_label_invariance(fs, *_split(question_table(items), fs.name, fs)) == []


def test_generic_sets_are_label_invariant(subset_300):
    table = question_table(subset_300)
    assert check_label_invariance(GENERIC_CHOICE, *_split(table, "route_planning", GENERIC_CHOICE)) == []
    assert check_label_invariance(GENERIC_NUMBER, *_split(table, "object_counting", GENERIC_NUMBER)) == []


def test_the_official_relative_distance_set_reads_the_answer(subset_300):
    table = question_table(subset_300)
    fs = LEAKY_FEATURE_SETS["object_rel_distance"]
    leaked = check_label_invariance(fs, *_split(table, "object_rel_distance", fs))
    assert leaked == [
        "max_tgt_option_pair_freq",
        "max_tgt_option_ord_pair_freq",
        *(f"opt_{i}_{s}" for i in range(4) for s in ("tgt_option_pair_freq", "tgt_option_ord_pair_freq")),
    ]


def test_stress_test_refuses_a_leaking_set():
    items, _ = planted_choices(100, planted=False)
    with pytest.raises(LeakError, match="max_tgt_option_pair_freq"):
        stress_test(items, "random", sets=dict(LEAKY_FEATURE_SETS))


def test_a_numerical_feature_copying_the_answer_is_caught():
    base = feature_set("object_size_estimation", "num")

    def copy_answer(maps, frame):
        out = base.transform(maps, frame)
        out["answer_echo"] = out["log_gt"]
        return out

    leaking = dataclasses.replace(base, columns=(*base.columns, "answer_echo"), transform=copy_answer)
    with pytest.raises(LeakError, match="answer_echo"):
        stress_test(planted_sizes(60, planted=False), "random", sets={"object_size_estimation": leaking})
