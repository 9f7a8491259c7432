"""Check that a secret never reaches disk: log everything to a file, then scan the files."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def debug_log_to(path: Path) -> Iterator[None]:
    """Send every logger's records (DEBUG and up) to ``path`` while the block runs."""
    handler = logging.FileHandler(path)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()


def files_containing(folder: Path, secret: str) -> list[Path]:
    """Files under ``folder`` (recursively) whose bytes contain ``secret``."""
    needle = secret.encode()
    return [p for p in sorted(folder.rglob("*")) if p.is_file() and needle in p.read_bytes()]
