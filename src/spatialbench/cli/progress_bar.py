"""The commands' progress bar: the library's (done, total) callbacks drawn as ``run``'s tqdm bar on stderr.

The run's bar style (:func:`spatialbench.runs.progress.tqdm_bar`): description, count, ETA and rate. It is
drawn only when stderr is a terminal (tqdm's ``disable=None``), so piped or captured output carries no bar
and stdout never does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Bar:
    """A progress callback ``(done, total[, name])`` drawing one tqdm bar; ``name`` (a scene) is shown."""

    def __init__(self, description: str, unit: str) -> None:
        self.description, self.unit = description, unit
        self._bar: Any = None

    def __call__(self, done: int, total: int, name: str | None = None) -> None:
        """Show ``done`` of ``total`` (the bar appears at the first call; another total resizes it)."""
        if self._bar is None:
            from spatialbench.runs.progress import tqdm_bar

            self._bar = tqdm_bar(total, self.description, self.unit, sys.stderr, disable=None)
        bar = self._bar
        bar.total = total
        if name is not None:
            bar.set_postfix_str(name, refresh=False)
        bar.update(done - bar.n)

    def close(self) -> None:
        """Finish the bar (nothing when it never appeared)."""
        if self._bar is not None:
            self._bar.close()


@contextmanager
def progress_bar(description: str, unit: str = "item") -> Iterator[Bar]:
    """Yield a :class:`Bar` on stderr, closed when the block ends (also on an error)."""
    bar = Bar(description, unit)
    try:
        yield bar
    finally:
        bar.close()
