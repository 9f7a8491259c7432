"""What a run reports: :class:`RunSummary`, and :class:`RunInterrupted` for Ctrl-C."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spatialbench.errors import SpatialBenchError

#: the response store's file name inside the run folder
STORE_NAME = "run.sqlite"


@dataclass
class RunSummary:
    """What a run did: counts, per-video decode counts, load errors and the score result (if scored).

    ``counts`` always holds ``ok``, ``empty`` and ``failed``; ``not_applicable`` (a baseline with no
    answer for an item, e.g. chance-random on numerical items) and ``not_attempted`` (run stopped before
    the item) appear when seen.
    """

    selected: int
    already_done: int
    counts: dict[str, int]
    decodes: dict[str, int]
    load_errors: list[str] = field(default_factory=list)
    request_seconds: float = 0.0  # wall time of the request phase (media, prompts, model calls, store)
    unanswered: list[tuple[str, str, str | None]] = field(default_factory=list)  # (item id, status, error)
    score: Any = None
    stopped: str | None = None  # why the run stopped before every item was tried (circuit breaker)
    usage: dict[str, float] = field(default_factory=dict)  # requests and tokens per item (RunStore.usage)
    truncated: list[str] = field(default_factory=list)  # ids of answers cut off at the answer budget

    @property
    def answered_nothing(self) -> bool:
        """Whether the model answered none of the selected items, now or before (every request failed).

        Not true of an empty selection, or of a baseline whose items are all ``not_applicable``.
        """
        counts = self.counts
        tried = counts.get("failed", 0) + counts.get("not_attempted", 0)
        answered = self.already_done + counts.get("ok", 0) + counts.get("empty", 0)
        return answered == 0 and tried > 0

    @property
    def first_error(self) -> str | None:
        """The first reason an item was not answered: why the run stopped, else the first failed item's."""
        if self.stopped:
            return self.stopped
        return next((error for _, _, error in self.unanswered if error), None)


class RunInterrupted(SpatialBenchError):
    """Ctrl-C during a run; ``answered`` items were answered and stored by this invocation."""

    exit_code = 130  # the shell's code for Ctrl-C

    def __init__(self, answered: int) -> None:
        super().__init__(f"interrupted; {answered} answered and stored")
        self.answered = answered
