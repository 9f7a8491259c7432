"""A 3-scene ReMindView set generated once per session through the command line (small frames)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app

#: small but complete: 3 rooms, both rigs, distance levels 0 / 5 / 10, 3 targets per room, 320x240 frames
SMALL_ARGS = [
    "--scenes",
    "3",
    "--levels",
    "0,5,10",
    "--max-targets",
    "3",
    "--width",
    "320",
    "--height",
    "240",
]


def generate(out: Path, *extra: str) -> str:
    """Run ``spatialbench generate remindview`` into ``out``; return its output (exit 0 asserted)."""
    result = CliRunner().invoke(app, ["generate", "remindview", "--out", str(out), *SMALL_ARGS, *extra])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="session")
def three_scenes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated folder."""
    out = tmp_path_factory.mktemp("remindview") / "set"
    generate(out)
    return out
