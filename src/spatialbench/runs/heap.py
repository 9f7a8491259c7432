"""Garbage collection while a run's requests are in flight: the heap made before them is left out."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Leave the objects made before the requests out of garbage collection while they run.

    A full collection walks every tracked object (the imported SDKs, the items: ~0.2-0.6 s, holding the
    interpreter lock, so nothing was sent or read meanwhile; issue 25); frozen, it walks only the
    objects the requests made. They rejoin the oldest generation afterwards.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
