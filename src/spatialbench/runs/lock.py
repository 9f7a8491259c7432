"""One run at a time per output folder: an exclusive ``flock`` on ``OUT/run.lock`` held for the whole run.

Two runs on the same folder would both see the same unanswered items and send every request twice. The
lock is advisory and released by the kernel when the process ends, even on SIGKILL, so a crashed run
never leaves a stale lock behind.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from spatialbench.runs.checks import RunSetupError

LOCK_NAME = "run.lock"


class RunLockedError(RunSetupError):
    """Another process holds the run folder's lock."""


@contextmanager
def run_lock(out: Path) -> Iterator[None]:
    """Hold the exclusive lock of run folder ``out`` (created when missing) for the ``with`` block.

    Raises:
        RunLockedError: another run holds it (the message names the folder and the holder's pid).
    """
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise RunLockedError(
                f"another run is using {out} (pid {holder}); wait for it to finish or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock
