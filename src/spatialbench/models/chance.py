"""Chance baselines as back ends (VSI-Bench Sec. 4.1): ``chance-random`` and ``chance-frequency``.

They answer from the item alone — no media, no prompt — so they implement :class:`ItemBackend`, which the
runner calls instead of ``generate``:

- ``chance-random``: a uniformly random option letter for multiple-choice items; numerical items have no
  random chance level ("inapplicable", Sec. 4.1) and get an empty answer marked ``no_answer_expected``.
- ``chance-frequency``: per task, the option text most often correct across the benchmark (ties: the
  earliest letter), and for numerical tasks the most frequent ground truth — "always selecting the most
  frequent answer for each task".

Randomness: one numpy Generator per item seeded by (seed, item id), so answers do not depend on order.
"""

from __future__ import annotations

import hashlib
from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialbench.benchmarks.item import AnswerKind, Item
from spatialbench.models.base import BACKENDS, Backend, Request, Response
from spatialbench.models.errors import BackendError


class ItemBackend(Backend):
    """A back end that answers benchmark items directly (baselines); ``generate`` is not used."""

    def prepare(self, items: Sequence[Item]) -> None:  # noqa: B027 - optional hook
        """See the whole benchmark once before answering (default: nothing)."""

    @abstractmethod
    def answer(self, item: Item) -> Response:
        """Answer one item."""

    async def generate(self, request: Request) -> Response:
        """Refuse: item back ends need the item, not a prompt."""
        raise BackendError(f"{self.provider} answers benchmark items, not prompts")


def _option_text(option: str) -> str:
    return option.split(". ", 1)[1] if ". " in option else option


class RandomChance(ItemBackend):
    """Uniform random letter per multiple-choice item."""

    provider = "chance-random"

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
    """Most frequent answer per task, learned from all items passed to :meth:`prepare`."""

    provider = "chance-frequency"

    def __init__(self) -> None:
        self._option_counts: dict[str, Counter[str]] = {}
        self._numbers: dict[str, str] = {}

    def prepare(self, items: Sequence[Item]) -> None:
        """Count, per task, correct option texts and numerical ground truths."""
        numbers: dict[str, Counter[str]] = {}
        for item in items:
            if item.answer_kind is AnswerKind.NUMERICAL:
                numbers.setdefault(item.task, Counter())[item.ground_truth] += 1
            elif item.ground_truth in item.option_letters:
                text = _option_text(item.options[item.option_letters.index(item.ground_truth)])
                self._option_counts.setdefault(item.task, Counter())[text] += 1
        self._numbers = {task: counts.most_common(1)[0][0] for task, counts in numbers.items()}

    def answer(self, item: Item) -> Response:
        """Return the task's most frequent answer (empty when :meth:`prepare` saw no item of the task)."""
        if item.answer_kind is AnswerKind.NUMERICAL:
            return Response(text=self._numbers.get(item.task, ""))
        counts = self._option_counts.get(item.task, Counter())
        texts = [_option_text(o) for o in item.options]
        if not texts:
            return Response(text="")
        best = max(range(len(texts)), key=lambda i: (counts[texts[i]], -i))
        return Response(text=item.option_letters[best])


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
