"""One run at a time per output folder: an exclusive ``flock`` on ``OUT/run.lock`` held for the whole run.

Two runs on the same folder would both see the same unanswered items and send every request twice. The
lock is advisory and released by the kernel when the process ends, even on SIGKILL, so a crashed run
never leaves a stale lock behind. On every normal exit path (success, error, Ctrl-C) the holder deletes
``run.lock`` before releasing it; a run that opened the file just before it was deleted notices that its
lock is on a file no longer at that path and tries again, so two runs never both hold the folder.
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
def run_lock(out: Path, holder: str | None = None) -> Iterator[None]:
    """Hold the exclusive lock of run folder ``out`` (created when missing) for the ``with`` block.

    ``holder``: what else locks a folder this way (``"judge"`` for an analysis store's folder); its
    refusal names the lock file instead of a run folder.

    Raises:
        RunLockedError: another process holds it (the message names the folder or lock file and the
            holder's pid).
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    fd = _acquire(path, out, holder)
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        path.unlink(missing_ok=True)  # still holding the lock: no other run holds this file
        os.close(fd)  # closing releases the lock


def _acquire(path: Path, out: Path, holder: str | None, attempts: int = 5) -> int:
    """Open and lock ``path``; retry when the file was replaced (deleted by a finishing run) meanwhile."""
    for _ in range(attempts):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise RunLockedError(_refusal(path, out, holder, pid)) from None
        if _same_file(fd, path):
            return fd
        os.close(fd)  # locked a file another run deleted on its way out: lock the new one
    raise RunLockedError(f"{path} keeps changing; is another run starting and stopping on {out}?")


def _refusal(path: Path, out: Path, holder: str | None, pid: str) -> str:
    if holder is None:
        return f"another run is using {out} (pid {pid}); wait for it to finish or choose another --out"
    return f"another {holder} process holds {path} (pid {pid}); wait for it to finish"


def _same_file(fd: int, path: Path) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (on_disk.st_dev, on_disk.st_ino)
