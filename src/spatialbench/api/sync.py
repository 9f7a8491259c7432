"""Running the library's coroutines from synchronous code, inside or outside a running event loop.

The library's own work is ``async`` all the way down; only the top-level entry points (``spatialbench.run``,
``spatialbench.score``..., the command line) turn a coroutine into a result, through :func:`run_sync`.
Inside a running loop (a Jupyter notebook) ``asyncio.run`` refuses to start a second one, so the coroutine
then runs on its own loop in a worker thread and the caller waits for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion and return its result (exceptions propagate unchanged).

    Without a running event loop this is ``asyncio.run(coro)``; with one (Jupyter), ``coro`` runs on a new
    loop in a worker thread while the calling thread waits (Ctrl-C in the caller still interrupts it).
    """
    if _running_loop() is None:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="spatialbench-sync") as pool:
        return pool.submit(asyncio.run, coro).result()
