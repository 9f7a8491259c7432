"""``spatialbench sweep SETTING=V1,V2,... RUN-OPTIONS``: one run per value, then their comparison.

``RUN-OPTIONS`` are those of ``spatialbench run`` (``--out`` names the sweep folder); rules and the
``sweep.json`` schema in :mod:`spatialbench.analysis.sweep`. Prints each run's summary, then the
comparison against the first value (``OUT/compare.{md,csv,tex,json}``). Exit status: the worst of the
runs' (0 all answered, 1 some items unanswered, 2 a run could not start), 2 for a bad sweep.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.out_dir import prepare_out_dir


def _invoke(args: list[str]) -> int:
    """Run ``spatialbench ARGS`` in this process; return its exit status."""
    import click

    try:
        code = app(args, prog_name="spatialbench", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return int(exc.exit_code)
    return int(code or 0)


def _check_all(args: list[str], key: str, values: tuple[str, ...], out: Path) -> None:
    """Check every value's run as ``run`` checks it (options, model, data, media) before any run starts.

    Raises:
        SweepError: the first value refused (named with the run's one-line reason); nothing has run.
        typer.Exit: (2) a value refused by a run check that printed its own line (it names the option).
    """
    import typer.main

    from spatialbench.analysis.sweep import SweepError, folder_name, run_arguments
    from spatialbench.cli.run import prepare_run
    from spatialbench.errors import SpatialBenchError

    # typer 0.29 brings its own click (typer._click): its commands and errors, typed Any, no pip click
    group: Any = typer.main.get_command(app)
    for value in values:
        run_args = run_arguments(args, key, value, str(out / folder_name(key, value)))
        try:
            with group.make_context("spatialbench", ["run"], resilient_parsing=True) as parent:
                command = group.get_command(parent, "run")
                with command.make_context("run", run_args[1:], parent=parent) as ctx:
                    prepare_run(dict(ctx.params))
        except typer.TyperException as exc:  # typer's ClickException: a parse error of the run options
            message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
            raise SweepError(f"sweep {key}={value}: {message}; no run started") from None
        except SpatialBenchError as exc:
            raise SweepError(f"sweep {key}={value}: {exc}; no run started") from None


def _run_all(args: list[str], key: str, values: tuple[str, ...], out: Path) -> list[dict[str, Any]]:
    """Run every value in turn, sharing one frame cache; return ``value``, ``path``, ``exit_code`` of each."""
    from spatialbench.analysis.sweep import folder_name, run_arguments
    from spatialbench.runs.runner import shared_frame_caches

    runs = []
    with shared_frame_caches():  # a video sampled alike by several values is decoded once
        for value in values:
            folder = out / folder_name(key, value)
            typer.echo(f"== {key} = {value} -> {folder}")
            code = _invoke(run_arguments(args, key, value, str(folder)))
            runs.append({"value": value, "path": str(folder), "exit_code": code})
    return runs


@app.command(
    "sweep",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def sweep(
    ctx: typer.Context,
    spec: Annotated[
        str, typer.Argument(help="SETTING=V1,V2,... (frames, order, video_repeats, strategy, ...).")
    ],
) -> None:
    """Run once per value of one setting (other options as for ``run``), then compare the runs."""
    from spatialbench.analysis.compare_render import render, write_all
    from spatialbench.analysis.registry import save_document
    from spatialbench.analysis.sweep import FILE, SweepError, SweepParams, out_of, parse_sweep, study

    args = list(ctx.args)
    key, values = parse_sweep(spec)  # a SweepError: one line and exit 2 (cli/apps.py)
    out_text = out_of(args)
    if out_text is None:
        raise SweepError("sweep needs --out DIR (the runs go to DIR/<setting>-<value>)")
    _check_all(args, key, values, Path(out_text))  # nothing is paid for before every value is known good
    out = prepare_out_dir(Path(out_text))
    runs = _run_all(args, key, values, out)
    doc = study(SweepParams.model_validate({"setting": key, "values": values, "runs": runs}))
    comparison = doc.model_dump(mode="json")["comparison"]
    if comparison is not None:
        write_all(comparison, out, "compare")
        typer.echo(render(comparison, "markdown"), nl=False)
    save_document(out / FILE, doc)
    worst = max(int(r["exit_code"]) for r in runs)
    if worst:
        raise typer.Exit(worst)
