"""Options and output handling shared by ``spatialbench score`` and ``spatialbench breakdown``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

RunOpt = Annotated[
    Path | None, typer.Option("--run", help="A spatialbench run folder: its stored answers instead of -p.")
]
RunAnnotationsOpt = Annotated[
    Path | None, typer.Option("--annotations", "-a", help="Annotation file or folder (default: the run's).")
]


@contextmanager
def out_errors() -> Iterator[None]:
    """Turn an OSError while writing output files (a full disk) into one line naming the file and exit 2."""
    try:
        yield
    except OSError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None


def note(line: str) -> None:
    """Print a note of the scoring (skipped rows, excluded items, pruning) on stderr."""
    typer.echo(line, err=True)
