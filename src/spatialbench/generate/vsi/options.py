"""Option making: letter balancing for multiple choice, generated options for numerical tasks (App. B.1)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from spatialbench.generate.vsi.base import CHOICE_PLACEHOLDERS
from spatialbench.generate.vsi.settings import GenerationSettings
from spatialbench.prompting.templates import fill

BATCH = 256  # candidate option sets drawn at once
MAX_ROUNDS = 8  # batches before giving up; each failed batch relaxes the gap and widens the range


def letter(index: int) -> str:
    """0 -> "A", 1 -> "B", ..."""
    return chr(ord("A") + index)


class LetterBalancer:
    """Place each answer at the least-used letter so far (ties broken at random).

    Letters stay as uniform as possible within a task (App. B.1: "letter answers are distributed as
    uniformly as possible").
    """

    def __init__(self) -> None:
        self.used: Counter[int] = Counter()

    def order(self, answer: str, choices: tuple[str, ...], rng: np.random.Generator) -> tuple[list[str], int]:
        """Order ``choices`` with ``answer`` at a balanced position.

        Returns:
            (ordered choices, index of the answer).

        Raises:
            ValueError: ``answer`` is not among ``choices`` or a choice repeats.
        """
        if answer not in choices or len(set(choices)) != len(choices):
            raise ValueError(f"answer {answer!r} must be one of distinct choices {list(choices)}")
        least = min(self.used[i] for i in range(len(choices)))
        slots = [i for i in range(len(choices)) if self.used[i] == least]
        position = int(slots[rng.integers(len(slots))])
        self.used[position] += 1
        others = [c for c in choices if c != answer]
        others = [others[i] for i in rng.permutation(len(others))]
        return others[:position] + [answer] + others[position:], position


def fill_choices(question: str, ordered: list[str]) -> str:
    """Fill the ``{choice_a}``… placeholders of ``question`` with the ordered choices.

    Raises:
        TemplateError: ``question`` has a placeholder beyond the choices given.
    """
    return fill(question, dict(zip(CHOICE_PLACEHOLDERS, ordered, strict=False)))


def format_number(value: float, decimals: int) -> str:
    """Format a number as the official files do.

    ``round(value, decimals)`` with exactly ``decimals`` digits (``"2.3"``, ``"43.0"``; integers for
    ``decimals == 0``: ``"96"``).
    """
    return f"{round(float(value), decimals):.{decimals}f}" if decimals else str(int(round(float(value))))


def numeric_options(
    truth: float, decimals: int, settings: GenerationSettings, rng: np.random.Generator
) -> list[str]:
    """Options for the multiple-choice version of a numerical question, truth first (unordered).

    Distractors are drawn uniformly in [low·truth, high·truth] and the whole set is re-drawn while two
    options lie within ``option_min_gap·truth`` of each other or format to the same text. Small truths
    leave few distinct rounded values in that range (a count of 2, a distance of 0.1 m), so after each
    batch of ``BATCH`` sets without an acceptable one the gap is halved and the upper factor grows by half.

    Raises:
        ValueError: no acceptable set after ``MAX_ROUNDS`` batches.
    """
    gap = settings.option_min_gap * truth
    low, high = settings.option_factor_low * truth, settings.option_factor_high * truth
    answer = format_number(truth, decimals)
    for _ in range(MAX_ROUNDS):
        # one vectorised batch of candidate sets; the first acceptable set wins (same draws -> same result)
        draws = np.round(rng.uniform(low, high, size=(BATCH, settings.option_count - 1)), decimals)
        values = np.concatenate([np.full((BATCH, 1), float(answer)), draws], axis=1)
        gaps = np.abs(values[:, :, None] - values[:, None, :])
        gaps[:, np.arange(values.shape[1]), np.arange(values.shape[1])] = np.inf
        ok = (gaps.min(axis=(1, 2)) >= max(gap, 10.0**-decimals / 2)) & (values.min(axis=1) > 0)
        for row in np.flatnonzero(ok):
            texts = [answer] + [format_number(v, decimals) for v in draws[row]]
            if len(set(texts)) == len(texts):
                return texts
        gap, high = gap / 2.0, high * 1.5
    raise ValueError(f"cannot make {settings.option_count} distinct options around {answer}")
