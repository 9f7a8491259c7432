"""``spatialbench score``: score saved predictions against a benchmark's annotations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.cli.apps import app, command_errors
from spatialbench.cli.breakdown_option import BreakdownOpt, SubBenchOpt, checked_before_work
from spatialbench.cli.score_options import LoaderOpt, RunAnnotationsOpt, RunOpt, loader_options, note
from spatialbench.cli.subset_option import SubsetOpt
from spatialbench.records.rows import LoadedItems
from spatialbench.scoring.output import render_markdown, write_scores
from spatialbench.scoring.scorer import ScoreResult

#: what a score writes (``scoring.output.write_scores``): a folder holding one is an earlier score
SCORE_FILES = ("scores.json", "items.csv", "scores.md")

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
PredictionsOpt = Annotated[
    Path | None,
    typer.Option("--predictions", "-p", help="JSONL, lmms-eval samples, export, CSV/TSV/XLSX table."),
]
RunBenchmarkOpt = Annotated[
    str | None, typer.Option("--benchmark", "-b", help="Registered benchmark name (default: the run's).")
]
RunMraOpt = Annotated[
    str | None, typer.Option("--mra", help="MRA comparison: official (<=) or paper (<); default: the run's.")
]
ExtractOpt = Annotated[
    str | None, typer.Option("--extract", help=(
        "Answer extraction: official, robust (default), lmms-eval-0.7.2, lmms-eval-0.7.3, vlmevalkit."
    ))
]
FormatOpt = Annotated[
    str | None, typer.Option("--format", help="jsonl | lmms-eval | export | table (default: detected).")
]
ExcludeOpt = Annotated[
    Path | None,
    typer.Option(
        "--exclude",
        help="Review flags file (spatialbench serve's flags.jsonl): leave out items whose latest flag is "
        "wrong or ambiguous.",
    ),
]
ResponseFieldOpt = Annotated[
    str | None, typer.Option("--response-field", help="Column holding the response (exports, tables).")
]


def lookup(benchmark: str) -> BenchmarkSpec:
    """Return the benchmark registered as ``benchmark``.

    Raises:
        UnknownNameError: an unknown name (one line and exit 2 at the CLI's boundary).
    """
    return get_benchmark(benchmark)


def load_annotations(
    spec: BenchmarkSpec, annotations: Path, pruned_ids: Path | None, subset: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> LoadedItems:
    """Load items (:func:`spatialbench.api.scoring.load_annotations`); bad rows on stderr, exit 2 on none."""
    from spatialbench.api.scoring import load_annotations as load

    return load(spec, annotations, pruned_ids, subset, options, notify=note)


def with_inputs(result: ScoreResult, items: LoadedItems, pruned_ids: Path | None,
                spec: BenchmarkSpec) -> ScoreResult:
    """Record skipped rows and the pruned-id match count on ``result`` (the pruning line on stderr)."""
    from spatialbench.api.scoring import with_inputs as record

    return record(spec, result, items, pruned_ids, notify=note)


@contextmanager
def check_out(out: Path | None) -> Iterator[None]:
    """Check ``--out`` before any work (one-line error, exit 2); the shared checks of cli/out_dir.

    A run folder, or a folder holding other files than an earlier score's, is refused.

    An input error in the block removes the folders made for ``--out`` (``cli.out_dir.new_out_dir``).
    """
    if out is None:
        yield
        return
    from spatialbench.cli.out_dir import check_replaceable, new_out_dir

    check_replaceable(out, SCORE_FILES, "scores")
    with new_out_dir(out):
        yield


def check_mra(mra: str | None) -> None:
    """Refuse an unknown ``--mra`` before any file is read (UnknownNameError listing the modes, exit 2)."""
    if mra is not None:
        from spatialbench.scoring import MRA_MODES

        MRA_MODES.get(mra)


def emit(result: ScoreResult, out: Path | None, show: bool = True, write: bool = True) -> None:
    """Print the Markdown report (unless ``show`` is False) and, with ``out`` and ``write``, write files.

    ``write=False``: the caller writes the score files in one set with others (``--sub-bench``).
    """
    if show:
        typer.echo(render_markdown(result, scores_file=out is not None))
    if out is not None and write:
        with command_errors(OSError):  # a full disk: one line naming the file
            paths = write_scores(result, out)
        typer.echo(f"wrote {', '.join(str(p) for p in paths.values())}")


@app.command()
def score(
    annotations: RunAnnotationsOpt = None,
    predictions: PredictionsOpt = None,
    run: RunOpt = None,
    benchmark: RunBenchmarkOpt = None,
    extract: ExtractOpt = None,
    mra: RunMraOpt = None,
    out: OutOpt = None,
    pruned_ids: PrunedOpt = None,
    predictions_format: FormatOpt = None,
    response_field: ResponseFieldOpt = None,
    breakdown_option: BreakdownOpt = None,
    sub_bench: SubBenchOpt = None,
    subset: SubsetOpt = None,
    exclude: ExcludeOpt = None,
    option: LoaderOpt = None,
) -> None:
    """Score predictions (or a run folder's answers, ``--run``); prints the table, optionally writes files.

    With ``--run`` the benchmark, annotations, item selection (shard included) and modes default to the
    run's own (:func:`spatialbench.api.scoring.score`).
    """
    from spatialbench.api.scoring import score as score_saved

    check_mra(mra)
    with check_out(out):  # its SpatialBenchErrors: one line and their exit code (cli/apps.py), no new --out
        breakdown = checked_before_work(benchmark, run, predictions, "vsibench", breakdown_option, sub_bench)
        outcome = score_saved(benchmark, annotations, predictions, run, extract=extract, mra=mra,
                              pruned_ids=pruned_ids, subset=subset, exclude=exclude,
                              predictions_format=predictions_format, response_field=response_field,
                              options=loader_options(option), notify=note)
    # with -B the score files are written with the breakdown files, as one set
    emit(outcome.result, out, write=not breakdown)
    if breakdown:  # the breakdown's tables, e.g. an MMSI sub-benchmark from its id lists (cli/breakdown.py)
        from spatialbench.cli.breakdown import emit_breakdowns

        emit_breakdowns(outcome.spec, outcome.items, outcome.result.rows, outcome.data, breakdown, out,
                        scores=outcome.result)
