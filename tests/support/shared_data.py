"""Access to the read-only ../shared/data folder beside the checkout.

Override its location with SPATIALBENCH_SHARED_DATA. Missing files skip a test locally and fail it when
``CI`` is set, so CI can never pass by skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_data_dir() -> Path:
    """The shared data folder (may not exist)."""
    override = os.environ.get("SPATIALBENCH_SHARED_DATA")
    return Path(override) if override else REPO_ROOT.parent / "shared" / "data"


def missing(message: str) -> None:
    """Fail under CI, skip otherwise."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def require_file(path: Path) -> Path:
    """Return ``path`` if it exists; fail under CI, skip otherwise."""
    if not path.exists():
        missing(f"required shared file missing: {path}")
    return path
