"""``spatialbench answerability``: is each synthetic item answerable from the frames a strategy sends."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app, command_errors
from spatialbench.cli.score import BenchmarkOpt, load_annotations, lookup


@app.command("answerability")
def answerability_command(
    data: Annotated[Path, typer.Option("--data", "-d", help="The benchmark folder (synthetic scenes).")],
    frames: Annotated[
        list[str], typer.Option("--frames", help="Frame strategy, repeatable (uniform:8, coverage:8...).")
    ],
    benchmark: BenchmarkOpt = "vsibench",
) -> None:
    """Print, per task and frame strategy, the share of items whose named objects a sent frame shows."""
    from spatialbench.analysis.answerability import answerability_shares, task_order
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.media.sampling import parse_strategy

    with command_errors(ValueError):
        strategies = [parse_strategy(f) for f in frames]
    if any(s.kind == "aks" for s in strategies):  # its frames differ per question and need a scorer
        raise CommandError("--frames aks:N is for spatialbench run (with --aks-model); answerability takes "
                           "uniform:N, coverage:N, fps:F, consecutive:N@S or all")
    items = load_annotations(lookup(benchmark), data, None)
    root = data if data.is_dir() else data.parent
    with progress_bar("answerability") as bar:  # stderr, on a terminal only
        shares = answerability_shares(items, root, strategies, bar)
    tasks = task_order(t for s in shares.values() for t in s)  # overall last
    if not tasks:  # e.g. an official file: its videos carry no per-frame visibility
        raise CommandError(f"{data}: no item's media has per-frame visibility (synthetic scenes of "
                           "`spatialbench demo` or `generate synthetic` only); nothing to report")
    typer.echo("| task | " + " | ".join(shares) + " |")
    typer.echo("|---|" + "---:|" * len(shares))
    for task in tasks:
        cells = [shares[s].get(task) for s in shares]
        text = [f"{c['share']:.2f} (n={c['n']})" if c else "-" for c in cells]
        typer.echo(f"| {task} | " + " | ".join(text) + " |")
