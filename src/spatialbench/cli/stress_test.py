"""``spatialbench stress-test``: TsT-RF on a benchmark file (Brown et al., Sec. 3.2), text only, CPU."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.score import BenchmarkOpt, load_annotations, lookup

DataOpt = Annotated[Path, typer.Option("--data", "-d", help="The benchmark's annotation file or folder.")]
OutDirOpt = Annotated[
    Path, typer.Option("--out", "-o", help="Write stress_test.json, .md, .csv, .png/.svg here.")
]


@app.command("stress-test")
def stress_test_command(
    data: DataOpt,
    out: OutDirOpt,
    benchmark: BenchmarkOpt = "vsibench",
    k: Annotated[int, typer.Option("--k", help="Folds (official: 5).", min=2)] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the fold splitters and forests.")] = 42,
) -> None:
    """Train a text-only random forest per question type on the test set itself.

    Random and scene-grouped folds; print TsT accuracy beside chance. Refuses to report when a
    feature reads a held-out answer.
    """
    from spatialbench.analysis.shortcuts import stress_test, write_stress_test
    from spatialbench.analysis.shortcuts.document import chance_lines, skipped_lines, stress_table
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.scoring.render import to_markdown

    spec = lookup(benchmark)
    items = load_annotations(spec, data, None)
    with command_errors(ValueError):  # a bar per fold kind on stderr (a terminal only)
        with progress_bar("stress-test random folds", unit="type") as bar:
            random = stress_test(items, "random", k=k, seed=seed, progress=bar)
        with progress_bar("stress-test scene folds", unit="type") as bar:
            grouped = stress_test(items, "grouped", k=k, seed=seed, progress=bar)
    prepare_out_dir(out)
    with command_errors(OSError):
        write_stress_test(out, random, grouped, {"benchmark": benchmark, "data": str(data)})
    typer.echo("\n".join(to_markdown(stress_table(random, grouped))))
    for line in chance_lines(random, grouped):  # what chance is; relative direction's levels
        typer.echo(line)
    for line in skipped_lines(random, grouped):  # types too small for k folds; the others are above
        typer.echo(line)
