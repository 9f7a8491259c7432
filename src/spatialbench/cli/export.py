"""``spatialbench export RUN --format inspect --out DIR``: a run in another tool's log format.

``inspect``: an Inspect AI eval log (:mod:`spatialbench.report.inspect_log`) that ``inspect view`` opens:
every item's dialogue as sent and received, its score, and the run's table as metrics. Given a folder,
the log gets Inspect's own file name (``inspect view --log-dir`` lists only such names). Exit 2: a folder
that is not a run, an ``--out`` file not ending in ``.json`` or that cannot be written. A file named
otherwise than Inspect names its logs is written, and the hint says ``inspect view`` will not list it.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app, command_errors

#: the start of the names Inspect gives its logs (``2026-12-02T10-00-00...``), the only ones its viewer lists
_INSPECT_NAME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d")


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
        try:
            written = write_inspect_log(run, out, images=images)
        except OSError as exc:  # /proc/x, a read-only folder: the path, not a raw Errno
            raise CommandError(f"--out {out}: cannot write the log there ({exc.strerror or exc})") from None
    if _INSPECT_NAME.match(written.name):
        typer.echo(f"wrote {written} ({format.value} eval log; open it with: inspect view --log-dir "
                   f"{written.parent})")
    else:  # inspect view --log-dir lists only logs named as Inspect names them
        typer.echo(f"wrote {written} ({format.value} eval log, not named as Inspect names its logs, so "
                   "`inspect view --log-dir` does not list it; give --out a folder to get such a name)")
