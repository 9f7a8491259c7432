"""``spatialbench generate synthetic``: the built-in synthetic VSI-Bench benchmark at any size (issue 5).

By default it writes the same complete VSI-Bench folder as ``spatialbench demo`` writes to
``DIR/benchmark`` (rendered scenes plus all ten question types, via
:func:`spatialbench.generate.synthetic.write_synthetic_benchmark`); ``--render-only`` stops after rendering.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import CommandError, generate_app
from spatialbench.cli.synth_options import check_frame_side, check_seconds, interrupted
from spatialbench.records.wording import plural

if TYPE_CHECKING:
    from spatialbench.generate.executors import ExecutorSettings
    from spatialbench.synth import RenderConfig, RenderedScene

OutOpt = Annotated[
    Path,
    typer.Option("--out", help="Benchmark folder (layout: spatialbench.synth.pipeline, generate.synthetic)."),
]
ScenesOpt = Annotated[int, typer.Option("--scenes", min=1, help="Number of scenes (room types cycle).")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="Root seed; same seed, same scenes and files.")]
SecondsOpt = Annotated[
    float, typer.Option("--seconds", min=1.0, callback=check_seconds, help="Longest walk, seconds.")
]
FpsOpt = Annotated[int, typer.Option("--fps", min=1, max=60, help="Video frame rate.")]
WidthOpt = Annotated[
    int, typer.Option("--width", min=16, callback=check_frame_side, help="Frame width (even), pixels.")
]
HeightOpt = Annotated[
    int, typer.Option("--height", min=16, callback=check_frame_side, help="Frame height (even), pixels.")
]
RoutesOpt = Annotated[
    Path | None,
    typer.Option("--routes", help="Also write every planned route here (JSON lines; outside --out)."),
]
RenderOnlyOpt = Annotated[
    bool, typer.Option("--render-only", help="Only render scenes and write the meta-info; no questions.")
]
ExecutorOpt = Annotated[
    str, typer.Option("--executor", help="local (this process) or ray (one task per scene; pip install ray).")
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option("--ray-address", help="Ray cluster to use (default: RAY_ADDRESS, else a local Ray)."),
]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", min=1, help="CPUs of a local Ray (default: all).")
]


@generate_app.command("synthetic")
def generate_synthetic_command(
    out: OutOpt,
    scenes: ScenesOpt = 3,
    seed: SeedOpt = 0,
    seconds: SecondsOpt = 30.0,
    fps: FpsOpt = 24,
    width: WidthOpt = 640,
    height: HeightOpt = 480,
    routes: RoutesOpt = None,
    render_only: RenderOnlyOpt = False,
    executor: ExecutorOpt = "local",
    ray_address: RayAddressOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Render synthetic rooms to walkthrough videos and ask all ten VSI-Bench question types on them.

    The folder is what ``spatialbench run --benchmark vsibench --data DIR`` reads.
    """
    from spatialbench.cli.out_dir import new_out_dir
    from spatialbench.generate.executors import EXECUTORS, ExecutorSettings
    from spatialbench.generate.synthetic.folder import QUESTION_FILES, SYNTHETIC_FILES, claim_folder, release
    from spatialbench.synth import RenderConfig

    if executor not in EXECUTORS:
        raise CommandError(f"--executor {executor!r}; use one of: {', '.join(EXECUTORS)}")
    with new_out_dir(out):  # a user's files where this run writes: refused (exit 2), nothing touched
        _check_routes(routes, out)
        claim_folder(out, scenes, seed)
    config = RenderConfig(width=width, height=height, fps=fps, max_seconds=seconds)
    results = _render(out, scenes, seed, config, ExecutorSettings(executor, ray_address, workers))
    typer.echo(f"meta-info -> {out / 'meta_info'}")
    if render_only:
        release(out, QUESTION_FILES)  # an earlier run's questions; never a file this tool did not write
    else:
        _write_questions(results, out, seed, routes)
    SYNTHETIC_FILES.existing(out)


def _check_routes(routes: Path | None, out: Path) -> None:
    """Refuse (CommandError) a routes file inside the benchmark folder, before anything is rendered."""
    from spatialbench.generate.synthetic import check_routes_file

    try:
        check_routes_file(routes, out)
    except ValueError as err:
        raise CommandError(f"--routes: {err}") from None


def _render(
    out: Path, scenes: int, seed: int, config: RenderConfig, executor: ExecutorSettings
) -> list[RenderedScene]:
    """Render ``scenes`` scenes into ``out`` on ``executor``: a bar of scenes (stderr), a line per scene.

    Raises:
        RendererUnavailableError, RayUnavailableError: (exit 2) no headless renderer, no Ray.
        typer.Exit: 1 when scenes failed after their retries; 130 on Ctrl-C (finished scenes are kept).
    """
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.generate.executors import SceneTasksFailed, generate_synthetic_on

    finished = [0]

    def progress(done: int, total: int, name: str) -> None:
        finished[0] = done
        bar(done, total, name)

    try:
        with progress_bar("generate synthetic", unit="scene") as bar:  # stderr, on a terminal only
            results = generate_synthetic_on(executor, out, scenes, seed, config, progress=progress)
    except SceneTasksFailed as err:
        typer.echo(f"error: {err}; re-run the same command to retry them", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        raise interrupted(finished[0]) from None
    for result in results:
        counts = result.meta_info["object_counts"]
        typer.echo(
            f"{result.scene.scene_id}: {result.scene.room_type} ({result.scene.density}, "
            f"{result.scene.plan.kind.value}), {plural(len(result.visibility.timestamps), 'frame')}, "
            f"{sum(counts.values())} objects in {len(counts)} categories "
            f"({result.unseen} never in view, left out of the questions) -> {result.video}"
        )
    return results


def _write_questions(results: Sequence[RenderedScene], out: Path, seed: int, routes: Path | None) -> None:
    """Ask all ten question types on the rendered scenes, write them into ``out`` and list the counts.

    Raises:
        typer.Exit: 130 on Ctrl-C.
    """
    from spatialbench.generate.synthetic import write_synthetic_benchmark

    try:
        bench = write_synthetic_benchmark(results, out, seed, routes)
    except KeyboardInterrupt:
        raise interrupted(len(results)) from None
    for task, entry in bench.manifest["tasks"].items():
        typer.echo(f"{task:30s} {entry['count']:5d} questions")
    typer.echo(f"benchmark: {out}  (spatialbench run --benchmark vsibench --data {out})")
