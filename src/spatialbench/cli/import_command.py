"""``spatialbench import FILE --benchmark B --annotations A --out RUN``: another tool's results as a run.

An lmms-eval ``--log_samples`` log, a VLMEvalKit result table, a plain ``id,response`` CSV (or JSONL,
export) becomes a scored run folder that ``compare``, ``report`` and ``serve`` read like any run
(:func:`~spatialbench.api.importing.import_run`). Exit 2: an unreadable file, no response matching an
item, an ``--out`` that holds files; nothing is left behind.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.score import AnnotationsOpt, BenchmarkOpt, ExtractOpt, FormatOpt, ResponseFieldOpt
from spatialbench.scoring.output import render_markdown


@app.command("import")
def import_results(
    file: Annotated[Path, typer.Argument(help="lmms-eval log, VLMEvalKit table, CSV, JSONL, export.")],
    benchmark: BenchmarkOpt,
    annotations: AnnotationsOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="The new run folder.")],
    model: Annotated[str | None, typer.Option("--model", "-m", help="Model name (default: the file's stem).")]
    = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Tool that wrote FILE (default: detected).")]
    = None,
    version: Annotated[
        str | None, typer.Option("--tool-version", help="Its version (default: from the file name).")
    ] = None,
    extract: ExtractOpt = None,
    format: FormatOpt = None,
    response_field: ResponseFieldOpt = None,
) -> None:
    """Turn another tool's results file into a scored run folder and print its table."""
    from spatialbench.api.importing import import_run
    from spatialbench.runs.imported import imported_origin

    with command_errors(ValueError, OSError):
        outcome = import_run(file, benchmark, annotations, out, model=model, tool=tool, version=version,
                             extract=extract, format=format, response_field=response_field,
                             notify=lambda line: typer.echo(line, err=True))
    run = outcome.run
    origin = imported_origin(run.record["backend"])
    typer.echo(f"imported {outcome.answered} answer(s) from {origin} into {out} "
               f"(model {run.model}, extraction {run.config.scoring.extract})")
    typer.echo(render_markdown(run.score()))
