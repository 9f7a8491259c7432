"""Chance level (frequency) of a generated benchmark, per task (VSI-Bench Table 1 baseline row).

Multiple choice: for each question pick the option whose text is most often the correct answer across
the task (ties: first letter), scored by accuracy. Numerical: always predict the task's most frequent
ground truth, scored by MRA (official ``<=`` thresholds). Returned in percent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from spatialbench.benchmarks.item import AnswerKind, Item


def _option_text(option: str) -> str:
    return option.split(". ", 1)[1] if ". " in option else option


def frequency_baseline(items: Sequence[Item]) -> float | None:
    """Frequency-baseline score (%) of ``items`` (all of one task); None when there are none."""
    if not items:
        return None
    if items[0].answer_kind is AnswerKind.NUMERICAL:
        from spatialbench.scoring.metrics import mra_array

        truths = np.array([float(it.ground_truth) for it in items])
        mode = Counter(it.ground_truth for it in items).most_common(1)[0][0]
        return round(float(np.mean(mra_array(np.full(len(items), float(mode)), truths))) * 100, 1)
    answers = Counter(_option_text(it.options[ord(it.ground_truth) - ord("A")]) for it in items)
    hits = 0
    for it in items:
        texts = [_option_text(o) for o in it.options]
        best = max(range(len(texts)), key=lambda i: (answers[texts[i]], -i))
        hits += chr(ord("A") + best) == it.ground_truth
    return round(100.0 * hits / len(items), 1)
