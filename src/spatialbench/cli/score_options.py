"""Options and the note printer shared by ``spatialbench score`` and ``spatialbench breakdown``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

RunOpt = Annotated[
    Path | None, typer.Option("--run", help="A spatialbench run folder: its stored answers instead of -p.")
]
LoaderOpt = Annotated[list[str] | None, typer.Option(
    "--option", help="Benchmark option KEY=VALUE, as run's --option (revsi: budget=16; default: the run's).")]
RunAnnotationsOpt = Annotated[
    Path | None, typer.Option("--annotations", "-a", help="Annotation file or folder (default: the run's).")
]


def loader_options(pairs: list[str] | None) -> dict[str, str | int | float | bool]:
    """Return ``--option KEY=VALUE`` pairs as the loader options ``run`` passes (text; the loader types them).

    Raises:
        CommandError: an entry without ``=`` (exit 2).
    """
    from spatialbench.cli.apps import CommandError
    from spatialbench.cli.run_options import parse_assignments

    try:
        return parse_assignments(pairs or [], "--option", typed=False)
    except ValueError as error:
        raise CommandError(str(error)) from None


def note(line: str) -> None:
    """Print a note of the scoring (skipped rows, excluded items, pruning) on stderr."""
    typer.echo(line, err=True)
