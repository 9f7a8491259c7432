"""Per-file locks of the UI's writers (the server is one process: a ``threading.Lock`` per path).

Every read-modify-write of one file (an error annotation file, a human run's store and scores) holds the
file's lock, so parallel requests (two tabs, double clicks) neither lose a save nor race a rename.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

_GUARD = threading.Lock()
_LOCKS: dict[Path, threading.Lock] = {}


def lock_for(path: Path) -> threading.Lock:
    """Return the one lock of ``path`` (resolved, so two spellings of a file share it)."""
    key = path.resolve()
    with _GUARD:
        return _LOCKS.setdefault(key, threading.Lock())


def replace_text(path: Path, text: str) -> None:
    """Write ``text`` to a uniquely named temporary file beside ``path``, then rename it over ``path``.

    A failed write leaves the earlier file. Raises: OSError (the temporary file is removed).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
