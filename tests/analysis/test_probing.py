"""Probes on synthetic features with a known label rule, shuffled labels, the scene split, and a traced run.

Features: 240 items in 48 scenes (5 each); x0 = +-(2..3) decides the label (A if x0 > 0), four noise
columns. The first item of every scene (i % 5 == 0, alternately on either side) has its label flipped, so
a probe that learned the rule is right on exactly the 4 of 5 items of each test scene that were not
flipped: accuracy 4/5 = 0.8 whatever the split.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from benchmarks.mmsi_remindview_fixtures import build_remindview
from spatialbench.analysis.probing import (
    ProbeData,
    answer_logit_ce,
    probe_phase,
    scene_split,
    soft_cross_entropy,
)
from spatialbench.cli.main import app
from support.traced_runs import char_trace, write_traced_run

pytest.importorskip("sklearn")
N = 240


def _data(flip: bool = True, shuffle: bool = False) -> ProbeData:
    rng = np.random.default_rng(7)
    side = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)
    features = np.column_stack([side * rng.uniform(2, 3, N), rng.normal(size=(N, 4))]).astype(np.float32)
    labels = np.where(side > 0, "A", "B")
    if flip:
        flipped = np.arange(N) % 5 == 0
        labels[flipped] = np.where(labels[flipped] == "A", "B", "A")
    if shuffle:
        labels = np.random.default_rng(11).permutation(labels)
    groups = np.array([f"scene-{i // 5}" for i in range(N)])
    return ProbeData(features, labels, groups, np.arange(N) % 3 != 0)


def test_linear_probe_reaches_the_hand_computed_accuracy() -> None:
    result = probe_phase(_data(), kind="linear", seed=0)
    test = np.array(result["test_index"])
    assert float(np.mean(test % 5 != 0)) == pytest.approx(0.8)  # whole scenes: one flipped item in five
    assert result["all"]["accuracy"] == pytest.approx(0.8)
    assert result["test"] == len(test) == 60  # 12 of 48 scenes, 5 items each


def test_mlp_on_the_clean_rule_is_perfect_and_shuffled_labels_fall_to_chance() -> None:
    assert probe_phase(_data(flip=False), kind="mlp", seed=0)["all"]["accuracy"] == 1.0
    for kind in ("mlp", "linear"):
        shuffled = probe_phase(_data(shuffle=True), kind=kind, seed=0)
        assert abs(shuffled["all"]["accuracy"] - 0.5) <= 0.15, (kind, shuffled["all"])
        assert shuffled["all"]["cross_entropy"] > 0.6  # about ln 2 or worse: nothing learned


def test_split_keeps_each_scene_on_one_side() -> None:
    groups = _data().groups
    train, test = scene_split(groups, 0.25, seed=3)
    assert not set(groups[train]) & set(groups[test])
    again = scene_split(groups, 0.25, seed=3)
    assert again[1].tolist() == test.tolist()  # seeded


def test_a_split_of_items_all_from_one_scene_is_refused_in_words() -> None:
    # issue 21 newcomer check (generate remindview --scenes 1): scikit-learn's "With n_samples=1 ..."
    with pytest.raises(ValueError) as raised:
        scene_split(np.array(["room0"] * 12), 0.25, seed=0)
    assert str(raised.value) == "all 12 items are from 1 scene; a split by scene needs ≥ 2 scenes"


def _traced(tmp_path: Path) -> Path:
    data = build_remindview(tmp_path / "data")
    from spatialbench.benchmarks import get_benchmark

    items = get_benchmark("remindview").load_items(str(data))
    rng = np.random.default_rng(0)
    rows = {}
    for n, item in enumerate(items):
        letter = "AB"[n % 2]
        text = f"(1) seen {letter}. (2) moved. (3) so {letter}. (4) {letter}"
        vocab = sorted(set(text))
        logits = rng.normal(size=(len(text), len(vocab))).astype(np.float32)
        hidden = rng.normal(size=(len(text), 2, 8)).astype(np.float32)
        rows[item.id] = (char_trace(text, logits, hidden=hidden), letter, 1.0 if n % 3 else 0.0)
    return write_traced_run(tmp_path / "run", tmp_path / "traces", rows, data=str(data))


def test_probe_on_stored_hidden_states(tmp_path: Path) -> None:
    run_dir = _traced(tmp_path)
    result = CliRunner().invoke(app, ["probe", str(run_dir), "--probe", "linear", "--features", "hidden:-1"])
    assert result.exit_code == 0, result.output
    doc = json.loads((run_dir / "analysis" / "probe-linear.json").read_text())
    assert doc["features"] == "hidden:-1" and doc["items"]["traced"] == 11
    result = CliRunner().invoke(app, ["probe", str(run_dir), "--features", "hidden:5"])
    assert result.exit_code == 2
    assert "hidden:5: the traces hold 2 hidden layer(s)" in result.output


def test_probe_command_on_a_traced_run(tmp_path: Path) -> None:
    run_dir = _traced(tmp_path)
    result = CliRunner().invoke(app, ["probe", str(run_dir), "--probe", "linear", "--test-size", "0.5"])
    assert result.exit_code == 0, result.output
    doc = json.loads((run_dir / "analysis" / "probe-linear.json").read_text())
    assert doc["analysis"] == "probe" and doc["version"] == 2 and doc["items"]["traced"] == 11
    assert set(doc["phases"]) == {"1", "2", "3", "4"}
    assert all(p["train"] + p["test"] == 11 for p in doc["phases"].values())
    # the report states the set-up: a linear probe has no hidden layers; every vocabulary column is kept
    # (each trace's vocabulary is the distinct characters of its text, 16 of them, under max_features)
    assert doc["hidden_layers"] is None
    assert doc["logit_columns"] == len(set("(1) seen A. (2) moved. (3) so A. (4) A")) == 16
    for p in doc["phases"].values():  # Fig. 8: CE against the answer logits, per phase, on the test items
        soft = p["answer_logits"]["all"]
        assert soft["items"] == p["test"] and soft["cross_entropy"] >= 0
    assert "letter probe: all acc" in result.output and "CE vs answer logits: all" in result.output


def test_an_unusable_trace_folder_is_an_error_and_keeps_probe_json(tmp_path: Path) -> None:
    run_dir = _traced(tmp_path)
    assert CliRunner().invoke(app, ["probe", str(run_dir), "--probe", "linear"]).exit_code == 0
    good = (run_dir / "analysis" / "probe-linear.json").read_text()
    for folder in (tmp_path / "nonexist", tmp_path / "data"):
        result = CliRunner().invoke(
            app, ["probe", str(run_dir), "--probe", "linear", "--traces", str(folder)]
        )
        assert result.exit_code == 2, result.output
        assert f"error: {folder}" in result.output
        assert (run_dir / "analysis" / "probe-linear.json").read_text() == good


def test_probe_options_are_checked_before_rows_are_collected(tmp_path: Path) -> None:
    run_dir = _traced(tmp_path)
    for args, message in ((["--probe", "svm"], "--probe"), (["--test-size", "1.5"], "--test-size")):
        result = CliRunner().invoke(
            app, ["probe", str(run_dir), "--traces", str(tmp_path / "nonexist"), *args]
        )
        assert result.exit_code == 2, result.output
        assert message in result.output and "nonexist" not in result.output
    assert not (run_dir / "analysis").exists()


def test_traces_of_different_logit_widths_are_a_one_line_error(tmp_path: Path) -> None:
    data = build_remindview(tmp_path / "data")
    from spatialbench.benchmarks import get_benchmark

    rng = np.random.default_rng(0)
    rows = {}
    for n, item in enumerate(get_benchmark("remindview").load_items(str(data))):
        text = "(1) a. (2) b. (3) c. (4) A" if n else "(1) wide vocabulary here. (2) yes. (3) so. (4) B"
        logits = rng.normal(size=(len(text), len(set(text)))).astype(np.float32)
        rows[item.id] = (char_trace(text, logits), "AB"[n == 0], 1.0)
    run_dir = write_traced_run(tmp_path / "run", tmp_path / "traces", rows, data=str(data))
    result = CliRunner().invoke(app, ["probe", str(run_dir), "--probe", "linear"])
    assert result.exit_code == 2, result.output
    assert "logit columns" in result.output and len(result.output.strip().splitlines()) == 1


def test_soft_cross_entropy_against_the_answer_logits_by_hand() -> None:
    # answer logits [0, ln 3] → p = (1/4, 3/4); probe logits [0, 0] → q = (1/2, 1/2): H = ln 2 = 0.693147
    # second row: answer [ln 2, 0, 0] → p = (1/2, 1/4, 1/4); probe [0, ln 2, ln 5] → q = (1/8, 2/8, 5/8):
    # H = -(1/2 ln 1/8 + 1/4 ln 1/4 + 1/4 ln 5/8) = 1.5 ln 2 + 0.5 ln 2 + 0.25 ln 1.6 = 1.386294 + 0.117501
    ce = soft_cross_entropy(np.array([[0.0, 0.0]]), np.array([[0.0, np.log(3)]]))
    assert ce == pytest.approx([0.693147], abs=1e-6)
    ce = soft_cross_entropy(np.array([[0.0, np.log(2), np.log(5)]]), np.array([[np.log(2), 0.0, 0.0]]))
    assert ce == pytest.approx([1.503795], abs=1e-6)


def test_answer_logit_ce_of_a_probe_that_predicts_the_targets_exactly() -> None:
    # features are the answer logits themselves; a ridge probe with a tiny penalty predicts them almost
    # exactly, so its CE is the entropy of the answer distribution: targets (0, ln 3) → H(1/4, 3/4) = 0.562335
    n = 40
    answers = np.tile([0.0, np.log(3)], (n, 1)) + np.random.default_rng(0).normal(0, 1e-4, (n, 2))
    data = ProbeData(
        answers.astype(np.float32),
        np.array(["A"] * n),
        np.array([f"s{i // 4}" for i in range(n)]),
        np.arange(n) % 2 == 0,
        answers.astype(np.float32),
    )
    train, test = scene_split(data.groups, 0.25, 0)
    result = answer_logit_ce(data, train, test, "linear", 0)
    assert result is not None and result["all"]["items"] == len(test) == 12
    assert result["all"]["cross_entropy"] == pytest.approx(0.562335, abs=1e-3)


def test_a_trace_lacking_an_array_is_counted_and_skipped(tmp_path: Path) -> None:
    """Issue 26: one trace without ``anchor_logits`` was a KeyError traceback for the whole run."""
    run_dir = _traced(tmp_path)
    first = sorted((tmp_path / "traces").glob("*.npz"))[0]
    with np.load(first) as stored:
        arrays = {k: stored[k] for k in stored.files if k != "anchor_logits"}
    np.savez_compressed(first, **arrays)
    result = CliRunner().invoke(app, ["probe", str(run_dir), "--probe", "linear"])
    assert result.exit_code == 0, result.output
    doc = json.loads((run_dir / "analysis" / "probe-linear.json").read_text())
    assert doc["items"]["traced"] == 10 and doc["items"]["unreadable"] == 1  # 11 items, one skipped
    assert doc["unreadable_traces"] == [f"{first}: not a complete trace (no anchor_logits array)"]
    assert f"\nskipped unreadable trace(s): {first}: not a complete trace (no anchor_logits array)\n" in (
        result.output
    )
