"""Chance baselines as back ends (VSI-Bench Sec. 4.1): ``chance-random`` and ``chance-frequency``.

They answer from the item alone — no media, no prompt — so they implement :class:`ItemBackend`, which the
runner calls instead of ``generate``:

- ``chance-random``: a uniformly random option letter for multiple-choice items; numerical items have no
  random chance level ("inapplicable", Sec. 4.1) and get an empty answer marked ``no_answer_expected``.
- ``chance-frequency``: per task, the most frequent ground truth across the benchmark (the letter for
  multiple choice, the number for numerical tasks) — "always selecting the most frequent answer for each
  task".

Randomness: one numpy Generator per item seeded by (seed, item id), so answers do not depend on order.
"""

from __future__ import annotations

import hashlib
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialbench.models.base import BACKENDS, Backend
from spatialbench.models.errors import BackendError
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Request, Response


class ItemBackend(Backend):
    """A back end that answers benchmark items directly (baselines); ``generate`` is not used.

    ``baseline``: a name in :data:`spatialbench.scoring.baselines.BASELINES`; when set, the run is scored
    by that baseline's table (as ``spatialbench baseline`` prints it) instead of from the stored answers.
    """

    baseline: str | None = None

    def prepare(self, items: Sequence[Item]) -> None:  # noqa: B027 - optional hook
        """See the whole benchmark once before answering (default: nothing)."""

    @abstractmethod
    def answer(self, item: Item) -> Response:
        """Answer one item."""

    async def generate(self, request: Request) -> Response:
        """Refuse: item back ends need the item, not a prompt."""
        raise BackendError(f"{self.provider} answers benchmark items, not prompts")


class RandomChance(ItemBackend):
    """Uniform random letter per multiple-choice item."""

    provider = "chance-random"
    # scored as its expectation, 1/len(options) per multiple-choice item, numerical items left out
    # ("inapplicable"): the drawn letters are stored, but one draw is noise around that figure
    baseline = "chance-random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def answer(self, item: Item) -> Response:
        """Return a random letter; empty (``no_answer_expected``) for numerical items."""
        if item.answer_kind is AnswerKind.NUMERICAL or not item.options:
            return Response(text="", raw={"no_answer_expected": True})
        digest = int.from_bytes(hashlib.sha256(item.id.encode()).digest()[:8], "little")
        rng = np.random.default_rng([self.seed, digest])
        return Response(text=item.option_letters[int(rng.integers(len(item.options)))])

    def describe(self) -> dict[str, Any]:
        """Return the provider and seed."""
        return {"provider": self.provider, "seed": self.seed}


class FrequencyChance(ItemBackend):
    """Per task, the most frequent ground truth of the items passed to :meth:`prepare`.

    The definition (letters for multiple choice, numbers for numerical tasks, tie rules) lives once in
    :func:`spatialbench.scoring.baselines.most_frequent_answers`; this back end only serves it.
    """

    provider = "chance-frequency"

    def __init__(self) -> None:
        self._answers: dict[str, str] = {}

    def prepare(self, items: Sequence[Item]) -> None:
        """Learn each task's most frequent ground truth."""
        from spatialbench.scoring.baselines import most_frequent_answers

        self._answers = most_frequent_answers(items)

    def answer(self, item: Item) -> Response:
        """Return the task's most frequent ground truth; empty when :meth:`prepare` saw none of the task."""
        return Response(text=self._answers.get(item.task, ""))


@BACKENDS.register("chance-random")
def make_random(
    model_part: str = "", *, api: Any = None, seed: int | None = None, **options: Any
) -> RandomChance:
    """``chance-random`` (``api`` is ignored)."""
    return RandomChance(seed or 0)


@BACKENDS.register("chance-frequency")
def make_frequency(
    model_part: str = "", *, api: Any = None, seed: int | None = None, **options: Any
) -> FrequencyChance:
    """``chance-frequency`` (``api`` and ``seed`` are ignored: the baseline is deterministic)."""
    return FrequencyChance()
