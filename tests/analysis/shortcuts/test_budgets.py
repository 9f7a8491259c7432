"""IBP budgets: global / per format / per type with a floor, the (-score at 12 decimals, id) tie-break,
early stop. Tables small enough to work out by hand which ids go; the loop itself on planted items."""

from __future__ import annotations

import pandas as pd
import pytest

from spatialbench.analysis.shortcuts.allocation import (
    BudgetError,
    budgets_from_ids,
    plan_groups,
    proportional_budgets,
    question_types,
)
from spatialbench.analysis.shortcuts.pruning import iterative_bias_pruning, select_batch
from spatialbench.analysis.shortcuts.table import question_table
from support.planted_shortcuts import planted_choices, planted_sizes


def _rows(spec: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    """(id, task, difficulty, format) rows."""
    return pd.DataFrame(spec, columns=["id", "task", "difficulty", "format"])


def _mixed() -> pd.DataFrame:
    """120 planted relative-distance items (ids 0-119) and 60 planted object sizes (ids 1000-1059)."""
    choices, _ = planted_choices(120, planted=True)
    return question_table([*choices, *planted_sizes(60, planted=True)])


def test_ties_at_12_decimals_go_by_numeric_id_and_the_floor_holds_per_type():
    # A: 8, 9, 10, 11 (floor 2: two of them may go); B: 12, 13 (floor 1 below B's 2: one may go)
    table = _rows(
        [(i, "A", "", "num") for i in ("8", "9", "10", "11")] + [(i, "B", "", "num") for i in ("12", "13")]
    )
    bias = pd.Series([0.5, 0.9, 0.9, 0.9 + 1e-14, 0.95, 0.97])
    # by hand, ranked: 13 (0.97), 12 (0.95), then 9, 10, 11 (0.9 at 12 decimals, in id order), 8 (0.5).
    # floor 1: 13 (B 2 -> 1), 12 skipped (B at the floor), 9, 10, 11 (A 4 -> 1)
    assert select_batch(table, bias, 4, floor=1) == ["13", "9", "10", "11"]
    # floor 2: B never goes below 2, A goes 4 -> 2: 9, 10. Ids as text ("10" < "9") would take 10, 11;
    # unrounded scores would put 11 (0.9 + 1e-14) first: 11, 9.
    assert select_batch(table, bias, 4, floor=2) == ["9", "10"]
    assert select_batch(table, bias, 1, floor=0) == ["13"]


def test_relative_direction_levels_are_types_of_their_own():
    table = _rows(
        [
            ("1", "object_rel_direction", "easy", "mc"),
            ("2", "object_rel_direction", "hard", "mc"),
            ("3", "route_planning", "", "mc"),
        ]
    )
    assert list(question_types(table)) == [
        "object_rel_direction_easy",
        "object_rel_direction_hard",
        "route_planning",
    ]


def test_per_format_splits_by_largest_remainder_ties_in_name_order():
    # mc 7, num 3 of budget 5: 3.5 and 1.5 -> 3 and 1, the remainders tie, the one left goes to "mc"
    assert proportional_budgets({"mc": 7, "num": 3}, 5) == {"mc": 4, "num": 1}
    # 2 / 3 / 5 of budget 4: 0.8, 1.2, 2.0 -> 0, 1, 2, one left to the largest remainder (a, 0.8)
    assert proportional_budgets({"a": 2, "b": 3, "c": 5}, 4) == {"a": 1, "b": 1, "c": 2}
    table = _rows(
        [(str(i), "t_mc", "", "mc") for i in range(7)] + [(str(i), "t_num", "", "num") for i in range(7, 10)]
    )
    groups = plan_groups(table, "per_format", budget=5)
    assert [(g.name, g.budget, g.ids) for g in groups] == [
        ("mc", 4, tuple(str(i) for i in range(7))),
        ("num", 1, ("7", "8", "9")),
    ]
    assert [(g.name, g.budget) for g in plan_groups(table, "per_format", budgets={"num": 2})] == [("num", 2)]


def test_per_type_budgets_round_and_stop_at_the_floor():
    table = _rows(
        [(f"a{i}", "A", "", "num") for i in range(30)]
        + [(f"b{i}", "B", "", "num") for i in range(12)]
        + [(f"e{i}", "object_rel_direction", "easy", "mc") for i in range(15)]
    )
    # frac 0.5: A round(15) = 15 (<= 30 - 10), B round(6) = 6 -> 12 - 10 = 2,
    # easy round(7.5) = 8 -> 15 - 10 = 5
    groups = plan_groups(table, "per_type", frac=0.5, floor=10)
    assert [(g.name, g.budget, len(g.ids)) for g in groups] == [
        ("A", 15, 30),
        ("object_rel_direction_easy", 5, 15),
        ("B", 2, 12),
    ]  # largest first
    assert [(g.name, g.budget) for g in plan_groups(table, "per_type", budgets={"B": 9}, floor=10)] == [
        ("B", 2)
    ]


@pytest.mark.parametrize(
    ("alloc", "kwargs", "words"),
    [
        ("per_type", {"budget": 5}, "--alloc per_type takes exactly one of --budgets / --frac"),
        ("global", {"frac": 0.1}, "--alloc global takes exactly one of --budget"),
        ("per_format", {"budgets": {"open": 3}}, "unknown formats open"),
        ("per_format", {"budgets": {"mc": 99}}, "--budgets mc=99: must be between 0 and its 7"),
        ("global", {"budget": 11}, "--budget 11: must be between 1 and the 10"),
        ("per_type", {"frac": 1.0}, "--frac 1.0"),
        ("random", {"budget": 1}, "--alloc 'random'"),
    ],
)
def test_budgets_that_do_not_fit_are_refused(alloc, kwargs, words):
    table = _rows(
        [(str(i), "t_mc", "", "mc") for i in range(7)] + [(str(i), "t_num", "", "num") for i in range(7, 10)]
    )
    with pytest.raises(BudgetError, match=words.replace("(", r"\(").replace("/", "/")):
        plan_groups(table, alloc, **kwargs)


def test_budgets_from_an_id_list_count_per_type():
    table = _mixed()
    assert budgets_from_ids(table, ["0", "2", "1000\n", ""]) == {
        "object_rel_distance": 2,
        "object_size_estimation": 1,
    }
    with pytest.raises(BudgetError, match="1 ids of the --budgets-from list are not in the benchmark"):
        budgets_from_ids(table, ["0", "nope"])


def test_per_format_prunes_each_format_on_its_own_budget():
    result = iterative_bias_pruning(_mixed(), 30, batch_size=10, alloc="per_format", control_seeds=1)
    assert result.settings["budgets"] == {"mc": 20, "num": 10}  # 120 / 180 and 60 / 180 of 30
    assert [(g["group"], g["n"], g["removed"]) for g in result.groups] == [("mc", 120, 20), ("num", 60, 10)]
    assert all(int(i) < 1000 for i in result.removed[:20]) and all(
        int(i) >= 1000 for i in result.removed[20:]
    )
    assert [it["size_before"] for it in result.groups[0]["iterations"]] == [120, 110]
    assert len(result.kept) == 150 and not set(result.kept) & set(result.removed)


def test_per_type_and_early_stop():
    result = iterative_bias_pruning(
        _mixed(), None, batch_size=50, alloc="per_type", frac=0.25, control_seeds=1
    )
    assert result.settings["budgets"] == {"object_rel_distance": 30, "object_size_estimation": 15}
    assert [len(g["iterations"]) for g in result.groups] == [1, 1]
    # the bias never exceeds 1 (MRA) or 1 - 1/4 (P(gold) - chance): a threshold of 1 stops at once
    stopped = iterative_bias_pruning(_mixed(), 30, batch_size=10, stop_below=1.0, control_seeds=1)
    assert stopped.removed == [] and stopped.groups[0]["stop_reason"] == "early_stop"
    assert stopped.before == stopped.after
