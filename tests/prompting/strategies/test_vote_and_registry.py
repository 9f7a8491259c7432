"""Votes, ties, vote replies and the strategy registry (parameters checked, typed and recorded)."""

import pytest

from spatialbench.prompting.strategies import STRATEGIES, StrategyConfig, build_strategy
from spatialbench.prompting.strategies.base import extraction_prompt, format_value
from spatialbench.prompting.strategies.tot import sorted_ties
from spatialbench.prompting.strategies.vote import majority, read_vote
from spatialbench.records.item import AnswerKind, Item
from spatialbench.registry import UnknownNameError


def test_majority_counts_values_and_breaks_ties_by_first_cast() -> None:
    assert majority(["B", "C", "C", "B", "D"]) == "B"  # 2-2 tie: B was cast first
    assert majority([None, "C", "B", "C", None]) == "C"
    assert majority([3.0, 4.0, 3.0]) == 3.0 and majority([None, None]) is None
    assert majority([2, 2.0, 5.0]) == 2  # numbers vote by value: 2 == 2.0


def test_tree_of_thought_ties_go_to_the_lowest_numbered_choice() -> None:
    assert majority(sorted_ties([2, 0, None])) == 0
    assert majority(sorted_ties([2, 1, 2])) == 2


def test_read_vote_takes_the_last_best_choice_within_range() -> None:
    assert read_vote("Plan 1 is weak.\nThe best choice is 2", 3) == 1
    assert read_vote("The best choice is 1. On reflection, the best choice is **3**.", 3) == 2
    assert read_vote("The best choice is plan 2", 3) == 1
    assert read_vote("The best choice is 7", 3) is None
    assert read_vote("I like them all.", 3) is None and read_vote(None, 3) is None  # type: ignore[arg-type]


def test_registry_lists_every_strategy_and_records_defaults() -> None:
    assert STRATEGIES.names() == [
        "answer-and-reason",
        "cognitive-map",
        "direct",
        "map-then-answer",
        "mmsi-three-step",
        "self-consistency",
        "self-explanation",
        "tree-of-thought",
        "with-3d-cues",
        "zero-shot-cot",
    ]
    sc = build_strategy(StrategyConfig(name="self-consistency", params={"temperature": 1, "samples": 3}))
    assert sc.parameters() == {
        "samples": 3,
        "temperature": 1.0,
        "top_p": 1.0,
        "top_k": 40,
        "reasoning_tokens": 2048,
    }  # App. B.3 defaults, temperature set to Sec. 5.2's 1.0
    assert build_strategy(StrategyConfig(name="tree-of-thought")).parameters()["plans"] == 3


def test_bad_strategy_names_and_parameters_are_clear_errors() -> None:
    with pytest.raises(UnknownNameError, match="self-consistency"):
        build_strategy(StrategyConfig(name="self-consistancy"))
    with pytest.raises(ValueError, match=r"no parameter\(s\) \['temp'\].*temperature"):
        build_strategy(StrategyConfig(name="self-consistency", params={"temp": 0.5}))
    with pytest.raises(ValueError, match="samples: expected int"):
        build_strategy(StrategyConfig(name="self-consistency", params={"samples": "five"}))
    with pytest.raises(ValueError, match="reasoning_tokens must be at least 1, got 0"):
        build_strategy(StrategyConfig(name="self-consistency", params={"reasoning_tokens": 0}))


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("self-consistency", {"samples": 2.0}, "samples: expected int, got 2.0"),  # integers as integers
        ("self-consistency", {"samples": 64, "temperature": 2, "top_p": 1e-3, "top_k": 0}, None),
        ("self-consistency", {"samples": 0}, "samples must be 1..64, got 0"),
        ("tree-of-thought", {"answer_votes": 16, "plan_votes": 17}, "plan_votes must be 1..16, got 17"),
        ("tree-of-thought", {"temperature": float("inf")}, "temperature must be 0..2, got inf"),
        ("self-consistency", {"top_p": -0.5}, r"top_p must be in \(0, 1\], got -0.5"),
    ],
)
def test_strategy_parameter_bounds(name, params, message) -> None:
    config = StrategyConfig(name=name, params=params)
    if message is None:
        assert build_strategy(config).parameters()["samples"] == 64
        return
    with pytest.raises(ValueError, match=message):
        build_strategy(config)


def _item(kind: AnswerKind, options: tuple[str, ...] = ()) -> Item:
    return Item(
        id="1", benchmark="b", task="t", question="q", options=options, ground_truth="A", answer_kind=kind
    )


def test_extraction_prompt_names_the_letters_or_asks_for_a_number() -> None:
    mca = extraction_prompt(_item(AnswerKind.MULTIPLE_CHOICE, ("A. x", "B. y", "C. z")))
    assert "(A, B or C)" in mca and "letter" in mca
    assert "single number" in extraction_prompt(_item(AnswerKind.NUMERICAL))
    assert "letter of the correct option and" in extraction_prompt(_item(AnswerKind.MULTIPLE_CHOICE))
    assert (format_value("B"), format_value(3.0), format_value(0.35)) == ("B", "3.0", "0.35")


def test_split_plans_reads_the_plans_of_one_reply() -> None:
    from spatialbench.prompting.strategies.tot import split_plans

    reply = "Sure.\nPlan 1: count chairs.\n**Plan 2:** look twice.\nmore of plan 2\n"
    reply += "Plan 3) compare.\nPlan 4: extra"
    assert split_plans(reply, 3) == [
        "Plan 1: count chairs.",
        "**Plan 2:** look twice.\nmore of plan 2",
        "Plan 3) compare.",
    ]
    assert split_plans("just one idea", 3) == ["just one idea"]  # no marker: the whole reply, one plan
    assert split_plans(None, 3) == [""]  # type: ignore[arg-type]  # model output is untrusted
