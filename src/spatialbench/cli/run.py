"""``spatialbench run``: evaluate a model on a benchmark, resumably, and write the score table.

A shell over the library: the options (:mod:`spatialbench.cli.run_options`) laid over a run file
(``--config``, :mod:`spatialbench.runs.config_file`) make the config; it is checked once
(:func:`spatialbench.runs.prepare.prepare`), run through :func:`spatialbench.api.running.execute`, and
the summary printed. This module only words errors (a run file's field by the file, a flag's by the flag)
and picks the exit status.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from spatialbench.cli.apps import CommandError, app
from spatialbench.cli.out_dir import new_out_dir
from spatialbench.cli.run_options import (
    AksModelOpt,
    AttemptsOpt,
    BenchmarkOpt,
    BlindOpt,
    ConcurrencyOpt,
    ConfigOpt,
    DataOpt,
    ExtractOpt,
    FamilyOpt,
    FramesOpt,
    IdsOpt,
    ImageFormatOpt,
    JpegQualityOpt,
    LimitOpt,
    MaxImagesOpt,
    MaxPixelsOpt,
    ModelOpt,
    ModelOptionOpt,
    OptionOpt,
    OrderOpt,
    OutOpt,
    OverflowOpt,
    PromptOpt,
    RepeatsOpt,
    SeedOpt,
    SettingOpt,
    ShardOpt,
    StrategyOpt,
    StrategyParamOpt,
    TimeoutOpt,
    TokensOpt,
    flag_values,
    option_of,
)
from spatialbench.cli.subset_option import SubsetOpt

if TYPE_CHECKING:  # imported inside the command, as every command's heavy modules are
    from spatialbench.runs import RunConfig, RunSummary
    from spatialbench.runs.checks import ConfigValueError
    from spatialbench.runs.prepare import PreparedRun

SHOWN_FAILURES = 5


@app.command("run")
def run_command(
    config_file: ConfigOpt = None,
    benchmark: BenchmarkOpt = None,
    data: DataOpt = None,
    model: ModelOpt = None,
    out: OutOpt = None,
    frames: FramesOpt = None,
    aks_model: AksModelOpt = None,
    limit: LimitOpt = None,
    ids: IdsOpt = None,
    shard: ShardOpt = None,
    blind: BlindOpt = None,
    concurrency: ConcurrencyOpt = None,
    max_pixels: MaxPixelsOpt = None,
    model_family: FamilyOpt = None,
    order: OrderOpt = None,
    video_repeats: RepeatsOpt = None,
    prompt: PromptOpt = None,
    option: OptionOpt = None,
    setting: SettingOpt = None,
    subset: SubsetOpt = None,
    max_new_tokens: TokensOpt = None,
    timeout: TimeoutOpt = None,
    max_attempts: AttemptsOpt = None,
    max_images: MaxImagesOpt = None,
    image_overflow: OverflowOpt = None,
    image_format: ImageFormatOpt = None,
    jpeg_quality: JpegQualityOpt = None,
    extract: ExtractOpt = None,
    seed: SeedOpt = None,
    model_option: ModelOptionOpt = None,
    strategy: StrategyOpt = None,
    strategy_param: StrategyParamOpt = None,
    progress: bool = typer.Option(True, help="Show the progress bar."),
) -> None:
    """Evaluate MODEL on BENCHMARK; answers go to OUT/run.sqlite, scores to OUT/scores.*.

    Exit status: 0 every selected item answered (or not applicable); 1 some items failed, came back
    empty or were not attempted (the summary lists them; re-run the same command to retry them, answered
    items are kept); 2 bad options or a set-up error, nothing sent; 130 interrupted (Ctrl-C).
    """
    flags = {name: value for name, value in locals().items() if name not in ("config_file", "progress")}
    prepared = _prepare(config_file, flags)
    _notes(prepared, jpeg_quality)
    # an existing file or unwritable folder: one line, exit 2; a set-up error removes the new folders
    with new_out_dir(Path(prepared.config.out)):
        summary = _execute(prepared, progress)
    _answered_nothing(prepared, summary)  # a dead or broken endpoint: one line, not a table of zeros
    _report(summary)
    raise typer.Exit(1 if summary.unanswered or summary.stopped else 0)


def _answered_nothing(prepared: PreparedRun, summary: RunSummary) -> None:
    """When the model answered none of the selected items: print that with the first reason; exit 1.

    Raises:
        typer.Exit: (1) nothing answered; what the run stored (its failed rows) is kept for the next run.
    """
    if not summary.answered_nothing:
        return
    from spatialbench.records.redaction import redact, secret_values

    line = f"{prepared.config.model.name} answered none of {summary.selected} item(s): {summary.first_error}"
    typer.echo(f"error: {redact(line, secret_values())}", err=True)
    raise typer.Exit(1)


def _notes(prepared: PreparedRun, jpeg_quality: int | None) -> None:
    """Print the benchmark defaults filled in, and a ``--jpeg-quality`` that frames sent as PNG ignore."""
    for note in prepared.notes:
        typer.echo(note, err=True)
    config = prepared.config
    if jpeg_quality is not None and config.model.image_format != "jpeg":
        typer.echo(f"note: --jpeg-quality {jpeg_quality} applies to --image-format jpeg only; "
                   f"frames are sent as {config.model.image_format}", err=True)


def prepare_run(params: dict[str, Any]) -> PreparedRun:
    """Check a ``run`` command's parsed ``params`` as the command does, sending nothing (``sweep``).

    Raises:
        as :func:`_prepare`.
    """
    flags = {name: value for name, value in params.items() if name not in ("config_file", "progress")}
    return _prepare(params.get("config_file"), flags)


def _prepare(config_file: Path | None, flags: dict[str, Any]) -> PreparedRun:
    """Build the run's config and check it once (:func:`~spatialbench.runs.prepare.prepare`).

    A bad value or set-up problem is one line and exit 2, before any folder is made; a value from the run
    file is named as the file's field, one from a flag by the flag.

    Raises:
        SpatialBenchError: a set-up problem (RunSetupError, SelectionError, UnknownNameError,
            BackendError; OtherRunError: the run file names a folder whose run has other settings),
            printed by the boundary. CommandError: an OSError, or a refused option value
            worded by the flag. typer.Exit: (2) a bad value, worded as click words one (``Error: ...``).
    """
    from spatialbench.runs.checks import ConfigValueError, RunSetupError, check_blind_frames
    from spatialbench.runs.folder import HUMAN_PREFIX
    from spatialbench.runs.plan import SelectionError
    from spatialbench.runs.prepare import prepare

    config, given = _validated(config_file, flags)
    if config_file is not None and "out" in given and config.model.name.startswith(HUMAN_PREFIX):
        # a human run is never run here; serve's --workdir must name the folder it lives in, not --out's
        config, _ = _validated(config_file, {**flags, "out": None})
    try:
        check_blind_frames(config)
        prepared = prepare(config)
    except ConfigValueError as exc:
        _reword(exc, config_file, given)
        raise
    except (RunSetupError, SelectionError):  # ValueErrors, but set-up problems: as they are
        raise
    except OSError as exc:
        raise CommandError(str(exc)) from None
    except ValueError as exc:  # pydantic's ValidationError (a prompt field, a strategy parameter)
        _fail(_invalid(exc, config_file, given))
    if config_file is not None and "out" not in given:  # a copied record must not rewrite the run it names
        from spatialbench.runs.copied_config import check_pointed_run

        check_pointed_run(config_file, prepared.config)
    return prepared


def _validated(config_file: Path | None, flags: dict[str, Any]) -> tuple[RunConfig, dict[str, Any]]:
    """Return the config (the run file with the flags laid over it) and the flags' values; exit 2 if bad."""
    from spatialbench.runs.config_file import merged, read_config_file, validated

    given: dict[str, Any] = {}
    try:
        base = read_config_file(config_file) if config_file is not None else {}
        given = flag_values(flags)
        return validated(merged(base, given)), given
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        _fail(_invalid(exc, config_file, given))


