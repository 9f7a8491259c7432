"""The commands' progress bar: the library's (done, total) callbacks drawn as ``run``'s tqdm bar on stderr.

Same style as the run's bar (:mod:`spatialbench.runs.progress`): description, count, ETA and rate. It is
drawn only when stderr is a terminal (tqdm's ``disable=None``), so piped or captured output carries no bar
and stdout never does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from spatialbench.records.progress import Progress


@contextmanager
def progress_bar(description: str, unit: str = "item") -> Iterator[Progress]:
    """Yield a progress callback drawing a bar on stderr; the bar is closed when the block ends.

    The bar appears at the first call (when the total is known); a later call with another total resizes it.
    """
    bar: Any = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            from tqdm import tqdm

            bar = tqdm(
                total=total,
                desc=description,
                unit=unit,
                dynamic_ncols=True,
                smoothing=0.1,
                file=sys.stderr,
                disable=None,
            )
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        if bar is not None:
            bar.close()
