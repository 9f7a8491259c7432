"""``spatialbench profile``: the benchmark diagnostic profile of one model (issue 23 item 7).

Chance, blind, 1 / N frames, coverage oracle and TsT-RF; runs in ``OUT/<setting>``, ``OUT/profile.{json,md}``;
``report`` draws it (:mod:`spatialbench.api.profiling`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.run_options import ConcurrencyOpt, LimitOpt, MaxPixelsOpt


@app.command("profile")
def profile_command(
    data: Annotated[Path, typer.Option("--data", "-d", help="The benchmark data folder or annotation file.")],
    model: Annotated[str, typer.Option(help="provider:model (openai-compatible:http://host/v1#name).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Runs: OUT/<setting>; profile.json/.md.")],
    benchmark: Annotated[str, typer.Option(help="Registered benchmark name.")] = "vsibench",
    frames: Annotated[int, typer.Option("--frames", min=1, help="N of the N-frame and coverage rows.")] = 8,
    coverage: Annotated[
        bool | None,
        typer.Option(
            "--coverage/--no-coverage",
            help="Coverage-oracle row (default: when the videos have "
            "per-frame visibility, i.e. synthetic scenes).",
        ),
    ] = None,
    stress_test: Annotated[
        Path | None, typer.Option("--stress-test", help="Read TsT-RF from this stress_test.json.")
    ] = None,
    limit: LimitOpt = None,
    max_pixels: MaxPixelsOpt = None,
    concurrency: ConcurrencyOpt = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress bars.")] = True,
) -> None:
    """Run a model blind, with 1 and N frames (and the coverage oracle), beside chance and TsT-RF."""
    from spatialbench.api.profiling import profile
    from spatialbench.cli.progress_bar import progress_bar

    config = {
        "data": {"benchmark": benchmark, "path": str(data.resolve()), "limit": limit},
        "model": {"name": model, **({"concurrency": concurrency} if concurrency else {})},
        "media": {"max_pixels": max_pixels},
        "out": str(out),
    }
    prepare_out_dir(out)
    with command_errors(ValueError, OSError, KeyError), progress_bar("TsT-RF", unit="type") as bar:
        profile(
            config,
            out,
            frames=frames,
            coverage=coverage,
            stress_test=stress_test,
            progress=progress,
            tst_progress=bar if progress else None,
        )
    typer.echo((out / "profile.md").read_text(encoding="utf-8"), nl=False)
