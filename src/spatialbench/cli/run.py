"""``spatialbench run``: evaluate a model on a benchmark, resumably, and write the score table.

Settings come from a run file (``--config``, see :mod:`spatialbench.runs.config_file`) and the options
(:mod:`spatialbench.cli.run_options`); an option given on the command line overrides the file. The
benchmark is looked up once and its spec passed down (defaults, checks, loading, prompts, scoring).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import prepare_out_dir
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
    LimitOpt,
    MaxImagesOpt,
    MaxPixelsOpt,
    ModelOpt,
    OptionOpt,
    OrderOpt,
    OutOpt,
    OverflowOpt,
    PromptOpt,
    RepeatsOpt,
    SeedOpt,
    SettingOpt,
    StrategyOpt,
    StrategyParamOpt,
    TimeoutOpt,
    TokensOpt,
    flag_values,
    option_of,
)

if TYPE_CHECKING:  # imported inside the command, as every command's heavy modules are
    from spatialbench.benchmarks.spec import BenchmarkSpec
    from spatialbench.runs import RunConfig, RunSummary

SHOWN_FAILURES = 5


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
    blind: BlindOpt = None,
    concurrency: ConcurrencyOpt = None,
    max_pixels: MaxPixelsOpt = None,
    model_family: FamilyOpt = None,
    order: OrderOpt = None,
    video_repeats: RepeatsOpt = None,
    prompt: PromptOpt = None,
    option: OptionOpt = None,
    setting: SettingOpt = None,
    max_new_tokens: TokensOpt = None,
    timeout: TimeoutOpt = None,
    max_attempts: AttemptsOpt = None,
    max_images: MaxImagesOpt = None,
    image_overflow: OverflowOpt = None,
    extract: ExtractOpt = None,
    seed: SeedOpt = None,
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
    prepare_out_dir(Path(config.out))  # an existing file or unwritable folder: one line, exit 2
    summary = _execute(config, spec, progress)
    _report(summary)
    if summary.unanswered or summary.stopped:
        raise typer.Exit(1)


def _configure(config_file: Path | None, flags: dict[str, Any]) -> tuple[RunConfig, BenchmarkSpec]:
    """Build, resolve and check the run's config; a bad value or set-up problem is one line, exit 2."""
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.prompting.strategies import build_strategy
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs import RunConfig
    from spatialbench.runs.config_file import merged, read_config_file

    try:
        base = read_config_file(config_file) if config_file is not None else {}
        config = RunConfig.model_validate(merged(base, flag_values(flags)))
        spec = get_benchmark(config.data.benchmark)
        spec.prompt_builder(config.prompt)  # unknown --prompt fields fail here, before any work
        build_strategy(config.strategy)  # unknown --strategy / -S names and bad values too
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        typer.echo(f"Error: Invalid value{_invalid(exc)}", err=True)
        raise typer.Exit(2) from None
    except UnknownNameError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    return _with_benchmark_defaults(config, spec), spec


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


def _invalid(exc: ValueError) -> str:
    """`` for --frames: reason`` per field of a pydantic error (no pydantic URL), or per ``--option: ...``."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return f" for {exc}" if str(exc).startswith("--") else f": {exc}"
    parts = []
    for error in exc.errors():
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f" for {option_of(tuple(error['loc']))}: {message}")
    return ";".join(parts)


def _execute(config: RunConfig, spec: BenchmarkSpec, progress: bool) -> RunSummary:
    """Run; set-up problems are one line and exit 2, Ctrl-C says what was kept and exits 130."""
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
