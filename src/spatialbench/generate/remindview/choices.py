"""Choices of a question: how many, which distractors, and where the answer's letter goes.

Fixes of the official generator (issue 12): the answer is always one of the choices; no two names in one
question are the same or similar; the answer's letter position is balanced per template
(:class:`LetterBalancer`), not fixed.

Direction answers, official rule (the default, issue 27): three distractors sharing no component with the
answer (:func:`official_distractors`), so a direction question always has four choices, as in the released
code. Its drawback, kept for fidelity: a compound answer (``front-left``) can only get ``right``, ``back``
and ``back-right``, so it is always the one choice sharing no component with the others; a guesser that
knows the pattern beats chance.

Direction answers, ``balanced`` rule (``QuestionSettings.direction_choices``, issue 12). A distractor is
never the answer's bin or an adjacent one (App. B.3: overlapping descriptions such as ``right`` and
``front-right`` are mutually excluded), and the answer is never the only choice that shares no component
with the others (a give-away). :class:`PatternBalancer` then picks, among the valid distractor sets, the
one that keeps every (template, number of choices, number of compound choices) pattern honest: the answer
is compound in ``c/k`` of the questions whose ``k`` choices hold ``c`` compound directions, so the pattern
says nothing about the answer (a guesser that knows the pattern: 31.9 % at a chance of 31.9 %; under the
official rule's three-choice version it scored 62 % where chance is 34 %, simulated over uniform answers).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

from spatialbench.generate.remindview.relations import DIRECTIONS, gives_away, overlapping, shares_component

#: the most choices a question has (the official code offers up to four)
MAX_CHOICES = 4


def similar(a: str, b: str) -> bool:
    """Return whether two names are similar: equal, one inside the other, or the same last word."""
    a, b = a.lower().strip(), b.lower().strip()
    return a == b or a in b or b in a or a.split()[-1] == b.split()[-1]


def all_distinct(names: Sequence[str]) -> bool:
    """No two of ``names`` are similar (:func:`similar`)."""
    return not any(similar(a, b) for a, b in combinations(names, 2))


def official_distractors(answer: str, rng: np.random.Generator) -> tuple[str, ...]:
    """Three directions sharing no component with ``answer`` (in ``DIRECTIONS`` order; module docstring)."""
    pool = [d for d in DIRECTIONS if not shares_component(d, answer)]
    chosen = sorted(rng.choice(len(pool), size=3, replace=False).tolist())
    return tuple(pool[i] for i in chosen)


def direction_distractor_sets(answer: str, count: int) -> list[tuple[str, ...]]:
    """Every set of ``count`` distractor directions for ``answer``.

    No distractor in the answer's bin or an adjacent one, and no give-away (module docstring).
    """
    pool = [d for d in DIRECTIONS if not overlapping(d, answer)]
    return [s for s in combinations(pool, count) if not gives_away(answer, [answer, *s])]


class PatternBalancer:
    """Chooses direction distractor sets so the compound / simple pattern of the choices tells nothing.

    For each (template, k choices, c compound choices) it counts the questions and those with a compound
    answer; a new question takes the valid set whose pattern then stays closest to ``c/k`` compound answers
    (ties broken by the question's generator).
    """

    def __init__(self) -> None:
        """Start with no questions counted."""
        self.counts: dict[tuple[int, int, int], list[float]] = {}

    def _cost(self, template: int, answer: str, choices: Sequence[str]) -> float:
        k, c = len(choices), sum("-" in d for d in choices)
        n, compound = self.counts.get((template, k, c), [0.0, 0.0])
        share, is_compound = c / k, float("-" in answer)
        return abs(compound + is_compound - share * (n + 1)) - abs(compound - share * n)

    def pick(
        self, template: int, answer: str, wanted: int, rng: np.random.Generator
    ) -> tuple[str, ...] | None:
        """Return ``wanted − 1`` distractors for a direction answer (fewer when no valid set is that big)."""
        for count in range(wanted - 1, 0, -1):
            sets = direction_distractor_sets(answer, count)
            if not sets:
                continue
            costs = [self._cost(template, answer, [answer, *s]) for s in sets]
            best = [s for s, cost in zip(sets, costs, strict=True) if cost <= min(costs) + 1e-9]
            chosen = best[int(rng.integers(len(best)))]
            key = (template, count + 1, sum("-" in d for d in (answer, *chosen)))
            entry = self.counts.setdefault(key, [0.0, 0.0])
            entry[0] += 1
            entry[1] += float("-" in answer)
            return chosen
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