def _reword(exc: ConfigValueError, config_file: Path | None, given: dict[str, Any]) -> None:
    """Word a refused ``model.options`` / ``data.options`` value by where it came from (file or flag).

    Returns when ``exc`` says it as it is (a flag's ``data.options`` value).

    Raises:
        CommandError: a ``model.options`` value, named by the run file's field or ``--model-option``.
        typer.Exit: (2) an option the loader does not take, a run file's ``data.options`` value.
    """
    loc = exc.field
    if loc == ("model", "options"):
        where = f"{config_file}: model.options" if _from_file(loc, config_file, given) else "--model-option"
        raise CommandError(f"{where}: {exc.reason}") from None
    if loc[-1] != "options" and len(loc) < 3:  # a whole field (data.limit), by its flag or file field
        _fail(f"Error: {_field(loc, exc.reason, config_file, given)}")
    if len(loc) < 3:  # an option the loader does not take
        _fail(f"Error: Invalid value: {exc.reason}")
    if _from_file(loc, config_file, given):
        _fail(f"Error: {_field(loc, exc.reason, config_file, given)}")


def _fail(line: str) -> NoReturn:
    """Print a bad value as click prints one (``Error: Invalid value ...``, not the boundary's ``error:``)."""
    typer.echo(line, err=True)
    raise typer.Exit(2)


