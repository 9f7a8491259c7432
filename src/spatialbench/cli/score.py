"""``spatialbench score``: score saved predictions against a benchmark's annotations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spatialbench.benchmarks.registry import LoadedItems, RowError, get_benchmark
from spatialbench.cli.apps import app
from spatialbench.registry import UnknownNameError
from spatialbench.scoring.output import render_markdown, write_scores
from spatialbench.scoring.scorer import ScoreResult

_SHOWN_ERRORS = 10

BenchmarkOpt = Annotated[str, typer.Option("--benchmark", "-b", help="Registered benchmark name.")]
AnnotationsOpt = Annotated[Path, typer.Option("--annotations", "-a", help="Annotation file or folder.")]
MraOpt = Annotated[str, typer.Option("--mra", help="MRA comparison: official (<=) or paper (<).")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", "-o", help="Write scores.json, items.csv, scores.md here.")
]
PrunedOpt = Annotated[
    Path | None,
    typer.Option("--pruned-ids", help="Bias-pruned id list (VSI-Bench-Debiased), one id per line."),
]


def report_row_errors(kind: str, errors: list[RowError]) -> None:
    """Print how many rows of ``kind`` were skipped and the first few, naming file, line and field."""
    if not errors:
        return
    typer.echo(f"{len(errors)} {kind} row(s) skipped:", err=True)
    for error in errors[:_SHOWN_ERRORS]:
        typer.echo(f"  {error}", err=True)
    if len(errors) > _SHOWN_ERRORS:
        typer.echo(f"  ... and {len(errors) - _SHOWN_ERRORS} more", err=True)


def load_annotations(benchmark: str, annotations: Path, pruned_ids: Path | None) -> LoadedItems:
    """Load items (pruned ids only when given), report bad rows; exit 2 on an unusable input."""
    options = {"pruned_ids": pruned_ids} if pruned_ids is not None else {}
    try:
        items = get_benchmark(benchmark).load(annotations, **options)
    except (FileNotFoundError, ValueError, UnknownNameError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    report_row_errors("annotation", items.errors)
    if not items:
        typer.echo(f"error: no usable items in {annotations}", err=True)
        raise typer.Exit(2)
    return items


def emit(result: ScoreResult, out: Path | None) -> None:
    """Print the Markdown report and, with ``out``, write the score files."""
    typer.echo(render_markdown(result))
    if out is not None:
        paths = write_scores(result, out)
        typer.echo(f"wrote {', '.join(str(p) for p in paths.values())}")


@app.command()
def score(
    annotations: AnnotationsOpt,
    predictions: Annotated[
        Path, typer.Option("--predictions", "-p", help="JSONL, lmms-eval samples or export.")
    ],
    benchmark: BenchmarkOpt = "vsibench",
    extract: Annotated[
        str | None, typer.Option("--extract", help="Answer extraction: official or robust (default robust).")
    ] = None,
    mra: MraOpt = "official",
    out: OutOpt = None,
    pruned_ids: PrunedOpt = None,
    predictions_format: Annotated[
        str | None, typer.Option("--format", help="jsonl | lmms-eval | export (default: detected).")
    ] = None,
    sub_bench: Annotated[
        str | None,
        typer.Option("--sub-bench", help="MMSI-Video-Bench sub-benchmark: robot|indoor|grounding|difficulty"),
    ] = None,
) -> None:
    """Score predictions; prints the table with the modes used, optionally writes scores.json + CSV."""
    from spatialbench.scoring.predictions import AmbiguousJoinError, read_predictions
    from spatialbench.scoring.scorer import score_items

    items = load_annotations(benchmark, annotations, pruned_ids)
    try:
        read = read_predictions(predictions, items, predictions_format)
        report_row_errors("prediction", read.errors)
        result = score_items(items, read.responses, benchmark=benchmark, extract=extract, mra=mra)
    except (AmbiguousJoinError, FileNotFoundError, ValueError, UnknownNameError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    emit(result, out)
    if sub_bench is not None:  # the sub-benchmark's table, from the official id lists (cli/breakdown.py)
        from spatialbench.cli.breakdown import emit_breakdowns

        emit_breakdowns(benchmark, list(items), result.rows, annotations, sub_bench, out)
