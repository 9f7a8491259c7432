"""``spatialbench run``: evaluate a model on a benchmark, resumably, and write the score table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app


def parse_assignments(pairs: list[str], what: str) -> dict[str, str | int | float | bool]:
    """``["k=v", ...]`` → dict; values ``true``/``false``, integers and floats are typed.

    Raises:
        typer.BadParameter: an entry without ``=``.
    """
    parsed: dict[str, str | int | float | bool] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"{what} must look like KEY=VALUE, got {pair!r}")
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
    """Item ids from a file, one per line; blank lines and ``#`` comments are skipped."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return tuple(line for line in lines if line)


@app.command("run")
def run_command(
    benchmark: Annotated[str, typer.Option(help="Registered benchmark name, e.g. vsibench.")],
    data: Annotated[Path, typer.Option(help="Benchmark data folder or annotation file.")],
    model: Annotated[str, typer.Option(help="provider:model, e.g. openai-compatible:http://host/v1#name.")],
    out: Annotated[Path, typer.Option(help="Run folder (created); re-running the same command resumes.")],
    frames: Annotated[str, typer.Option(help="uniform:N|fps:F|consecutive:N@S|all")] = "uniform:32",
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
    max_new_tokens: Annotated[int | None, typer.Option(help="Answer length (default: benchmark's).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds per request attempt.")] = 120.0,
    max_attempts: Annotated[int, typer.Option(help="Attempts per request (429/5xx/timeouts).")] = 6,
    max_images: Annotated[int | None, typer.Option(help="Per-request image limit.")] = None,
    image_overflow: Annotated[str, typer.Option(help="error | subsample beyond --max-images.")] = "error",
    extract: Annotated[str | None, typer.Option(help="Extraction mode.")] = None,
    seed: Annotated[int, typer.Option(help="Seed (recorded; sent to APIs that take one).")] = 0,
    progress: Annotated[bool, typer.Option(help="Show the progress bar.")] = True,
) -> None:
    """Evaluate MODEL on BENCHMARK; answers go to OUT/run.sqlite, scores to OUT/scores.*."""
    from spatialbench.models.api import ImageOverflow
    from spatialbench.models.errors import BackendError
    from spatialbench.prompting import PromptConfig, get_prompt_builder
    from spatialbench.registry import UnknownNameError
    from spatialbench.runs import RunConfig, run
    from spatialbench.runs.plan import SelectionError
    from spatialbench.scoring import render_markdown

    try:
        prompt_config = PromptConfig.model_validate(
            {
                "model_family": model_family,
                "order": order,
                "video_repeats": video_repeats,
                "blind": blind,
                "overrides": {k: str(v) for k, v in parse_assignments(prompt or [], "--prompt").items()},
            }
        )
        get_prompt_builder(benchmark, prompt_config)  # unknown --prompt fields fail here, before any work
        config = RunConfig(
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
            benchmark_options=parse_assignments(option or [], "--option"),
            extract=extract,
            seed=seed,
        )
    except ValueError as exc:  # pydantic's ValidationError is a ValueError; names the field
        raise typer.BadParameter(str(exc)) from exc
    try:
        summary = run(config, progress=progress)
    except (BackendError, UnknownNameError, SelectionError, OSError) as exc:
        # set-up problems (unknown model or benchmark, missing key or data): one clear line, no traceback
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    counts = summary.counts
    typer.echo(
        f"{summary.selected} items: {summary.already_done} already answered, {counts['ok']} answered now, "
        f"{counts['empty']} empty, {counts['failed']} failed (re-run the command to retry those)"
    )
    for item_id, status, error in summary.unanswered[:5]:
        typer.echo(f"  item {item_id}: {status}{': ' + error if error else ''}", err=True)
    if summary.load_errors:
        shown = "\n  ".join(summary.load_errors[:5])
        typer.echo(
            f"{len(summary.load_errors)} benchmark row(s) could not be read and were skipped:\n  {shown}",
            err=True,
        )
    if summary.score is not None:
        typer.echo(render_markdown(summary.score))