def _invalid(exc: ValueError, config_file: Path | None, given: dict[str, Any]) -> str:
    """Return one line for a bad value, each pydantic error as :func:`_field` words it (no pydantic URL)."""
    from pydantic import ValidationError

    from spatialbench.runs.config_file import field_errors

    if not isinstance(exc, ValidationError):
        return f"Error: Invalid value{f' for {exc}' if str(exc).startswith('--') else f': {exc}'}"
    parts = [_field(loc, message, config_file, given) for loc, message in field_errors(exc).items()]
    return "Error: " + "; ".join(parts)


def _from_file(loc: tuple[Any, ...], config_file: Path | None, given: dict[str, Any]) -> bool:
    """Whether the field at ``loc`` comes from the run file (there is one and no flag set the field)."""
    value: Any = given
    for key in loc:
        if not isinstance(value, dict):
            return False  # inside a value a flag gave (an --ids entry)
        if key not in value:
            return config_file is not None
        value = value[key]
    return False


def _field(loc: tuple[Any, ...], reason: str, config_file: Path | None, given: dict[str, Any]) -> str:
    """Word an error: ``Invalid value for --frames: ...`` or ``FILE: Invalid value for data.limit: ...``."""
    if _from_file(loc, config_file, given):
        return f"{config_file}: Invalid value for {'.'.join(str(part) for part in loc)}: {reason}"
    return f"Invalid value for {option_of(loc)}: {reason}"


def _execute(prepared: PreparedRun, progress: bool) -> RunSummary:
    """Run through the library (:func:`spatialbench.api.running.execute`).

    Ctrl-C says what was kept and exits 130.

    Raises:
        SpatialBenchError: a set-up problem (locked folder, a store of another run, an image limit),
            printed by the boundary. CommandError: an OSError. typer.Exit: (130) interrupted.
    """
    from spatialbench.api.running import execute
    from spatialbench.runs import RunInterrupted

    try:
        return execute(prepared, progress=progress)
    except RunInterrupted as exc:
        typer.echo(
            f"interrupted; {exc.answered} answered and stored; re-run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    except OSError as exc:
        raise CommandError(str(exc)) from None


def _report(summary: RunSummary) -> None:
    """Print the counts, the first failures, load errors and the score table."""
    from spatialbench.scoring import render_markdown

    counts = summary.counts
    not_applicable = f"{counts['not_applicable']} not applicable, " if counts.get("not_applicable") else ""
    not_attempted = f", {counts['not_attempted']} not attempted" if counts.get("not_attempted") else ""
    retry = " (re-run the command to retry those)" if summary.unanswered else ""
    typer.echo(
        f"{summary.selected} items: {summary.already_done} already answered, {counts['ok']} answered now, "
        f"{not_applicable}{counts['empty']} empty, {counts['failed']} failed{not_attempted}{retry}"
    )
    if summary.usage:
        u = summary.usage
        typer.echo(
            f"per answered item: {u['requests_per_item']:.1f} requests, "
            f"{u['input_tokens_per_item']:.0f} input and {u['output_tokens_per_item']:.0f} output tokens"
        )
    if summary.truncated:
        first = ", ".join(summary.truncated[:SHOWN_FAILURES])
        typer.echo(
            f"{len(summary.truncated)} answer(s) cut off at the answer budget (finish_reason length), "
            f"first: {first}; raise --max-new-tokens",
            err=True,
        )
    if summary.stopped:
        typer.echo(f"stopped early: {summary.stopped}", err=True)
    for item_id, status, error in summary.unanswered[:SHOWN_FAILURES]:
        typer.echo(f"  item {item_id}: {status}{': ' + error if error else ''}", err=True)
    if len(summary.unanswered) > SHOWN_FAILURES:
        typer.echo(f"  … and {len(summary.unanswered) - SHOWN_FAILURES} more", err=True)
    if summary.load_errors:
        shown = "\n  ".join(summary.load_errors[:SHOWN_FAILURES])
        typer.echo(
            f"{len(summary.load_errors)} benchmark row(s) could not be read and were skipped:\n  {shown}",
            err=True,
        )
    if summary.score is not None:
        typer.echo(render_markdown(summary.score))
