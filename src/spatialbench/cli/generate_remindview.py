"""``spatialbench generate remindview``: ReMindView-Bench regenerated on synthetic scenes (issue 12).

Writes the frame sets (object-centric and/or view-centric), the QA tables, the view graphs and a manifest
with the App. A.3 statistics; the folder is what ``spatialbench run --benchmark remindview --data DIR``
and ``spatialbench score --benchmark remindview`` read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import generate_app
from spatialbench.cli.synth_options import check_frame_side, interrupted

if TYPE_CHECKING:
    from spatialbench.generate.remindview import RemindViewConfig
    from spatialbench.synth.rigs import Rig

OutOpt = Annotated[Path, typer.Option("--out", help="Benchmark folder (layout: generate.remindview.render).")]
ScenesOpt = Annotated[
    int, typer.Option("--scenes", min=1, help="Number of rooms (the five room types cycle).")
]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="Root seed; same seed, same files.")]
RigOpt = Annotated[
    list[str] | None,
    typer.Option("--rig", help="object-centric and/or view-centric (repeat; default both)."),
]
PresetOpt = Annotated[
    str, typer.Option("--preset", help="paper (default) or official-code (the released code's values).")
]
PerTemplateOpt = Annotated[
    int | None,
    typer.Option("--per-template", min=1, help="Keep N questions per template (paper's small: 30)."),
]
LevelsOpt = Annotated[str, typer.Option("--levels", help="Distance levels, comma-separated (0-10).")]
TargetsOpt = Annotated[int | None, typer.Option("--max-targets", min=1, help="At most N targets per scene.")]
WidthOpt = Annotated[int, typer.Option("--width", min=16, callback=check_frame_side, help="Frame width, px.")]
HeightOpt = Annotated[
    int, typer.Option("--height", min=16, callback=check_frame_side, help="Frame height, px.")
]


def _levels(text: str) -> tuple[int, ...]:
    try:
        levels = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        levels = ()
    if not levels or not all(0 <= level <= 10 for level in levels):
        typer.echo(f"error: --levels {text!r}: give distance levels 0-10 separated by commas", err=True)
        raise typer.Exit(2)
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

    if preset not in PRESETS:
        typer.echo(f"error: --preset {preset!r}: choose one of {', '.join(PRESETS)}", err=True)
        raise typer.Exit(2)
    rigs, chosen_levels = _rigs(rig), _levels(levels)
    prepare_out_dir(out)
    options = {"scenes": scenes, "seed": seed, "per_template": per_template, "max_targets": max_targets}
    config = preset_config(preset, rigs=rigs, levels=chosen_levels, width=width, height=height, **options)
    _generate(out, config)


def _rigs(names: list[str] | None) -> tuple[Rig, ...]:
    """Return the ``--rig`` values (default both); exit 2 with one line for an unknown name."""
    from spatialbench.synth.rigs import Rig

    try:
        return tuple(Rig(r) for r in (names or [r.value for r in Rig]))
    except ValueError:
        typer.echo(f"error: --rig {names}: choose from {', '.join(r.value for r in Rig)}", err=True)
        raise typer.Exit(2) from None


def _generate(out: Path, config: RemindViewConfig) -> None:
    """Generate with one progress line per scene; exit 130 on Ctrl-C.

    Exit 2 without a renderer or ray engine, or for a folder holding files this command did not write.
    """
    from spatialbench.generate.remindview import generate_remindview
    from spatialbench.generate.remindview.written import ForeignFilesError
    from spatialbench.synth import RendererUnavailableError
    from spatialbench.synth.raycast import RayCastingUnavailableError

    done = [0]

    def progress(finished: int, total: int, name: str) -> None:
        done[0] = finished
        typer.echo(f"[{finished}/{total}] {name}")

    try:
        generated = generate_remindview(out, config, progress=progress)
    except (RendererUnavailableError, RayCastingUnavailableError, ForeignFilesError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        raise interrupted(done[0]) from None
    manifest = generated.manifest
    typer.echo(
        f"{manifest['frame_sets']} frame sets, {manifest['questions']} questions "
        f"({generated.seconds['total']:.1f} s) -> {out}"
    )
    typer.echo(f"run it: spatialbench run --benchmark remindview --data {out} --model ...")
