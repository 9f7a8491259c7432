"""``spatialbench generate synthetic``: the built-in synthetic VSI-Bench benchmark at any size (issue 5).

By default it writes the same complete VSI-Bench folder as ``spatialbench demo`` writes to
``DIR/benchmark`` (rendered scenes plus all ten question types, via
:func:`spatialbench.demo.pipeline.write_synthetic_benchmark`); ``--render-only`` stops after rendering.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import generate_app

OutOpt = Annotated[
    Path, typer.Option("--out", help="Benchmark folder (layout: spatialbench.synth.pipeline, demo.pipeline).")
]
RoutesOpt = Annotated[
    Path | None,
    typer.Option("--routes", help="Also write every planned route here (JSON lines; outside --out)."),
]
RenderOnlyOpt = Annotated[
    bool, typer.Option("--render-only", help="Only render scenes and write the meta-info; no questions.")
]


@generate_app.command("synthetic")
def generate_synthetic_command(
    out: OutOpt,
    scenes: Annotated[int, typer.Option("--scenes", min=1, help="Number of scenes (room types cycle).")] = 3,
    seed: Annotated[int, typer.Option("--seed", help="Root seed; same seed, same scenes and files.")] = 0,
    seconds: Annotated[float, typer.Option("--seconds", min=1.0, help="Longest walk, seconds.")] = 30.0,
    fps: Annotated[int, typer.Option("--fps", min=1, max=60, help="Video frame rate.")] = 24,
    width: Annotated[int, typer.Option("--width", min=16, help="Frame width in pixels.")] = 640,
    height: Annotated[int, typer.Option("--height", min=16, help="Frame height in pixels.")] = 480,
    routes: RoutesOpt = None,
    render_only: RenderOnlyOpt = False,
) -> None:
    """Render synthetic rooms to walkthrough videos and ask all ten VSI-Bench question types on them.

    The folder is what ``spatialbench run --benchmark vsibench --data DIR`` reads.
    """
    from spatialbench.cli.vsi_options import prepare_out_dir
    from spatialbench.demo.pipeline import check_routes_file, write_synthetic_benchmark
    from spatialbench.synth import RenderConfig, RendererUnavailableError, generate_synthetic

    prepare_out_dir(out)
    try:
        check_routes_file(routes, out)
    except ValueError as err:
        typer.echo(f"error: --routes: {err}", err=True)
        raise typer.Exit(2) from None
    config = RenderConfig(width=width, height=height, fps=fps, max_seconds=seconds)
    try:
        results = generate_synthetic(
            out,
            scenes,
            seed,
            config,
            progress=lambda done, total, name: typer.echo(f"[{done}/{total}] {name}"),
        )
    except RendererUnavailableError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    for result in results:
        counts = result.meta_info["object_counts"]
        typer.echo(
            f"{result.scene.scene_id}: {result.scene.room_type} ({result.scene.density}, "
            f"{result.scene.plan.kind.value}), {len(result.frames.timestamps)} frames, "
            f"{sum(counts.values())} objects in {len(counts)} categories -> {result.video}"
        )
    typer.echo(f"meta-info -> {out / 'meta_info'}")
    if render_only:
        return
    bench = write_synthetic_benchmark(results, out, seed, routes)
    for task, entry in bench.manifest["tasks"].items():
        typer.echo(f"{task:30s} {entry['count']:5d} questions")
    typer.echo(f"benchmark: {out}  (spatialbench run --benchmark vsibench --data {out})")
