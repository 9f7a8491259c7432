"""``spatialbench generate vsibench``: VSI-Bench questions from scene meta-information (issue 3)."""

from __future__ import annotations

from pathlib import Path

import typer

from spatialbench.cli.apps import generate_app


@generate_app.command("vsibench")
def generate_vsibench_command(
    meta_info: Path = typer.Option(..., "--meta-info", help="Meta-info JSON file or folder of them."),
    out: Path = typer.Option(..., "--out", help="Output folder (test.jsonl, test.parquet, manifest.json)."),
    tasks: list[str] = typer.Option(None, "--tasks", help="Tasks to generate (repeat); default: all seven."),
    seed: int = typer.Option(0, "--seed", help="Root seed; same seed, same bytes."),
    distance: str = typer.Option("exact", "--distance", help="Box distance: exact or sampled (paper)."),
) -> None:
    """Generate VSI-Bench questions for every scene of the meta-info and write them with a manifest."""
    from spatialbench.generate.vsi import GenerationSettings, builtin_tasks, generate_vsibench, write_benchmark
    from spatialbench.registry import UnknownNameError
    from spatialbench.scene import MetaInfoError, load_meta_info

    try:
        scenes = load_meta_info(meta_info)
        settings = GenerationSettings(seed=seed, distance_method=distance)  # type: ignore[arg-type]
        bench = generate_vsibench(scenes.values(), tasks or list(builtin_tasks()), settings)
    except (MetaInfoError, FileNotFoundError, UnknownNameError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    paths = write_benchmark(bench.items, bench.manifest, out)
    for task, entry in bench.manifest["tasks"].items():
        typer.echo(f"{task:32s} {entry['count']:5d} (candidates {entry['candidates']})")
    typer.echo(f"{bench.manifest['total']} questions from {len(scenes)} scenes -> {paths['jsonl']}")
