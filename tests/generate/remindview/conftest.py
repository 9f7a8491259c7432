"""A 3-scene ReMindView set generated once per session through the command line (small frames)."""

from __future__ import annotations

from pathlib import Path

import pytest
from remindview_cli import generate


@pytest.fixture(scope="session")
def three_scenes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated folder (``remindview_cli.SMALL_ARGS``)."""
    out = tmp_path_factory.mktemp("remindview") / "set"
    generate(out)
    return out
