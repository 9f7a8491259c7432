"""``spatialbench breakdown``: a benchmark's breakdown tables (per-group accuracy, random guess, failures).

MMSI-Video-Bench: Tables 2 and 3 and the difficulty levels, or one sub-benchmark with
``-B sub_bench=NAME`` (robot, indoor, grounding, difficulty; id lists from ``<data>/meta_data``;
``--sub-bench`` is the deprecated spelling). Options are the ones the benchmark declares
(``BenchmarkSpec.breakdown_options``), checked before any work. ReMindView-Bench: Table 1 and
accuracy by object count and distance level. A benchmark without breakdowns of its own (VSI-Bench) gets
:func:`default_breakdowns`: its score table over all items and per source dataset (with Avg.), and one
cell per question type (VSI-Bench's three relative-direction sub-types among them). No media is read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.breakdown_option import BreakdownOpt, SubBenchOpt, checked_before_work
from spatialbench.cli.score_options import RunAnnotationsOpt, RunOpt, note
from spatialbench.records.files import atomic_write_files
from spatialbench.records.item import Item

if TYPE_CHECKING:
    import pandas as pd

    from spatialbench.benchmarks.spec import BenchmarkSpec
    from spatialbench.scoring.grouped import Table
    from spatialbench.scoring.scorer import ScoreResult

def data_folder(annotations: Path) -> Path:
    """Return the data folder: ``annotations`` itself, or the folder of an annotation file."""
    return annotations if annotations.is_dir() else annotations.parent


def default_breakdowns(spec: BenchmarkSpec, rows: pd.DataFrame) -> list[Table]:
    """Breakdowns of a benchmark that defines none, from its scored ``rows`` (no media, no id lists).

    One score table (the benchmark's own columns, ``Avg.`` first) over all items and one per source
    dataset, then one cell per question type over all items (VSI-Bench: easy / medium / hard relative
    direction apart).
    """
    from dataclasses import replace

    from spatialbench.scoring.grouped import Cell, Group, grouped

    def with_average(table: Table, title: str) -> Table:
        # keyed ``overall``: its interval is the table's overall, resampled as the table computes it
        average = Cell("overall", "Avg.", sum(c.n for c in table.cells), table.average, None,
                       sum(c.failures for c in table.cells))
        return replace(table, title=title, cells=(average, *table.cells))

    datasets = sorted(str(d) for d in rows["dataset"].dropna().unique())
    overall = spec.scoring.table(rows)
    tables = [with_average(overall, f"{spec.name}: all items")]
    tables += [with_average(spec.scoring.table(rows[rows["dataset"] == d]), f"{spec.name}: {d}")
               for d in datasets]
    present = {str(t) for t in rows["task"].dropna().unique()}
    in_table = [str(p) for c in overall.cells for p in c.parts if str(p) in present]  # the table's order
    tasks = list(dict.fromkeys(in_table)) + sorted(present - set(in_table))
    per_type = grouped(rows, [Group.of(t, task=t) for t in tasks], title=f"{spec.name}: per question type")
    return [*tables, per_type]


def _tables(
    spec: BenchmarkSpec, items: Sequence[Item], rows: pd.DataFrame, annotations: Path,
    options: Mapping[str, str],
) -> tuple[list[Table], list[str]]:
    """Return the benchmark's breakdown tables (or :func:`default_breakdowns`) and their warnings.

    ``options``: checked breakdown options (:func:`~spatialbench.cli.breakdown_option.breakdown_options`).

    Raises:
        CommandError: the benchmark's function refused an option value or found no id lists (its
            KeyError, FileNotFoundError or ValueError, worded as it words them); its SpatialBenchError
            passes unchanged.
    """
    warnings: list[str] = []
    if spec.breakdowns is None:
        return default_breakdowns(spec, rows), warnings
    # an unknown sub-benchmark (KeyError), missing or malformed id lists
    with command_errors(KeyError, FileNotFoundError, ValueError):
        tables = spec.breakdown_tables(items, rows, warnings, data_dir=data_folder(annotations), **options)
    return tables, warnings


def emit_breakdowns(
    spec: BenchmarkSpec,
    items: Sequence[Item],
    rows: pd.DataFrame,
    annotations: Path,
    options: Mapping[str, str],
    out: Path | None,
    scores: ScoreResult | None = None,
) -> None:
    """Print the breakdown tables; with ``out``, also write ``breakdown.md``, ``.csv`` and ``.json``.

    The three files (with ``scores``, also that result's ``scores.json``, ``items.csv`` and
    ``scores.md``: ``score -B ...``) are written as one set, temporaries renamed only when all were
    written; the earlier files stay whole when one fails. ``options``: the checked breakdown options.
    Warnings (a table left out, items outside the table) go to stderr.

    Raises:
        CommandError: missing id lists or a bad option value the benchmark's function refuses
            (:func:`_tables`); a failed write (a full disk), naming the file.
    """
    from spatialbench.scoring.output import score_files
    from spatialbench.scoring.render import CI_NOTE, breakdown_grid, cells_json, to_csv, to_markdown

    tables, warnings = _tables(spec, items, rows, annotations, options)
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    grids = [breakdown_grid(t) for t in tables]
    text = "\n\n".join("\n".join(to_markdown(g)) for g in grids) + f"\n\n{CI_NOTE}"
    typer.echo(text)
    if out is not None:
        payload = [cells_json(t) for t in tables]
        csv_text = "\n".join(f"{g.title}\n{to_csv(g)}" for g in grids)
        files = score_files(scores, out) if scores is not None else {}
        files |= {out / "breakdown.md": text + "\n", out / "breakdown.csv": csv_text,
                  out / "breakdown.json": json.dumps(payload, indent=2) + "\n"}
        with command_errors(OSError):  # one set: every file renamed only when all were written
            out.mkdir(parents=True, exist_ok=True)
            atomic_write_files(files)
        if scores is not None:
            typer.echo(f"wrote {', '.join(str(p) for p in files)}")


@app.command()
def breakdown(
    annotations: RunAnnotationsOpt = None,
    predictions: Annotated[
        Path | None, typer.Option("--predictions", "-p", help="JSONL, lmms-eval samples or export.")
    ] = None,
    run: RunOpt = None,
    benchmark: Annotated[
        str | None, typer.Option("--benchmark", "-b", help="Registered benchmark name (default: the run's, "
                                 "else mmsi-video).")
    ] = None,
    extract: Annotated[str | None, typer.Option("--extract", help="Answer extraction mode.")] = None,
    breakdown_option: BreakdownOpt = None,
    sub_bench: SubBenchOpt = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write breakdown.md and .json here.")
    ] = None,
) -> None:
    """Score predictions (or a run's answers) and print the breakdown tables with random-guess baselines."""
    from spatialbench.api.scoring import score_answers

    options = checked_before_work(benchmark, run, predictions, "mmsi-video", breakdown_option, sub_bench)
    outcome = score_answers(benchmark, annotations, predictions, run, extract=extract,
                            default_benchmark="mmsi-video", notify=note)  # errors: cli/apps.py's boundary
    result = outcome.result
    typer.echo(f"**{outcome.spec.name}** · extraction: {result.extract} · items: {len(outcome.items)}\n")
    emit_breakdowns(outcome.spec, outcome.items, result.rows, outcome.data, options, out)
