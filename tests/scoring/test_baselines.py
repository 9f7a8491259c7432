import numpy as np
import pytest

from spatialbench.benchmarks.vsibench import REL_DIRECTION_TASKS, SPEC, load_vsibench
from spatialbench.scoring.baselines import BASELINES, most_frequent_answers
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


def test_chance_frequency_answers_and_scores(subset):
    answers = most_frequent_answers(subset)
    assert answers["object_counting"] == "2"
    result = BASELINES.get("chance-frequency")(subset, SPEC.scoring)
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
    frequency = BASELINES.get("chance-frequency")(subset, SPEC.scoring)
    assert "extraction: n/a (the task's most frequent ground truth, read by the official rule)" in (
        render_markdown(frequency))
    assert scores_json(frequency)["n_items"] == 300
