"""``spatialbench export RUN --format inspect --out DIR``: a run in another tool's log format.

``inspect``: an Inspect AI eval log (:mod:`spatialbench.report.inspect_log`) that ``inspect view`` opens:
every item's dialogue as sent and received, its score, and the run's table as metrics. Given a folder,
the log gets Inspect's own file name (``inspect view --log-dir`` lists only such names). Exit 2: a folder
that is not a run, an ``--out`` file not ending in ``.json``.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app, command_errors


class ExportFormat(str, Enum):
    """The formats ``export`` writes."""

    inspect = "inspect"


@app.command()
def export(
    run: Annotated[Path, typer.Argument(help="A run folder.")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="A folder (the log gets Inspect's own name) or FILE.json.")
    ],
    format: Annotated[
        ExportFormat, typer.Option("--format", help="inspect: an Inspect AI eval log.")
    ] = ExportFormat.inspect,
    images: Annotated[
        bool, typer.Option("--images/--no-images", help="Embed each frame sent (200 px JPEG) in the log.")
    ] = False,
) -> None:
    """Write a run as an Inspect AI eval log (``inspect view`` opens it): dialogues, scores, metrics."""
    from spatialbench.report.inspect_log import write_inspect_log

    with command_errors(ValueError, FileNotFoundError):  # a RunFolderError: one line, exit 2
        written = write_inspect_log(run, out, images=images)
    typer.echo(
        f"wrote {written} ({format.value} eval log; open it with: inspect view --log-dir {written.parent})"
    )
