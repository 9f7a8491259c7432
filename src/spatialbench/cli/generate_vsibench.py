"""``spatialbench generate vsibench``: VSI-Bench questions from scene meta-information (issue 3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from spatialbench.cli.apps import CommandError, generate_app
from spatialbench.cli.out_dir import prepare_out_dir
from spatialbench.cli.vsi_options import DistanceOpt, GapRuleOpt, MetaInfoOpt, setting_choice

if TYPE_CHECKING:
    from spatialbench.analysis.shortcuts.regenerate import DebiasSettings
    from spatialbench.generate.vsi import GenerationSettings
    from spatialbench.scene.model import Scene

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

DebiasOpt = Annotated[
    bool,
    typer.Option("--debias", help="Re-draw the questions a text-only forest (TsT-RF) answers with other "
                 "questions of the same task and scene (counts kept); writes debias.json."),
]


def _debias_setting(field: str) -> Callable[[Any], Any]:
    """Return a typer callback accepting the values ``DebiasSettings.<field>`` accepts (one check)."""

    def check(value: Any) -> Any:
        from spatialbench.analysis.shortcuts.regenerate import DebiasSettings, DebiasSettingsError

        try:
            DebiasSettings(**{field: value})
        except DebiasSettingsError as err:
            raise typer.BadParameter(str(err)) from None
        return value

    return check


ThresholdOpt = Annotated[
    float,
    typer.Option("--debias-threshold", callback=_debias_setting("threshold"),
                 help="--debias: re-draw questions whose bias above chance (multiple choice P(gold) - "
                 "1/options, numbers the forest's MRA - the mean guess's MRA) is above this."),
]
NumbersOpt = Annotated[
    str,
    typer.Option("--debias-numbers", callback=_debias_setting("numbers"),
                 help="--debias: a number's bias: above_chance (MRA - the mean guess's MRA) or mra "
                 "(the MRA itself)."),
]
RoundsOpt = Annotated[
    int,
    typer.Option("--debias-rounds", callback=_debias_setting("rounds"),
                 help="--debias: most re-draw rounds."),
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
    debias: DebiasOpt = False,
    debias_threshold: ThresholdOpt = 0.25,
    debias_rounds: RoundsOpt = 5,
    debias_numbers: NumbersOpt = "above_chance",
) -> None:
    """Generate VSI-Bench questions for every scene of the meta-info and write them with a manifest.

    Each rule is a setting of ``GenerationSettings`` (recorded in manifest.json with the number of
    candidates each rule removed); a task named twice is generated once. ``--debias``: re-draw the
    questions the stress-test flags (``analysis.shortcuts.regenerate``) and print TsT accuracy per type.
    """
    from spatialbench.generate.vsi import builtin_tasks
    from spatialbench.scene import load_meta_info

    if rules not in RULES:
        raise CommandError(f"--rules {rules!r}; use one of: {', '.join(RULES)}")
    redraw = _debias_settings(ctx, debias, debias_threshold, debias_rounds, debias_numbers)
    scenes = load_meta_info(meta_info)
    if not scenes:  # ``{}``: an empty benchmark would be written and look generated
        raise CommandError(f"{meta_info}: no scenes in the meta-info (expected an object mapping "
                           "scene_name -> entry); nothing to generate")
    _claim(out, redraw is not None)
    fields: dict[str, object] = {
        "seed": seed, "distance_method": distance, "draw_allocation": draw_allocation
    }
    source = ctx.get_parameter_source("rel_distance_rule")  # typer's own click: compare by name
    if rules == "data" or source is None or source.name != "DEFAULT":
        fields["rel_distance_gap_rule"] = rel_distance_rule  # else the paper's rule of --rules paper
    chosen = list(dict.fromkeys(tasks or builtin_tasks()))
    manifest, lines = _generate(out, list(scenes.values()), chosen, _settings(rules, fields), redraw)
    for task, entry in manifest["tasks"].items():
        typer.echo(f"{task:32s} {entry['count']:5d} (candidates {entry['candidates']})")
    typer.echo(f"{manifest['total']} questions from {len(scenes)} scenes -> {out / 'test.jsonl'}")
    for line in lines:
        typer.echo(line)


def _settings(rules: str, fields: dict[str, object]) -> GenerationSettings:
    from spatialbench.generate.vsi import GenerationSettings

    return (
        GenerationSettings.paper(**fields) if rules == "paper" else GenerationSettings.model_validate(fields)
    )


def _debias_settings(
    ctx: typer.Context, debias: bool, threshold: float, rounds: int, numbers: str
) -> DebiasSettings | None:
    """Return the re-draw settings of ``--debias``; None without it (then its options must not be given)."""
    from spatialbench.analysis.shortcuts.regenerate import DebiasSettings

    if not debias:
        given = [f"--debias-{name}" for name in ("threshold", "rounds", "numbers")
                 if (source := ctx.get_parameter_source(f"debias_{name}")) is not None
                 and source.name != "DEFAULT"]  # typer's own click: compare by name
        if given:
            raise CommandError(f"{' and '.join(given)} without --debias: add --debias or leave them out")
        return None
    return DebiasSettings(threshold=threshold, rounds=rounds, numbers=numbers)


def _generate(out: Path, scenes: list[Scene], tasks: list[str], settings: GenerationSettings,
              redraw: DebiasSettings | None) -> tuple[dict[str, Any], list[str]]:
    """Generate (and with ``redraw`` re-draw the flagged questions), write the folder (and debias.json).

    Returns the manifest and the lines to print after the counts: with ``redraw``, TsT accuracy per type
    before -> after and the report's path.
    """
    from spatialbench.analysis.shortcuts.regenerate import summary_lines
    from spatialbench.api.generating import write_vsibench
    from spatialbench.cli.progress_bar import progress_bar
    from spatialbench.generate.vsi.folder import DEBIAS_FILE

    with progress_bar("generate vsibench", unit="task") as bar:  # stderr, on a terminal only
        manifest, report = write_vsibench(out, scenes, tasks, settings, redraw, bar,
                                          log=lambda line: typer.echo(line, err=True))
    if report is None:
        return manifest, []
    return manifest, [*summary_lines(report), f"re-draw report -> {out / DEBIAS_FILE}"]


def _claim(out: Path, debias: bool) -> None:
    """Make ``out`` and claim it; a user's or another generator's files there: refused, nothing left."""
    from spatialbench.cli.out_dir import new_out_dir
    from spatialbench.generate.vsi.folder import claim_folder

    with new_out_dir(out):
        prepare_out_dir(out)
        claim_folder(out, debias)
