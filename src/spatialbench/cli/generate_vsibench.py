"""``spatialbench generate vsibench``: VSI-Bench questions from scene meta-information (issue 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, generate_app
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.vsi_options import DistanceOpt, GapRuleOpt, MetaInfoOpt, setting_choice

OutOpt = Annotated[
    Path, typer.Option("--out", help="Output folder (test.jsonl, test.parquet, manifest.json).")
]
TasksOpt = Annotated[
    list[str] | None, typer.Option("--tasks", help="Task to generate (repeat); default: all meta-info tasks.")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Root seed; same seed, same bytes.")]
RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        help="data: the rules the official questions follow (default); paper: App. B.1's wording.",
    ),
]
RULES = ("data", "paper")
DrawOpt = Annotated[
    str,
    typer.Option(
        "--draw-allocation",
        help="Drawn tasks (rel. distance, direction): fixed_total (default; every seed gives the expected "
        "totals) or independent (each scene alone).",
        callback=setting_choice("draw_allocation"),
    ),
]


@generate_app.command("vsibench")
def generate_vsibench_command(
    ctx: typer.Context,
    meta_info: MetaInfoOpt,
    out: OutOpt,
    tasks: TasksOpt = None,
    seed: SeedOpt = 0,
    distance: DistanceOpt = "sampled",
    rel_distance_rule: GapRuleOpt = "data",
    rules: RulesOpt = "data",
    draw_allocation: DrawOpt = "fixed_total",
) -> None:
    """Generate VSI-Bench questions for every scene of the meta-info and write them with a manifest.

    Each rule is a setting of ``GenerationSettings`` (recorded in manifest.json with the number of
    candidates each rule removed); a task named twice is generated once.
    """
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.generate.vsi import (
        GenerationSettings,
        builtin_tasks,
        generate_vsibench,
        write_benchmark,
    )
    from spatialbench.scene import load_meta_info

    if rules not in RULES:
        raise CommandError(f"--rules {rules!r}; use one of: {', '.join(RULES)}")
    scenes = load_meta_info(meta_info)
    if not scenes:  # ``{}``: an empty benchmark would be written and look generated
        raise CommandError(f"{meta_info}: no scenes in the meta-info (expected an object mapping "
                           "scene_name -> entry); nothing to generate")
    _claim(out)
    fields: dict[str, object] = {
        "seed": seed, "distance_method": distance, "draw_allocation": draw_allocation
    }
    source = ctx.get_parameter_source("rel_distance_rule")  # typer's own click: compare by name
    if rules == "data" or source is None or source.name != "DEFAULT":
        fields["rel_distance_gap_rule"] = rel_distance_rule  # else the paper's rule of --rules paper
    settings = (
        GenerationSettings.paper(**fields) if rules == "paper" else GenerationSettings.model_validate(fields)
    )
    chosen = list(dict.fromkeys(tasks or builtin_tasks()))
    with progress_bar("generate vsibench", unit="task") as bar:  # stderr, on a terminal only
        bench = generate_vsibench(scenes.values(), chosen, settings, bar)
    paths = write_benchmark(bench.items, bench.manifest, out)
    for task, entry in bench.manifest["tasks"].items():
        typer.echo(f"{task:32s} {entry['count']:5d} (candidates {entry['candidates']})")
    typer.echo(f"{bench.manifest['total']} questions from {len(scenes)} scenes -> {paths['jsonl']}")


def _claim(out: Path) -> None:
    """Make ``out`` and claim it; a user's or another generator's files there: refused, nothing left."""
    from spatialbench.cli.out_dir import new_out_dir
    from spatialbench.generate.vsi.folder import claim_folder

    with new_out_dir(out):
        prepare_out_dir(out)
        claim_folder(out)
