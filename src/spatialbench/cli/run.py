"""``spatialbench run``: evaluate a model on a benchmark, resumably, and write the score table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import prepare_out_dir


def parse_assignments(pairs: list[str], what: str) -> dict[str, str | int | float | bool]:
    """``["k=v", ...]`` → dict; values ``true``/``false``, integers and floats are typed.

    Raises:
        ValueError: an entry without ``=``.
    """
    parsed: dict[str, str | int | float | bool] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{what}: must look like KEY=VALUE, got {pair!r}")
        parsed[key.strip()] = _typed(value.strip())
    return parsed


def _typed(value: str) -> str | int | float | bool:
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def read_ids(path: Path) -> tuple[str, ...]:
    """Item ids from a file, one per line; blank lines and ``#`` comments are skipped.

    Raises:
        ValueError: the file cannot be read (the message names ``--ids`` and the path).
    """
    try:
        text = path.read_text()
    except OSError as exc:
        raise ValueError(f"--ids: cannot read {path}: {exc.strerror or exc}") from None
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return tuple(line for line in lines if line)


@app.command("run")
def run_command(
    benchmark: Annotated[str, typer.Option(help="Registered benchmark name, e.g. vsibench.")],
    data: Annotated[Path, typer.Option(help="Benchmark data folder or annotation file.")],
    model: Annotated[str, typer.Option(help="provider:model, e.g. openai-compatible:http://host/v1#name.")],
    out: Annotated[Path, typer.Option(help="Run folder (created); re-running the same command resumes.")],
    frames: Annotated[
        str | None,
        typer.Option(help="uniform:N|fps:F|consecutive:N@S|all (default: the benchmark's, else uniform:32)"),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Only the first N selected items.")] = None,
    ids: Annotated[Path | None, typer.Option(help="File of item ids to run, one per line.")] = None,
    blind: Annotated[bool, typer.Option(help="Vision disabled: send no images at all.")] = False,
    concurrency: Annotated[int, typer.Option(help="Requests in flight.")] = 8,
    max_pixels: Annotated[int | None, typer.Option(help="Max pixels per frame.")] = None,
    model_family: Annotated[str | None, typer.Option(help="open|proprietary (Table 9).")] = None,
    order: Annotated[str, typer.Option(help="video_first | question_first.")] = "video_first",
    video_repeats: Annotated[int, typer.Option(help="Show the video this many times (App. D).")] = 1,
    prompt: Annotated[list[str] | None, typer.Option(help="Prompt field KEY=VALUE.")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Benchmark KEY=VALUE.")] = None,
    setting: Annotated[
        str | None,
        typer.Option(help="MMSI-Video-Bench uniform-50 (default) | sufficient-coverage (= -o setting=S)."),
    ] = None,
    max_new_tokens: Annotated[int | None, typer.Option(help="Answer length (default: benchmark's).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per request attempt.")] = 120.0,
    max_attempts: Annotated[int, typer.Option(help="Attempts per request (429/5xx/timeouts).")] = 6,
    max_images: Annotated[int | None, typer.Option(help="Per-request image limit.")] = None,
    image_overflow: Annotated[str, typer.Option(help="error | subsample beyond --max-images.")] = "error",
    extract: Annotated[str | None, typer.Option(help="Extraction mode.")] = None,
    seed: Annotated[int, typer.Option(help="Seed (recorded; sent to APIs that take one).")] = 0,
    progress: Annotated[bool, typer.Option(help="Show the progress bar.")] = True,
) -> None:
    """Evaluate MODEL on BENCHMARK; answers go to OUT/run.sqlite, scores to OUT/scores.*.

    Exit status: 0 every selected item answered (or not applicable); 1 some items failed, came back
    empty or were not attempted (the summary lists them; re-run the same command to retry them, answered
    items are kept); 2 bad options or a set-up error, nothing sent; 130 interrupted (Ctrl-C).
    """
    from spatialbench.models.api import ImageOverflow

    try:
        benchmark_options = parse_assignments(option or [], "--option")
        if setting is not None:  # MMSI-Video-Bench: the setting chooses the frames; all of them are sent
            from spatialbench.benchmarks.mmsi_video.frames import frame_budget

            frame_budget(setting)  # an unknown setting is a ValueError here, before any work
            benchmark_options["setting"] = setting  # the benchmark's frames (all) follow; see run defaults
        prompt_config = _prompt_config(benchmark, model_family, order, video_repeats, blind, prompt or [])
        config = _run_config(
            benchmark=benchmark,
            data=str(data),
            model=model,
            out=str(out),
            frames=frames,
            limit=limit,
            ids=read_ids(ids) if ids else None,
            concurrency=concurrency,
            max_pixels=max_pixels,
            prompt=prompt_config,
            max_new_tokens=max_new_tokens,
            timeout_s=timeout,
            max_attempts=max_attempts,
            max_images=max_images,
            image_overflow=ImageOverflow(image_overflow),
            benchmark_options=benchmark_options,
            extract=extract,
            seed=seed,
        )
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        typer.echo(f"Error: Invalid value{_invalid(exc)}", err=True)
        raise typer.Exit(2) from None
    config = _with_benchmark_defaults(config)
    prepare_out_dir(out)  # an existing file or unwritable folder: one line, exit 2
    summary = _execute(config, progress)
    _report(summary)
    if summary.unanswered or summary.stopped:
        raise typer.Exit(1)


def _prompt_config(
    benchmark: str, family: str | None, order: str, repeats: int, blind: bool, fields: list[str]
) -> Any:
    from spatialbench.prompting import PromptConfig, get_prompt_builder

    overrides = {k: str(v) for k, v in parse_assignments(fields, "--prompt").items()}
    config = PromptConfig.model_validate(
        {
            "model_family": family,
            "order": order,
            "video_repeats": repeats,
            "blind": blind,
            "overrides": overrides,
        }
    )
    get_prompt_builder(benchmark, config)  # unknown --prompt fields fail here, before any work
    return config


def _with_benchmark_defaults(config: Any) -> Any:
    """Fill the benchmark's frames, answer budget and options; print a note per option filled in.

    A frame strategy that conflicts with a frame-choosing option (``--setting`` with ``--frames uniform:8``)
    is one line and exit 2, before the output folder is created.
    """
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs.checks import RunSetupError
    from spatialbench.runs.defaults import apply_benchmark_defaults

    try:
        config, notes = apply_benchmark_defaults(config)
    except (RunSetupError, UnknownNameError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None
    for note in notes:
        typer.echo(note, err=True)
    return config


def _run_config(**values: Any) -> Any:
    from spatialbench.runs import RunConfig

    return RunConfig(**values)


#: RunConfig / PromptConfig fields whose command-line option is not ``--field-name``
_OPTION_NAMES = {"timeout_s": "--timeout", "overrides": "--prompt", "benchmark_options": "--option"}


def _invalid(exc: ValueError) -> str:
    """`` for --frames: reason`` per field of a pydantic error (no pydantic URL), or per ``--option: ...``."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return f" for {exc}" if str(exc).startswith("--") else f": {exc}"
    parts = []
    for error in exc.errors():
        field_name = str(error["loc"][-1]) if error["loc"] else "value"
        option = _OPTION_NAMES.get(field_name, "--" + field_name.replace("_", "-"))
        parts.append(f" for {option}: {error['msg'].removeprefix('Value error, ')}")
    return ";".join(parts)


def _execute(config: Any, progress: bool) -> Any:
    """Run; set-up problems are one line and exit 2, Ctrl-C says what was kept and exits 130."""
    from spatialbench.models.errors import BackendError
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs import RunInterrupted, RunSetupError, run
    from spatialbench.runs.plan import SelectionError

    try:
        return run(config, progress=progress)
    except RunInterrupted as exc:
        typer.echo(
            f"interrupted; {exc.answered} answered and stored; re-run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    except (BackendError, UnknownNameError, SelectionError, RunSetupError, OSError) as exc:
        # set-up problems (unknown model or benchmark, missing key or data, locked folder): no traceback
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from None


SHOWN_FAILURES = 5


def _report(summary: Any) -> None:
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
