"""Scene-clustered bootstrap intervals (issue 21 "Interval check")."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from spatialbench.scoring.grouped import Group, grouped
from spatialbench.scoring.rules import task_table
from spatialbench.scoring.uncertainty import (
    Resampler,
    minimum_detectable,
    paired,
    table_ci,
    table_clusters,
    table_draws,
)


def _rows(scores: np.ndarray, per_scene: int, task: str = "t") -> pd.DataFrame:
    n = len(scores)
    return pd.DataFrame({"id": [f"q{i}" for i in range(n)], "task": task,
                         "scene_id": [f"s{i // per_scene}" for i in range(n)], "score": scores,
                         "answered": True})


def _clustered_rows(seed: int = 3) -> pd.DataFrame:
    # 60 scenes of 8 questions; a scene effect makes questions of one scene agree (clustering matters)
    rng = np.random.default_rng(seed)
    scene_p = rng.uniform(0.1, 0.9, 60)
    scores = (rng.uniform(size=(60, 8)) < scene_p[:, None]).astype(float).ravel()
    return _rows(scores, 8)


def test_bootstrap_interval_matches_hand_clustered_standard_error() -> None:
    rows = _clustered_rows()
    table = grouped(rows, [Group.of("t", task="t")])
    low, high = table_ci(table, Resampler.for_rows(rows, resamples=2000))["overall"]
    # hand computation: clustered SE of a mean (Miller 2024 eq. 4), C/(C−1) small-sample factor
    y = rows["score"].to_numpy()
    sums = rows.groupby("scene_id")["score"].sum().to_numpy()
    sizes = rows.groupby("scene_id").size().to_numpy()
    c, n, mean = len(sums), len(y), y.mean()
    se = np.sqrt(c / (c - 1) * ((sums - mean * sizes) ** 2).sum()) / n * 100
    naive_se = y.std(ddof=1) / np.sqrt(n) * 100
    assert se > 1.3 * naive_se  # the clusters do matter here: an item-level interval would be too narrow
    assert (high - low) / 2 == pytest.approx(1.96 * se, rel=0.10)
    assert low < 100 * mean < high


def test_same_seed_same_interval_and_row_order_free() -> None:
    rows = _clustered_rows()
    table = task_table(rows)
    first = table_ci(table)
    shuffled = rows.sample(frac=1.0, random_state=1)
    assert table_ci(task_table(shuffled)) == first
    other = table_ci(table, Resampler.for_rows(rows, seed=1))
    assert other != first


def test_column_weighted_overall_is_bootstrapped_as_computed() -> None:
    # VSI-Bench Avg. = mean of task means: task b (few questions) weighs as much as task a
    a = _rows(np.ones(40), 4, "a")
    b = _rows(np.zeros(4), 1, "b").assign(id=lambda f: "b" + f["id"], scene_id=lambda f: "x" + f["scene_id"])
    rows = pd.concat([a, b], ignore_index=True)
    table = task_table(rows)
    draws = table_draws(table, Resampler.for_rows(rows))
    assert table.average == pytest.approx(50.0)
    assert draws["overall"][0] == pytest.approx(50.0)  # row 0: the estimate, as the table computes it
    # a resample averages the task means it drew (100 and 0), never the pooled questions (40/44 = 90.9);
    # one that drew no scene of task b averages task a alone, as the table does for a missing task
    values = set(np.round(draws["overall"][1:], 6))
    assert values <= {50.0, 100.0} and 50.0 in values


def _pair(a: np.ndarray, b: np.ndarray, per_scene: int) -> np.ndarray:
    ra, rb = _rows(a, per_scene), _rows(b, per_scene)
    res = Resampler.for_rows(ra, rb)
    da = table_draws(task_table(ra), res)["overall"]
    db = table_draws(task_table(rb), res)["overall"]
    assert da is not None and db is not None
    return da - db


def test_identical_runs_delta_zero_p_one() -> None:
    scores = _clustered_rows()["score"].to_numpy()
    test = paired(_pair(scores, scores.copy(), 8))
    assert test is not None
    assert (test.delta, test.ci95, test.p_value) == (0.0, (0.0, 0.0), 1.0)
    assert test.includes_zero


def test_ten_points_on_500_items_is_significant() -> None:
    rng = np.random.default_rng(5)
    base = (rng.uniform(size=500) < 0.5).astype(float)
    better = base.copy()
    wrong, right = np.flatnonzero(base == 0), np.flatnonzero(base == 1)
    better[wrong[:100]] = 1.0  # 100 items gained, 50 lost: +50 / 500 = +10 points
    better[right[:50]] = 0.0
    test = paired(_pair(better, base, 10))
    assert test is not None
    assert test.delta == pytest.approx(10.0)
    assert test.p_value < 0.01 and not test.includes_zero


def test_one_point_on_50_items_is_not_significant() -> None:
    rng = np.random.default_rng(6)
    base = rng.integers(0, 11, size=50) / 10.0  # MRA-like scores in steps of 0.1
    other = base.copy()
    up = np.flatnonzero(base <= 0.7)[:5]
    down = np.setdiff1d(np.flatnonzero(base >= 0.1), up)[:10]
    other[up] += 0.3  # +1.5 − 1.0 = +0.5 over 50 items = +1 point
    other[down] -= 0.1
    test = paired(_pair(other, base, 5))
    assert test is not None
    assert test.delta == pytest.approx(1.0)
    assert test.p_value > 0.05 and test.includes_zero


def test_minimum_detectable_difference_is_2_8_standard_errors() -> None:
    assert minimum_detectable(1.0) == pytest.approx(1.959964 + 0.841621, abs=1e-5)


def _vsi_result():
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.records.item import AnswerKind, Item
    from spatialbench.scoring import score_items

    tasks = ["object_counting"] * 40 + ["room_size_estimation"] * 5
    items = [Item(id=str(i), benchmark="vsibench", task=tasks[i],
                  question="How many chairs?", ground_truth="2", answer_kind=AnswerKind.NUMERICAL,
                  dataset="scannet", scene_id=f"s{i % 10}") for i in range(45)]
    responses = {str(i): "2" if i % 3 else "5" for i in range(45)}
    return score_items(items, responses, get_benchmark("vsibench").scoring, extract="official")


def test_scores_json_adds_ci95_last_keyed_like_the_scores() -> None:
    from spatialbench.scoring.output import render_markdown, scores_json

    result = _vsi_result()
    doc = scores_json(result)
    keys = list(doc)
    assert keys[-4:] == ["ci95", "ci95_by_dataset", "ci95_debiased", "filtered_responses"]
    ci = doc["ci95"]
    scored = {k for k, v in doc.items() if isinstance(v, float) or (v is None and k in ci)}
    assert set(ci) >= scored | {"overall"}
    low, high = ci["overall"]
    assert low <= doc["overall"] <= high
    assert ci["obj_appearance_order"] is None  # no items, no interval
    assert doc["ci95_by_dataset"]["scannet"] == ci
    md = render_markdown(result)
    assert "95 % intervals (scene-clustered bootstrap" in md
    assert "Fewer than 30 items, too few to rank by: Room Size (n=5)" in md


def test_interval_and_p_value_agree_on_skewed_draws() -> None:
    # issue 21 newcomer check: Obj. Count (n=3) had ci95 [-90, -20] (0 excluded) but p = 0.2677 from the
    # shifted test; skewed resamples: 700 at -20, 300 at -70, the observed -30
    draws = np.concatenate([[-30.0], np.full(700, -20.0), np.full(300, -70.0)])
    test = paired(draws)
    assert test is not None
    assert test.ci95 == (-70.0, -20.0)
    # percentile-interval inversion: no resample >= 0, so p = 2 * (0 + 1) / (1000 + 1)
    assert test.p_value == pytest.approx(2 / 1001, abs=1e-4)
    assert not test.includes_zero


def test_p_at_least_005_is_not_shown_even_when_the_interval_excludes_zero() -> None:
    # 25 of 1000 resamples below 0: the 2.5th percentile (interpolated) is 4.85, but p = 2 * 26 / 1001 > 0.05
    draws = np.concatenate([[5.0], np.full(25, -1.0), np.full(975, 5.0)])
    test = paired(draws)
    assert test is not None
    assert test.ci95[0] > 0
    assert test.p_value == pytest.approx(52 / 1001, abs=1e-4)
    assert test.includes_zero  # one rule: interval includes 0 OR p >= 0.05


def test_scores_md_says_from_k_scenes_under_five_scenes() -> None:
    from spatialbench.scoring.output import interval_line

    rows = _rows(np.array([1.0, 0.0] * 20), 20)  # 40 items from 2 scenes
    line = interval_line(task_table(rows))
    assert "Avg. n=40 [" in line and "] from 2 scenes" in line
    assert "from" not in interval_line(task_table(_clustered_rows()))  # 60 scenes: no note


def test_overall_interval_resamples_only_the_questions_the_point_counts() -> None:
    """MindCube: translation is scored but left out of the overall (3/5 = 60.0 over rotation/among/around).

    The interval must resample those 5 questions (each its own scene): every bootstrap mean is then a
    multiple of 1/5. Resampling the 6 scenes, translation's too, gave 1/6 = 16.7 as its lower end.
    """
    from spatialbench.benchmarks.mindcube import mindcube_table

    rows = pd.DataFrame({"id": [f"q{i}" for i in range(6)], "scene_id": [f"s{i}" for i in range(6)],
                         "task": ["rotation", "among", "among", "around", "around", "translation"],
                         "score": [1.0, 1.0, 0.0, 1.0, 0.0, 1.0], "answered": True})
    table = mindcube_table(rows)
    assert table.average == pytest.approx(60.0) and sum(c.n for c in table.cells) == 5
    low, high = table_ci(table)["overall"]
    assert (low * 5 / 100) == pytest.approx(round(low * 5 / 100))  # k/5, not k/6
    assert (high * 5 / 100) == pytest.approx(round(high * 5 / 100))
    inner = rows[rows["task"] != "translation"]
    expected = table_ci(grouped(inner, [Group.of("all", task=("rotation", "among", "around"))]))["overall"]
    assert (low, high) == expected
    assert table_ci(table)["translation"] is None  # its 1 question from 1 scene: no interval (MIN_SCENES)


def test_scene_counts_by_hand_an_item_without_scene_its_own_cluster() -> None:
    rows = pd.DataFrame({"id": ["1", "2", "3", "4", "5"], "task": ["a", "a", "b", "b", "b"],
                         "scene_id": ["s1", "s1", "s1", "s2", None], "score": [1.0, 0.0, 1.0, 1.0, 0.0],
                         "answered": True})
    table = grouped(rows, [Group.of("a", task="a"), Group.of("b", task="b")])
    # b: s1, s2 and item:5; overall: the same three scenes
    assert table_clusters(table) == {"a": (2, 1), "b": (3, 3), "overall": (5, 3)}


def test_a_resampler_without_one_of_the_tables_scenes_names_it() -> None:
    table = grouped(_rows(np.ones(4), 2), [Group.of("t", task="t")])  # scenes s0, s1
    with pytest.raises(KeyError, match="s1"):
        table_draws(table, Resampler.of(["s0"]))


def test_task_draws_by_hand_a_row_without_task_in_none() -> None:
    rows = pd.DataFrame({"id": ["1", "2", "3", "4"], "task": pd.Series(["x", "x", "y", None], dtype="str"),
                         "scene_id": ["s1", "s2", "s1", "s2"], "score": [1.0, 0.0, 0.5, 1.0],
                         "answered": True})
    table = task_table(rows)
    # row 0 the point; then s1 drawn twice, then s2 drawn twice (y has no question in s2: NaN)
    resampler = Resampler({"s1": 0, "s2": 1}, np.array([[1.0, 1.0], [2.0, 0.0], [0.0, 2.0]]))
    draws = table_draws(table, resampler)
    assert draws["x"] is not None and draws["x"].tolist() == [50.0, 100.0, 0.0]
    assert draws["y"] is not None and np.array_equal(draws["y"], [50.0, 50.0, np.nan], equal_nan=True)


def test_a_table_of_no_rows_has_no_intervals():
    """A baseline that answers none of a benchmark's tasks scores no row (vsi-super-count's chance rows)."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.scoring.scorer import build_rows

    rows = build_rows([], [], [], [], [])
    table = get_benchmark("vsibench").scoring.table(rows)
    assert set(table_ci(table).values()) == {None}
