import numpy as np
import pytest

from spatialbench.benchmarks.vsibench import REL_DIRECTION_TASKS, SPEC, load_vsibench
from spatialbench.records.item import AnswerKind, Item
from spatialbench.scoring.baselines import (
    BASELINES,
    best_constant,
    frequency_responses,
    most_frequent_answers,
)
from spatialbench.scoring.metrics import mra_array
from support.shared_data import require_file


@pytest.fixture(scope="module")
def subset(shared_data):
    return load_vsibench(require_file(shared_data / "vsibench" / "official_samples" / "subset_300.jsonl"))


def test_chance_random_rel_dir_is_mean_of_inverse_option_counts(subset):
    result = BASELINES.get("chance-random")(subset, SPEC.scoring)
    per_subtype = [np.mean([1 / len(i.options) for i in subset if i.task == t]) for t in REL_DIRECTION_TASKS]
    # subset_300: easy items have 2 options, medium 3, hard 4 -> (1/2 + 1/3 + 1/4) / 3
    assert per_subtype == pytest.approx([1 / 2, 1 / 3, 1 / 4])
    assert result.table.scores["object_rel_direction"] == pytest.approx(100 * (1 / 2 + 1 / 3 + 1 / 4) / 3)
    assert result.table.scores["object_rel_distance"] == pytest.approx(25.0)
    assert result.table.scores["object_counting"] is None  # not applicable to numerical tasks


def test_chance_frequency_string_answers_and_scores(subset):
    answers = most_frequent_answers(subset)
    assert answers["object_counting"] == "2"
    result = BASELINES.get("chance-frequency-string")(subset, SPEC.scoring)
    truths = np.array([float(i.ground_truth) for i in subset if i.task == "object_counting"])
    expected = 100 * mra_array(np.full(len(truths), 2.0), truths).mean()
    assert result.table.scores["object_counting"] == pytest.approx(expected)
    easy = [i for i in subset if i.task == "object_rel_direction_easy"]
    share = np.mean([i.ground_truth == answers["object_rel_direction_easy"] for i in easy])
    assert result.table.task_scores["object_rel_direction_easy"] == pytest.approx(100 * share)


def test_baseline_reports_say_what_was_scored(subset):
    # newcomer report: "items: 180" for a 300-item file, "no items for: Obj. Count", "extraction: official"
    from spatialbench.scoring.output import render_markdown, scores_json

    text = render_markdown(BASELINES.get("chance-random")(subset, SPEC.scoring))
    assert "items: 300 (180 scored, 120 not applicable)" in text
    assert "not applicable (printed -, as in the paper): Obj. Count, Abs. Dist., Obj. Size, Room Size" in text
    assert "no items for" not in text
    frequency = BASELINES.get("chance-frequency-string")(subset, SPEC.scoring)
    assert "extraction: n/a (chance-frequency-string: the task's most frequent ground-truth string" in (
        render_markdown(frequency)
    )
    assert scores_json(frequency)["n_items"] == 300
    text = render_markdown(BASELINES.get("chance-frequency")(subset, SPEC.scoring))
    assert (
        "numerical tasks answer the constant with the best mean MRA (continuous optimum); tasks with fixed"
        in text
    )


def item(i, truth, options=(), task="object_abs_distance"):
    """A numerical item, or a multiple-choice one when option texts are given (lettered A, B, ...)."""
    kind = AnswerKind.MULTIPLE_CHOICE if options else AnswerKind.NUMERICAL
    lettered = tuple(f"{chr(65 + k)}. {o}" for k, o in enumerate(options))
    return Item(
        id=str(i),
        benchmark="vsibench",
        task=task,
        question="q",
        options=lettered,
        ground_truth=truth,
        answer_kind=kind,
    )


def na(i, truth):
    return item(f"n{i}", truth)


def mc(i, options, truth, task="object_rel_direction_medium"):
    return item(f"m{i}", truth, options, task)


def test_numerical_frequency_is_the_best_constant_not_the_most_frequent_value():
    items = [na(i, t) for i, t in enumerate(["1.0", "1.0", "5.0", "5.2", "5.4"])]
    # hand MRA (official <=): answer 5.2 -> 0 + 0 + 1 (err 0.04) + 1 + 1 (err 0.037) = 3 of 5 = 60 %;
    # 5.0 -> 1 (5.2: err 0.038) + 0.9 (5.4: err 0.074, theta <= 0.926) = 2.9 / 5 = 58 %; 5.4 likewise 58 %;
    # the most frequent value 1.0 -> 1 + 1 + 0 + 0 + 0 = 40 %
    assert best_constant(items) == "5.2"
    assert BASELINES.get("chance-frequency")(items).table.task_scores["object_abs_distance"] == pytest.approx(
        60.0
    )
    assert BASELINES.get("chance-frequency-string")(items).table.task_scores["object_abs_distance"] == (
        pytest.approx(40.0)
    )


