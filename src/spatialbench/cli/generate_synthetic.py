"""``spatialbench generate synthetic``: procedural rooms rendered to walkthrough videos (issue 5)."""

from __future__ import annotations

from pathlib import Path

import typer

from spatialbench.cli.apps import generate_app


@generate_app.command("synthetic")
def generate_synthetic_command(
    out: Path = typer.Option(..., "--out", help="Output folder (layout: see spatialbench.synth.pipeline)."),
    scenes: int = typer.Option(3, "--scenes", min=1, help="Number of scenes (room types cycle)."),
    seed: int = typer.Option(0, "--seed", help="Root seed; same seed, same scenes and files."),
    seconds: float = typer.Option(30.0, "--seconds", min=1.0, help="Longest walkthrough, seconds."),
    fps: int = typer.Option(24, "--fps", min=1, max=60, help="Video frame rate."),
    width: int = typer.Option(640, "--width", min=16, help="Frame width in pixels."),
    height: int = typer.Option(480, "--height", min=16, help="Frame height in pixels."),
) -> None:
    """Generate scenes, render walkthrough videos with masks, depth and poses, and write the meta-info."""
    from spatialbench.synth import RenderConfig, RendererUnavailableError, generate_synthetic

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
