"""The leak check is recorded and runs on every fold (issue 23 newcomer check, item 3).

It was run on fold 0 only and written nowhere: ``stress_test.json`` and its table did not say which
feature sets were checked, on how many folds, or that the official relative-distance set's answer-reading
columns are left out.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from typer.testing import CliRunner

from spatialbench.analysis.shortcuts import LeakError, question_table, stress_test
from spatialbench.analysis.shortcuts.folds import fold_plan
from spatialbench.analysis.shortcuts.sets import feature_set
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.planted_shortcuts import planted_choices, planted_sizes

# the official relative-distance set's ten columns that read the gold object (official models.py)
OFFICIAL_LEAKS = [
    "max_tgt_option_pair_freq",
    "max_tgt_option_ord_pair_freq",
    *(f"opt_{i}_{s}" for i in range(4) for s in ("tgt_option_pair_freq", "tgt_option_ord_pair_freq")),
]


def test_stress_test_json_and_table_record_the_leak_check(tmp_path) -> None:
    items, _ = planted_choices(120, planted=True)  # 120 relative-distance questions in 40 scenes
    data = tmp_path / "planted"
    data.mkdir()
    get_benchmark("vsibench").write(items, data)
    out = tmp_path / "st"
    result = CliRunner().invoke(app, ["stress-test", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "stress_test.json").read_text())
    record = {"feature_set": "object_rel_distance", "columns": 10, "folds": 5, "result": "passed",
              "left_out": OFFICIAL_LEAKS}  # 4 objects, the target, max and 4 per-option frequencies
    assert doc["tasks"]["object_rel_distance"]["leak_check"] == record
    assert doc["grouped"]["tasks"]["object_rel_distance"]["leak_check"] == record
    line = "passed (5 random, 5 grouped folds); 10 official columns left out |"
    assert line in result.output and line in (out / "stress_test.md").read_text()
    assert "| leak check |" in result.output


def test_without_the_check_the_record_says_not_run() -> None:
    result = stress_test(planted_sizes(60, planted=False), "random", leak_check=False)
    assert result.tasks["object_size_estimation"].leak_check is None


def test_a_leak_only_a_later_fold_reaches_is_caught() -> None:
    """A feature that reads the answer of one held-out row of fold 3 only: fold 0 alone passes it."""
    items = planted_sizes(60, planted=False)
    base = feature_set("object_size_estimation", "num")
    rows = base.keys(question_table(items).dropna(subset=["gt_num"])).reset_index(drop=True)
    folds = list(fold_plan(rows, "random", 5, 42, "num"))
    marked = str(rows["id"].iloc[folds[3][1][0]])  # a row held out in fold 3, in training in fold 0

    def echo_one(maps, frame):
        out = base.transform(maps, frame)
        out["echo"] = np.where(out["id"].astype(str) == marked, out["gt_num"], 0.0)
        return out

    assert marked not in set(rows["id"].iloc[folds[0][1]].astype(str))
    leaking = dataclasses.replace(base, columns=(*base.columns, "echo"), transform=echo_one)
    with pytest.raises(LeakError, match="echo"):
        stress_test(items, "random", sets={"object_size_estimation": leaking})
