"""How a long library call reports progress: a callback of (done, total), never a bar of its own.

A function that loops over items, requests, scenes or files takes ``progress: Progress | None``; it calls
it once with ``(0, total)`` when the total is known and then after each unit finishes, so ``done`` ends
at ``total`` only when every unit finished. The command line draws the bar
(:mod:`spatialbench.cli.progress_bar`); a library caller passes its own callback or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

Progress = Callable[[int, int], None]
"""Called with (units done, units in all); must not raise."""


class Tally:
    """Counts finished units of a known ``total`` and reports each count to ``progress`` (may be None)."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.done, self.progress = total, 0, progress
        if progress is not None:
            progress(0, total)

    def step(self, units: int = 1) -> None:
        """Count ``units`` more finished and report."""
        self.done += units
        if self.progress is not None:
            self.progress(self.done, self.total)

    def each(self, values: Iterable[T]) -> Iterator[T]:
        """Yield ``values``, counting one step as each one's work is done (when the next one is asked for)."""
        for value in values:
            yield value
            self.step()
