"""Options and output handling shared by ``spatialbench score`` and ``spatialbench breakdown``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError
from spatialbench.errors import SpatialBenchError

RunOpt = Annotated[
    Path | None, typer.Option("--run", help="A spatialbench run folder: its stored answers instead of -p.")
]
RunAnnotationsOpt = Annotated[
    Path | None, typer.Option("--annotations", "-a", help="Annotation file or folder (default: the run's).")
]


@contextmanager
def out_errors() -> Iterator[None]:
    """Re-raise an OSError while writing output files (a full disk) as a CommandError naming the file.

    Raises:
        CommandError: (exit 2) the OSError's message; a SpatialBenchError passes unchanged.
    """
    try:
        yield
    except SpatialBenchError:
        raise
    except OSError as err:
        raise CommandError(str(err)) from None


def note(line: str) -> None:
    """Print a note of the scoring (skipped rows, excluded items, pruning) on stderr."""
    typer.echo(line, err=True)
