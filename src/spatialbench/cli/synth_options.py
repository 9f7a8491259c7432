"""Checks of the options of ``spatialbench demo`` and ``spatialbench generate synthetic``.

Each is a typer callback, so a bad value is a one-line usage error (exit 2), not a traceback.
"""

from __future__ import annotations

import math

import typer

from spatialbench.records.wording import plural

MAX_SECONDS = 600.0  # ten minutes of walkthrough per scene (official videos are shorter)
MAX_SIZE = 4096  # frame side in pixels; a 20000x20000 frame would need GBs per frame of masks and depth


def check_seconds(value: float) -> float:
    """Accept a finite video length up to ``MAX_SECONDS``."""
    if not math.isfinite(value) or value > MAX_SECONDS:
        raise typer.BadParameter(f"{value}: use a finite number of seconds up to {MAX_SECONDS:g}")
    return value


def check_frame_side(value: int) -> int:
    """Accept an even frame side up to ``MAX_SIZE`` (h264 with yuv420p needs even sizes)."""
    if value % 2 or value > MAX_SIZE:
        raise typer.BadParameter(f"{value}: use an even number of pixels up to {MAX_SIZE} (h264 needs it)")
    return value


def interrupted(finished: int) -> typer.Exit:
    """Print the Ctrl-C line and return the exit (130) to raise."""
    typer.echo(
        f"interrupted; {plural(finished, 'scene')} finished; re-run the same command to resume "
        "(finished scenes are reused, unfinished files were not kept)",
        err=True,
    )
    return typer.Exit(130)
