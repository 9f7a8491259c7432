"""Analyses drawn when their JSON exists next to a run (placeholder registry; filled below)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spatialbench.report.runs import RunData


def draw_all(out: Path, runs: Sequence[RunData]) -> list:
    """Draw every analysis found for ``runs``."""
    return []
