"""``spatialbench report RUN [RUN ...] --out DIR``: the static HTML report (:mod:`spatialbench.report`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app, command_errors


@app.command()
def report(
    runs: Annotated[list[Path], typer.Argument(help="Run folders of one benchmark.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Report folder (index.html, figures/, tables/).")],
    data: Annotated[
        Path | None, typer.Option("--data", help="Benchmark folder, if not where the runs recorded it.")
    ] = None,
    per_task: Annotated[int, typer.Option("--per-task", min=1, help="Worst items listed per task.")] = 10,
    sheets: Annotated[
        int, typer.Option("--sheets", min=0, help="Contact sheets of the frames sent: worst items per task.")
    ] = 3,
    exclude: Annotated[
        Path | None, typer.Option("--exclude", help="Flags file (serve): drop items flagged wrong/ambiguous.")
    ] = None,
) -> None:
    """Write a self-contained HTML report: leaderboard, figures, breakdowns, analyses, items (worst first)."""
    from spatialbench.cli.out_dir import check_replaceable, new_out_dir
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.report import build_report

    check_replaceable(out, ("index.html",), "report")  # a run folder or a user's files are not replaced
    dropped = _flagged(exclude) if exclude is not None else frozenset()
    # a RunFolderError: one line, exit 2 (cli/apps.py), and no report folder left behind; the bar (stderr,
    # terminal only) counts build steps
    with new_out_dir(out), command_errors(ValueError, OSError), progress_bar("report", unit="step") as bar:
        result = build_report(runs, out, data=data, per_task=per_task, sheets=sheets, exclude=dropped,
                              progress=bar)
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    took = sum(result.timings_s.values())
    typer.echo(f"report: {result.index} ({len(result.figures)} figures, {took:.1f} s)")


def _flagged(path: Path) -> frozenset[str]:
    """Return the ids whose latest flag in ``path`` is wrong or ambiguous (``records.flags``).

    Raises:
        CommandError: no file at ``path``. FlagFileError: not a readable flags file (the line named).
    """
    from spatialbench.records.flags import excluded_ids

    try:
        return frozenset(excluded_ids(path))
    except FileNotFoundError:
        raise CommandError(f"--exclude {path}: no such flags file") from None
