"""``spatialbench demo``: the built-in synthetic benchmark, end to end (see :mod:`spatialbench.demo`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import CommandError, app
from spatialbench.cli.synth_options import check_seconds, interrupted


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("demo-out"),
    scenes: Annotated[
        int, typer.Option("--scenes", min=1, help="Number of scenes (room types in turn).")
    ] = 3,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="Root seed; same seed, same benchmark files.")
    ] = 0,
    seconds: Annotated[
        float,
        typer.Option("--seconds", min=2.0, callback=check_seconds, help="Length of each walkthrough video."),
    ] = 20.0,
) -> None:
    """Generate synthetic rooms, render walkthrough videos, ask all VSI-Bench question types, score chance."""
    from spatialbench.cli.out_dir import new_out_dir
    from spatialbench.demo import run_demo
    from spatialbench.synth.renderer import RendererUnavailableError

    finished = [0]

    def log(line: str) -> None:
        if line.startswith("[demo] rendered "):
            finished[0] += 1
        typer.echo(line, err=True)

    try:  # a user's files where the demo writes: refused (exit 2) before anything is written
        with new_out_dir(out):
            result = run_demo(out, scenes=scenes, seed=seed, seconds=seconds, log=log)
    except RendererUnavailableError as err:
        hint = "install Mesa's libEGL (e.g. apt-get install libegl1)"
        raise CommandError(f"cannot render headless ({err}); {hint}") from None
    except KeyboardInterrupt:
        raise interrupted(finished[0]) from None
    typer.echo(result.table)
    for task, count in result.questions.items():
        removed = ", ".join(f"{rule} {n}" for rule, n in result.removed[task].items() if n) or "-"
        typer.echo(f"{task:30s} {count:4d} questions   removed: {removed}")
    bench = out / "benchmark"
    typer.echo(f"\nbenchmark: {bench}  (spatialbench run --benchmark vsibench --data {bench})")
    typer.echo(f"contact sheets: {out / 'contact_sheets'}   total {result.timings_s['total']:.0f} s")
