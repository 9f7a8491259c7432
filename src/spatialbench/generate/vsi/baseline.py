"""Chance level (frequency) of a generated benchmark, per task (VSI-Bench Table 1 baseline row).

The answers come from the project's ``chance-frequency`` baseline (``models.chance.FrequencyChance``:
per task the option text most often correct, or the most frequent numerical ground truth), scored with
the project's metrics: exact-match accuracy, and MRA with the official ``<=`` thresholds. In percent.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialbench.benchmarks.item import AnswerKind, Item


def frequency_baseline(items: Sequence[Item]) -> float | None:
    """Frequency-baseline score (%) of ``items`` (all of one task); None when there are none."""
    from spatialbench.models.chance import FrequencyChance
    from spatialbench.scoring.metrics import exact_match, mra_array

    if not items:
        return None
    baseline = FrequencyChance()
    baseline.prepare(items)
    answers = [baseline.answer(it).text for it in items]
    if items[0].answer_kind is AnswerKind.NUMERICAL:
        truths = np.array([float(it.ground_truth) for it in items])
        scores = mra_array(np.array([float(a) for a in answers]), truths)
    else:
        scores = np.array([exact_match(a, it.ground_truth) for a, it in zip(answers, items, strict=True)])
    return round(float(np.mean(scores)) * 100, 1)
