"""``spatialbench merge RUN... --out OUT``: join the run folders of ``run --shard K/N`` (issue 15)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import prepare_out_dir

RunsArg = Annotated[list[Path], typer.Argument(help="The shard run folders (1/N .. N/N).")]
OutOpt = Annotated[Path, typer.Option("--out", help="New run folder for the merged store and scores.")]


@app.command("merge")
def merge_command(runs: RunsArg, out: OutOpt) -> None:
    """Merge shard runs into one run folder (store, config.json, scores) and print its score table.

    Shards of different configurations, a missing or repeated shard, or an ``--out`` that already holds a
    store are one line and exit 2; nothing is written then. Items of the merged run without an answer
    (a shard's failed or never-run items) are a warning naming the first ones and exit 1, as ``run``.
    """
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.runs.merge import check_shards, merge_runs, read_shard
    from spatialbench.scoring import render_markdown

    # a RunSetupError (shards that do not fit, a store in --out): one line and exit 2 (cli/apps.py)
    check_shards([read_shard(r) for r in runs])  # before --out is created
    prepare_out_dir(out)
    with progress_bar("merge", unit="step") as bar:  # stderr, on a terminal only
        result = merge_runs(runs, out, bar)
    typer.echo(f"merged shards {', '.join(result.shards)}: {result.rows} rows into {out}")
    typer.echo(render_markdown(result.score))
    missing = result.score.missing_predictions
    if missing:
        first = ", ".join(missing[:5])
        typer.echo(
            f"warning: {len(missing)} of {len(result.score.rows)} items have no answer (first: {first}); "
            "re-run their shards with the same --out to retry them, then merge again",
            err=True,
        )
        raise typer.Exit(1)
