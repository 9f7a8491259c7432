"""Options and the note printer shared by ``spatialbench score`` and ``spatialbench breakdown``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

RunOpt = Annotated[
    Path | None, typer.Option("--run", help="A spatialbench run folder: its stored answers instead of -p.")
]
RunAnnotationsOpt = Annotated[
    Path | None, typer.Option("--annotations", "-a", help="Annotation file or folder (default: the run's).")
]


def note(line: str) -> None:
    """Print a note of the scoring (skipped rows, excluded items, pruning) on stderr."""
    typer.echo(line, err=True)
