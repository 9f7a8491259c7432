"""``spatialbench run``: evaluate a model on a benchmark, resumably, and write the score table.

Settings come from a run file (``--config``, see :mod:`spatialbench.runs.config_file`) and the options
(:mod:`spatialbench.cli.run_options`); an option given on the command line overrides the file. The
benchmark is looked up once and its spec passed down (defaults, checks, loading, prompts, scoring).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import missing_folders, prepare_out_dir, remove_empty
from spatialbench.cli.run_options import (
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
    from spatialbench.benchmarks.spec import BenchmarkSpec
    from spatialbench.runs import RunConfig, RunSummary

SHOWN_FAILURES = 5
_SCALAR_TAGS = {"str", "int", "float", "bool"}  # pydantic's locations of a scalar union's members


@app.command("run")
def run_command(
    config_file: ConfigOpt = None,
    benchmark: BenchmarkOpt = None,
    data: DataOpt = None,
    model: ModelOpt = None,
    out: OutOpt = None,
    frames: FramesOpt = None,
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
    config, spec = _configure(config_file, flags)
    _note_unused_quality(jpeg_quality, config)
    created = missing_folders(Path(config.out))
    prepare_out_dir(Path(config.out))  # an existing file or unwritable folder: one line, exit 2
    summary = _execute(config, spec, progress, created)
    _report(summary)
    if summary.unanswered or summary.stopped:
        raise typer.Exit(1)


def _note_unused_quality(jpeg_quality: int | None, config: RunConfig) -> None:
    if jpeg_quality is not None and config.model.image_format != "jpeg":
        typer.echo(f"note: --jpeg-quality {jpeg_quality} applies to --image-format jpeg only; "
                   f"frames are sent as {config.model.image_format}", err=True)


def _configure(config_file: Path | None, flags: dict[str, Any]) -> tuple[RunConfig, BenchmarkSpec]:
    """Build, resolve and check the run's config; a bad value or set-up problem is one line, exit 2."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.benchmarks.spec import OptionError
    from spatialbench.models.errors import BackendError
    from spatialbench.models.resolve import check_model_urls
    from spatialbench.prompting.strategies import build_strategy
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs.baseline import check_model_name

    config, given = _validated(config_file, flags)
    try:
        check_model_name(config.model.name)
        check_model_urls(config.model.name)  # before any folder is made
        _check_backend_options(config, config_file, given)
        spec = get_benchmark(config.data.benchmark)
        spec.check_options(config.data.options)  # here, where a run file's value is named as the file's
        spec.prompt_builder(config.prompt)  # unknown --prompt fields fail here, before any work
        build_strategy(config.strategy)  # unknown --strategy / -S names and bad values too
    except OptionError as exc:
        loc = ("data", "options", exc.option)
        _fail(f"Error: {_field(loc, exc.reason, config_file, given)}" if _from_file(loc, config_file, given)
              else f"error: {exc}")
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        _fail(_invalid(exc, config_file, given))
    except (UnknownNameError, BackendError) as exc:
        _fail(f"error: {exc}")
    return _with_benchmark_defaults(config, spec), spec  # runs.run applies data.shard


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


def _check_backend_options(config: RunConfig, config_file: Path | None, given: dict[str, Any]) -> None:
    """Check ``model.options`` against the back end's constructor; exit 2 naming the key and its source."""
    from spatialbench.models.errors import BackendError
    from spatialbench.models.resolve import check_backend_options
    from spatialbench.runs.baseline import baseline_name

    if not config.model.options:
        return
    loc = ("model", "options")
    where = f"{config_file}: model.options" if _from_file(loc, config_file, given) else "--model-option"
    if baseline_name(config.model.name) is not None:
        _fail(f"error: {where}: {config.model.name} is a baseline: it takes no --model-option")
    try:
        check_backend_options(config.model.name, config.backend_options())
    except (BackendError, ValueError) as exc:
        _fail(f"error: {where}: {exc}")


def _fail(line: str) -> NoReturn:
    typer.echo(line, err=True)
    raise typer.Exit(2)


def _with_benchmark_defaults(config: RunConfig, spec: BenchmarkSpec) -> RunConfig:
    """Fill the benchmark's frames, answer budget and options (a note per option filled in), then check.

    A frame strategy that conflicts with a frame-choosing option (``--setting`` with ``--frames uniform:8``),
    an unknown mode or option is one line and exit 2, before the output folder is created.
    """
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs.checks import RunSetupError, check_config
    from spatialbench.runs.runner import resolve_config

    try:
        resolved, notes = resolve_config(config, spec)
        check_config(resolved, spec)
    except (RunSetupError, UnknownNameError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for note in notes:
        typer.echo(note, err=True)
    return resolved


def _invalid(exc: ValueError, config_file: Path | None, given: dict[str, Any]) -> str:
    """Return one line for a bad value, each pydantic error as :func:`_field` words it (no pydantic URL)."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return f"Error: Invalid value{f' for {exc}' if str(exc).startswith('--') else f': {exc}'}"
    parts: dict[tuple[Any, ...], str] = {}
    for error in exc.errors():
        loc, message = tuple(error["loc"]), error["msg"].removeprefix("Value error, ")
        if loc and loc[-1] in _SCALAR_TAGS:  # one error per union member of a scalar: one line for all
            loc, message = loc[:-1], "Input should be text, a number or true/false"
        parts.setdefault(loc, _field(loc, message, config_file, given))
    return "Error: " + "; ".join(parts.values())


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


def _execute(config: RunConfig, spec: BenchmarkSpec, progress: bool, created: list[Path]) -> RunSummary:
    """Run; set-up problems are one line and exit 2, Ctrl-C says what was kept and exits 130.

    After a set-up problem the folders this invocation ``created`` are removed while still empty.
    """
    from spatialbench.models.errors import BackendError
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs import RunInterrupted, RunSetupError, run
    from spatialbench.runs.plan import SelectionError

    try:
        return run(config, progress=progress, spec=spec)
    except RunInterrupted as exc:
        typer.echo(
            f"interrupted; {exc.answered} answered and stored; re-run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    except (BackendError, UnknownNameError, SelectionError, RunSetupError, OSError) as exc:
        # set-up problems (unknown model, missing key or data, locked folder): no traceback
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        remove_empty(created)
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None


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
