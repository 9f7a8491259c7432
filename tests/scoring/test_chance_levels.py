"""Chance baselines are scorers computed from the items (formerly back ends in models/chance.py)."""

import pytest

from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring.baselines import BASELINES, most_frequent_answers


def _mca(i: int, options: tuple[str, ...], truth: str, task: str = "object_rel_distance") -> Item:
    return Item(
        id=f"m{i}",
        benchmark="vsibench",
        task=task,
        question="q",
        options=options,
        ground_truth=truth,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
    )


def _na(i: int, truth: str) -> Item:
    return Item(
        id=f"n{i}",
        benchmark="vsibench",
        task="object_counting",
        question="q",
        ground_truth=truth,
        answer_kind=AnswerKind.NUMERICAL,
    )


def test_frequency_picks_most_frequent_ground_truth_per_task() -> None:
    items = [
        _mca(0, ("A. chair", "B. table", "C. lamp"), "B"),
        _mca(1, ("A. table", "B. chair", "C. bed"), "B"),
        _mca(2, ("A. lamp", "B. table", "C. sofa"), "C"),
        _mca(3, ("A. x", "B. y"), "A", task="object_rel_direction_easy"),
        _na(0, "2"),
        _na(1, "3"),
        _na(2, "2"),
    ]
    answers = most_frequent_answers(items)
    assert answers["object_rel_distance"] == "B"
    assert answers["object_rel_direction_easy"] == "A"
    assert answers["object_counting"] == "2"
    result = BASELINES.get("chance-frequency")(items)
    assert result.rows.set_index("id").loc["m2", "prediction"] == "B"  # every item gets its task's answer


def test_frequency_does_not_leak_answers_through_unique_option_texts() -> None:
    # appearance-order options are unique sequences: the baseline must not recover each item's own answer
    letters = "ABCD"
    items = [
        _mca(i, tuple(f"{x}. seq{i}-{x}" for x in letters), letters[i % 4], task="obj_appearance_order")
        for i in range(40)
    ]
    answer = most_frequent_answers(items)["obj_appearance_order"]
    hits = sum(answer == it.ground_truth for it in items)
    assert hits == 10  # one letter in four, as a fixed-letter guess scores on balanced answers
    assert BASELINES.get("chance-frequency")(items).table.average == pytest.approx(25.0)


def test_random_scores_the_expected_value_and_leaves_numerical_items_out() -> None:
    items = [_mca(i, ("A. a", "B. b", "C. c", "D. d"), "A") for i in range(40)] + [_na(0, "3")]
    result = BASELINES.get("chance-random")(items)
    assert result.table.average == pytest.approx(25.0)  # chance level 25 % on 4 options
    assert result.item_count == 41 and len(result.rows) == 40  # the numerical item has no chance level
