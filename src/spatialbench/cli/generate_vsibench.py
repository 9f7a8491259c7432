"""``spatialbench generate vsibench``: VSI-Bench questions from scene meta-information (issue 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import generate_app
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.vsi_options import DistanceOpt, GapRuleOpt, MetaInfoOpt

OutOpt = Annotated[
    Path, typer.Option("--out", help="Output folder (test.jsonl, test.parquet, manifest.json).")
]
TasksOpt = Annotated[
    list[str] | None, typer.Option("--tasks", help="Task to generate (repeat); default: all meta-info tasks.")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Root seed; same seed, same bytes.")]


@generate_app.command("vsibench")
def generate_vsibench_command(
    meta_info: MetaInfoOpt,
    out: OutOpt,
    tasks: TasksOpt = None,
    seed: SeedOpt = 0,
    distance: DistanceOpt = "exact",
    rel_distance_rule: GapRuleOpt = "any_pair",
) -> None:
    """Generate VSI-Bench questions for every scene of the meta-info and write them with a manifest."""
    from spatialbench.generate.vsi import (
        GenerationSettings,
        builtin_tasks,
        generate_vsibench,
        write_benchmark,
    )
    from spatialbench.registry import UnknownNameError
    from spatialbench.scene import MetaInfoError, load_meta_info

    prepare_out_dir(out)
    try:
        scenes = load_meta_info(meta_info)
        settings = GenerationSettings.model_validate(
            {"seed": seed, "distance_method": distance, "rel_distance_gap_rule": rel_distance_rule}
        )
        bench = generate_vsibench(scenes.values(), tasks or list(builtin_tasks()), settings)
    except (MetaInfoError, FileNotFoundError, UnknownNameError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    paths = write_benchmark(bench.items, bench.manifest, out)
    for task, entry in bench.manifest["tasks"].items():
        typer.echo(f"{task:32s} {entry['count']:5d} (candidates {entry['candidates']})")
    typer.echo(f"{bench.manifest['total']} questions from {len(scenes)} scenes -> {paths['jsonl']}")
