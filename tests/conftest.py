"""Shared test fixtures.

``shared_data`` is the read-only ``../shared/data`` folder beside the checkout (override with the
SPATIALBENCH_SHARED_DATA environment variable). Tests that need it skip locally when it is missing, and
fail when ``CI`` is set, so CI can never pass by skipping them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def _shared_data_dir() -> Path:
    override = os.environ.get("SPATIALBENCH_SHARED_DATA")
    return Path(override) if override else REPO_ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path to ../shared/data; fails under CI (skips locally) when the folder is missing."""
    path = _shared_data_dir()
    if not path.is_dir():
        message = f"shared data folder not found: {path} (set SPATIALBENCH_SHARED_DATA or place ../shared beside the checkout)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def require_file(path: Path) -> Path:
    """Return ``path`` if it exists; fail under CI, skip otherwise."""
    if not path.exists():
        message = f"required shared file missing: {path}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