def test_rel_direction_frequency_is_the_most_frequent_answer_text():
    items = [
        mc(1, ("left", "right", "back"), "A"),  # left
        mc(2, ("right", "left", "back"), "B"),  # left
        mc(3, ("back", "right", "left"), "C"),  # left
        mc(4, ("right", "back", "left"), "A"),  # right
    ]
    # text "left" (3 of 4) answered by its letter in each item: A, B, C, C -> 3 of 4 right; the most
    # frequent letter (A, 2 of 4) would score 50 %
    assert frequency_responses(items) == {"m1": "A", "m2": "B", "m3": "C", "m4": "C"}
    score = BASELINES.get("chance-frequency")(items).table.task_scores["object_rel_direction_medium"]
    assert score == pytest.approx(75.0)
    letters = BASELINES.get("chance-frequency-string")(items).table.task_scores["object_rel_direction_medium"]
    assert letters == pytest.approx(50.0)


def test_choices_that_differ_per_item_keep_the_most_frequent_letter():
    items = [
        mc(1, ("sofa", "tv", "bed", "lamp"), "B", "object_rel_distance"),
        mc(2, ("chair", "tv", "door", "sink"), "B", "object_rel_distance"),
        mc(3, ("tv", "sofa", "bed", "lamp"), "A", "object_rel_distance"),
    ]
    # "tv" is the answer text twice, but option texts differ per item: the letter B (2 of 3) is answered
    assert set(frequency_responses(items).values()) == {"B"}
    assert BASELINES.get("chance-frequency")(items).table.task_scores["object_rel_distance"] == pytest.approx(
        200 / 3
    )


def test_frequency_row_on_the_official_samples(subset, shared_data):
    # official_samples, 30 items per question type in subset_300 (about +-8 points of sampling noise), and
    # the 291 questions of the 5 complete scenes; the paper's row: 62.1 32.0 29.9 33.1 25.1 47.9 28.4 25.2
    five = load_vsibench(
        require_file(shared_data / "vsibench" / "official_samples" / "gemini3flash_5scenes" / "questions")
    )
    expected = {  # continuous optimum (default) and the constant restricted to ground-truth values
        ("chance-frequency", "subset_300"): [62.7, 36.7, 36.3, 31.3, 30.0, 60.0, 40.0, 30.0],
        ("chance-frequency", "5 scenes"): [87.5, 46.8, 36.2, 58.0, 26.8, 51.1, 50.0, 26.6],
        ("chance-frequency-restricted", "subset_300"): [61.0, 35.7, 36.0, 30.7, 30.0, 60.0, 40.0, 30.0],
        ("chance-frequency-restricted", "5 scenes"): [85.8, 45.6, 36.2, 56.0, 26.8, 51.1, 50.0, 26.6],
    }
    for (baseline, name), row in expected.items():
        items = subset if name == "subset_300" else five
        scores = BASELINES.get(baseline)(items, SPEC.scoring).table.scores
        assert [round(v, 1) for v in scores.values()] == row, (baseline, name)
    # Rel. Dir. on subset_300 by hand: per sub-type the share of its most frequent answer text
    shares = []
    for task in REL_DIRECTION_TASKS:
        texts = [i.options[ord(i.ground_truth) - 65].split(". ", 1)[1] for i in subset if i.task == task]
        shares.append(max(texts.count(t) for t in set(texts)) / len(texts))
    scores = BASELINES.get("chance-frequency")(subset, SPEC.scoring).table.scores
    assert scores["object_rel_direction"] == pytest.approx(100 * np.mean(shares))


def test_continuous_constant_is_not_beaten_by_a_dense_grid(subset):
    # independent check: 40,000 constants spread over the task's range never beat the sweep's optimum
    from spatialbench.scoring.chance_constant import continuous_best_constant
    from spatialbench.scoring.metrics import mra_array

    for task in ("object_abs_distance", "object_size_estimation", "room_size_estimation", "object_counting"):
        truths = np.array([float(i.ground_truth) for i in subset if i.task == task])
        best = continuous_best_constant(truths)
        top = float(np.mean(mra_array(np.full(truths.size, best), truths)))
        grid = np.linspace(truths.min() * 0.5, truths.max() * 1.5, 40_000)
        scores = mra_array(np.repeat(grid, truths.size), np.tile(truths, grid.size)).reshape(grid.size, -1)
        assert scores.mean(axis=1).max() <= top + 1e-12, task
        restricted = max(float(np.mean(mra_array(np.full(truths.size, t), truths))) for t in truths)
        assert top >= restricted, task
