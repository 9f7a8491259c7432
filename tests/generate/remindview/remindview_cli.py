"""Run ``spatialbench generate remindview`` in-process for the tests (small frames unless told otherwise)."""

from __future__ import annotations

from pathlib import Path

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
