"""``spatialbench generate remindview``: ReMindView-Bench regenerated on synthetic scenes (issue 12).

Writes the frame sets (object-centric and/or view-centric), the QA tables, the view graphs and a manifest
with the App. A.3 statistics; the folder is what ``spatialbench run --benchmark remindview --data DIR``
and ``spatialbench score --benchmark remindview`` read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import CommandError, generate_app
from spatialbench.cli.synth_options import MAX_SIZE
from spatialbench.records.wording import plural

MIN_SIDE = 16

if TYPE_CHECKING:
    from spatialbench.generate.remindview import RemindViewConfig
    from spatialbench.synth.rigs import Rig

OutOpt = Annotated[str, typer.Option("--out", help="Benchmark folder (layout: generate.remindview.render).")]
ScenesOpt = Annotated[int, typer.Option("--scenes", help="Number of rooms (the five room types cycle).")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Root seed; same seed, same files.")]
RigOpt = Annotated[
    list[str] | None,
    typer.Option("--rig", help="object-centric and/or view-centric (repeat; default both)."),
]
PresetOpt = Annotated[
    str, typer.Option("--preset", help="paper (default) or official-code (the released code's values).")
]
PerTemplateOpt = Annotated[
    int | None, typer.Option("--per-template", help="Keep N questions per template (paper's small: 30).")
]
LevelsOpt = Annotated[str, typer.Option("--levels", help="Distance levels, comma-separated (0-10).")]
TargetsOpt = Annotated[int | None, typer.Option("--max-targets", help="At most N targets per scene.")]
WidthOpt = Annotated[int, typer.Option("--width", help=f"Frame width, px ({MIN_SIDE}-{MAX_SIZE}).")]
HeightOpt = Annotated[int, typer.Option("--height", help=f"Frame height, px ({MIN_SIDE}-{MAX_SIZE}).")]


def _check_numbers(numbers: dict[str, tuple[int | None, int]], sides: dict[str, int]) -> None:
    """Raise CommandError (exit 2) for the first option below its minimum or frame side outside the range."""
    for option, (value, least) in numbers.items():
        if value is not None and value < least:
            raise CommandError(f"{option} {value}: use a whole number of at least {least}")
    for option, side in sides.items():
        if not MIN_SIDE <= side <= MAX_SIZE:
            raise CommandError(f"{option} {side}: use {MIN_SIDE} to {MAX_SIZE} pixels")


def _levels(text: str) -> tuple[int, ...]:
    try:
        levels = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        levels = ()
    if not levels or not all(0 <= level <= 10 for level in levels):
        raise CommandError(f"--levels {text!r}: give distance levels 0-10 separated by commas")
    return levels


@generate_app.command("remindview")
def generate_remindview_command(
    out: OutOpt,
    scenes: ScenesOpt = 3,
    seed: SeedOpt = 0,
    rig: RigOpt = None,
    preset: PresetOpt = "paper",
    per_template: PerTemplateOpt = None,
    levels: LevelsOpt = "0,1,2,3,4,5,6,7,8,9,10",
    max_targets: TargetsOpt = None,
    width: WidthOpt = 1024,
    height: HeightOpt = 768,
) -> None:
    """Render multi-view frame sets of synthetic rooms and ask the 22 ReMindView-Bench templates on them."""
    from spatialbench.cli.out_dir import prepare_out_dir
    from spatialbench.generate.remindview import PRESETS, preset_config

    if not out.strip():
        raise CommandError("--out is empty: give the benchmark folder to write")
    numbers = {"--scenes": (scenes, 1), "--seed": (seed, 0), "--per-template": (per_template, 1)}
    _check_numbers({**numbers, "--max-targets": (max_targets, 1)}, {"--width": width, "--height": height})
    if preset not in PRESETS:
        raise CommandError(f"--preset {preset!r}: choose one of {', '.join(PRESETS)}")
    rigs, chosen_levels = _rigs(rig), _levels(levels)
    folder = prepare_out_dir(Path(out))
    options = {"scenes": scenes, "seed": seed, "per_template": per_template, "max_targets": max_targets}
    config = preset_config(preset, rigs=rigs, levels=chosen_levels, width=width, height=height, **options)
    _generate(folder, config)


def _rigs(names: list[str] | None) -> tuple[Rig, ...]:
    """Return the ``--rig`` values (default both); CommandError (exit 2) for an unknown name."""
    from spatialbench.synth.rigs import Rig

    known = [r.value for r in Rig]
    for name in names or []:
        if name not in known:
            raise CommandError(f"--rig {name}: choose from {', '.join(known)}")
    return tuple(Rig(r) for r in (names or known))


def _generate(out: Path, config: RemindViewConfig) -> None:
    """Generate with a progress bar of scenes (stderr, on a terminal); exit 130 on Ctrl-C.

    Raises:
        RendererUnavailableError, RayCastingUnavailableError, ForeignFilesError: (exit 2) no renderer or
            ray engine, a folder holding files this command did not write.
    """
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.generate.remindview import generate_remindview

    done = [0]

    def progress(finished: int, total: int, name: str) -> None:
        done[0] = finished
        bar(finished, total, name)

    try:
        with progress_bar("generate remindview", unit="scene") as bar:  # stderr, on a terminal only
            generated = generate_remindview(out, config, progress=progress)
    except KeyboardInterrupt:
        typer.echo(
            f"interrupted after {done[0]} of {plural(config.scenes, 'scene')}; "
            "no QA tables were written yet; re-run the same command to start again "
            "(it first removes the files this run wrote)",
            err=True,
        )
        raise typer.Exit(130) from None
    manifest = generated.manifest
    typer.echo(
        f"{manifest['frame_sets']} frame sets, {manifest['questions']} questions "
        f"({generated.seconds['total']:.1f} s) -> {out}"
    )
    typer.echo(f"run it: spatialbench run --benchmark remindview --data {out} --model ...")
