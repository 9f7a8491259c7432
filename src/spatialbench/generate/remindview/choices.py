"""Choices of a question: how many, which distractors, and where the answer's letter goes.

Fixes of the official generator (issue 12): the answer is always one of the choices; direction distractors
share no component with the answer (``right`` is never a distractor of ``front-right``) and the answer is
never the only choice that shares no component with the others (that would give it away); no two names in
one question are the same or similar; the answer's letter position is balanced per template and number
(:class:`LetterBalancer`), not fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from spatialbench.generate.remindview.relations import DIRECTIONS, gives_away, shares_component

#: share of questions with 2 / 3 / 4 choices (App. A.3, Table 4: 18.5 / 27.7 / 53.8 %)
CHOICE_WEIGHTS = (0.185, 0.277, 0.538)


def similar(a: str, b: str) -> bool:
    """Return whether two names are similar: equal, one inside the other, or the same last word."""
    a, b = a.lower().strip(), b.lower().strip()
    return a == b or a in b or b in a or a.split()[-1] == b.split()[-1]


def all_distinct(names: Sequence[str]) -> bool:
    """No two of ``names`` are similar (:func:`similar`)."""
    return not any(similar(a, b) for a, b in combinations(names, 2))


def draw_choice_count(rng: np.random.Generator, weights: Sequence[float] = CHOICE_WEIGHTS) -> int:
    """Return a number of choices, 2–4, drawn with ``weights``."""
    p = np.asarray(weights, dtype=np.float64)
    return int(rng.choice([2, 3, 4], p=p / p.sum()))


def direction_distractor_sets(answer: str, count: int) -> list[tuple[str, ...]]:
    """Every set of ``count`` distractor directions for ``answer`` (no shared component, no give-away)."""
    pool = [d for d in DIRECTIONS if not shares_component(d, answer)]
    return [s for s in combinations(pool, count) if not gives_away(answer, [answer, *s])]


def pick_direction_distractors(answer: str, wanted: int, rng: np.random.Generator) -> tuple[str, ...] | None:
    """Distractors for a direction answer: ``wanted − 1`` of them, fewer when no valid set is that large."""
    for count in range(wanted - 1, 0, -1):
        sets = direction_distractor_sets(answer, count)
        if sets:
            return sets[int(rng.integers(len(sets)))]
    return None


def pick_distractors(pool: Sequence[str], wanted: int, rng: np.random.Generator) -> tuple[str, ...] | None:
    """Return ``wanted − 1`` distinct items of ``pool`` (fewer if it is smaller), in pool order, or None."""
    count = min(wanted - 1, len(pool))
    if count < 1:
        return None
    chosen = sorted(rng.choice(len(pool), size=count, replace=False).tolist())
    return tuple(pool[i] for i in chosen)


class LetterBalancer:
    """Answer positions balanced per template across questions with 2, 3 or 4 choices.

    Each template keeps, per letter, how often it was the answer and how often it would be under a uniform
    draw (a question with ``k`` choices adds ``1/k`` to each of its ``k`` letters); the next answer goes to
    the letter furthest below its uniform share (ties broken by the seeded generator), so every letter
    stays within about one question of uniform.
    """

    def __init__(self, rng: np.random.Generator) -> None:
        """Positions come from ``rng``."""
        self.rng = rng
        self.counts: dict[int, np.ndarray] = {}
        self.expected: dict[int, np.ndarray] = {}

    def position(self, template: int, choices: int) -> int:
        """Return the answer position (0-based) of the next ``template`` question with ``choices`` choices."""
        counts = self.counts.setdefault(template, np.zeros(4))
        expected = self.expected.setdefault(template, np.zeros(4))
        expected[:choices] += 1.0 / choices
        deficit = expected[:choices] - counts[:choices]
        best = np.flatnonzero(deficit >= deficit.max() - 1e-9)
        position = int(best[int(self.rng.integers(len(best)))])
        counts[position] += 1
        return position

    def arrange(self, template: int, answer: str, distractors: Sequence[str]) -> list[str]:
        """Return the choices: the answer at the balanced position, the distractors shuffled around it."""
        others = [distractors[i] for i in self.rng.permutation(len(distractors))]
        others.insert(self.position(template, len(distractors) + 1), answer)
        return others
