"""``spatialbench breakdown``: a benchmark's breakdown tables (per-group accuracy, random guess, failures).

MMSI-Video-Bench: Tables 2 and 3 and the difficulty levels, or one sub-benchmark with ``--sub-bench``
(robot, indoor, grounding, difficulty; id lists from ``<data>/meta_data``). ReMindView-Bench: Table 1 and
accuracy by object count and distance level.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import app
from spatialbench.cli.score import AnnotationsOpt, BenchmarkOpt, load_annotations, lookup, report_row_errors
from spatialbench.records.item import Item

if TYPE_CHECKING:
    import pandas as pd

    from spatialbench.benchmarks.spec import BenchmarkSpec

SubBenchOpt = Annotated[
    str | None,
    typer.Option(
        "--sub-bench", help="MMSI-Video-Bench sub-benchmark: robot | indoor | grounding | difficulty."
    ),
]


def data_folder(annotations: Path) -> Path:
    """Return the data folder: ``annotations`` itself, or the folder of an annotation file."""
    return annotations if annotations.is_dir() else annotations.parent


def emit_breakdowns(
    spec: BenchmarkSpec,
    items: list[Item],
    rows: pd.DataFrame,
    annotations: Path,
    sub_bench: str | None,
    out: Path | None,
) -> None:
    """Print the breakdown tables; with ``out``, also write ``breakdown.md``, ``.csv`` and ``.json``.

    Exits with code 2 (message on stderr) for an unknown sub-benchmark, missing id lists or an option the
    benchmark does not take (``--sub-bench`` for ReMindView-Bench); warnings (a table left out, items
    outside the table) go to stderr.
    """
    from spatialbench.scoring.render import breakdown_grid, cells_json, to_csv, to_markdown

    warnings: list[str] = []
    try:
        tables = spec.breakdown_tables(
            items, rows, warnings, data_dir=data_folder(annotations), sub_bench=sub_bench
        )
    except (KeyError, FileNotFoundError, ValueError) as err:
        typer.echo(f"error: {err.args[0] if isinstance(err, KeyError) else err}", err=True)
        raise typer.Exit(2) from err
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    grids = [breakdown_grid(t) for t in tables]
    text = "\n\n".join("\n".join(to_markdown(g)) for g in grids)
    typer.echo(text)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "breakdown.md").write_text(text + "\n", encoding="utf-8")
        csv_text = "\n".join(f"{g.title}\n{to_csv(g)}" for g in grids)
        (out / "breakdown.csv").write_text(csv_text, encoding="utf-8")
        payload = [cells_json(t) for t in tables]
        (out / "breakdown.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


def run_responses(run_dir: Path) -> dict[str, str]:
    """Answered responses by item id from a run folder's ``run.sqlite`` (the latest row per item).

    Raises:
        FileNotFoundError: the folder has no ``run.sqlite``.
    """
    from spatialbench.runs import STORE_NAME
    from spatialbench.runs.store import RunStore

    path = run_dir / STORE_NAME
    if not path.is_file():
        raise FileNotFoundError(f"no {STORE_NAME} in {run_dir} (is it the --out folder of spatialbench run?)")
    store = RunStore(path, secrets=[])
    try:
        return {r.item_id: r.response for r in store.results() if r.status == "ok" and r.response is not None}
    finally:
        store.close()


@app.command()
def breakdown(
    annotations: AnnotationsOpt,
    predictions: Annotated[
        Path | None, typer.Option("--predictions", "-p", help="JSONL, lmms-eval samples or export.")
    ] = None,
    run: Annotated[
        Path | None, typer.Option("--run", help="A spatialbench run folder instead of -p.")
    ] = None,
    benchmark: BenchmarkOpt = "mmsi-video",
    extract: Annotated[str | None, typer.Option("--extract", help="Answer extraction mode.")] = None,
    sub_bench: SubBenchOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write breakdown.md and .json here.")
    ] = None,
) -> None:
    """Score predictions (or a run's answers) and print the breakdown tables with random-guess baselines."""
    from spatialbench.scoring.predictions import read_predictions
    from spatialbench.scoring.scorer import score_items

    if (predictions is None) == (run is None):
        typer.echo("error: give exactly one of --predictions and --run", err=True)
        raise typer.Exit(2)
    spec = lookup(benchmark)
    items = load_annotations(spec, annotations, None)
    try:
        if predictions is None:
            responses = run_responses(run) if run is not None else {}
        else:
            read = read_predictions(predictions, items, None)
            report_row_errors("prediction", read.errors)
            responses = read.responses
        result = score_items(items, responses, spec.scoring, extract=extract)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    typer.echo(f"**{benchmark}** · extraction: {result.extract} · items: {len(items)}\n")
    emit_breakdowns(spec, list(items), result.rows, annotations, sub_bench, out)
