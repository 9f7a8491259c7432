"""Shared test fixtures.

``shared_data`` is the read-only ``../shared/data`` folder beside the checkout (see support/shared_data.py).
Import helpers from ``support.shared_data``, never from this file: a conftest.py in a sub-folder would
shadow it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.shared_data import missing, shared_data_dir


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path to ../shared/data; fails under CI (skips locally) when the folder is missing."""
    path = shared_data_dir()
    if not path.is_dir():
        missing(
            f"shared data folder not found: {path} "
            "(set SPATIALBENCH_SHARED_DATA or place ../shared beside the checkout)"
        )
    return path
