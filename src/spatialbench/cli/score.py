"""``spatialbench score``: score saved predictions against a benchmark's annotations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.cli.apps import app
from spatialbench.cli.breakdown_option import BreakdownOpt, SubBenchOpt, breakdown_options
from spatialbench.cli.subset_option import SubsetOpt
from spatialbench.records.rows import LoadedItems, RowError
from spatialbench.registry import UnknownNameError
from spatialbench.scoring.output import render_markdown, write_scores
from spatialbench.scoring.scorer import ScoreResult

if TYPE_CHECKING:  # imported inside the command, as every command's heavy modules are
    from spatialbench.runs.results import RunRecord
    from spatialbench.scoring.predictions import Predictions

_SHOWN_ERRORS = 10

BenchmarkOpt = Annotated[str, typer.Option("--benchmark", "-b", help="Registered benchmark name.")]
AnnotationsOpt = Annotated[Path, typer.Option("--annotations", "-a", help="Annotation file or folder.")]
MraOpt = Annotated[str, typer.Option("--mra", help="MRA comparison: official (<=) or paper (<).")]
OutOpt = Annotated[
    Path | None, typer.Option("--out", "-o", help="Write scores.json, items.csv, scores.md here.")
]
PrunedOpt = Annotated[
    Path | None,
    typer.Option("--pruned-ids", help="Bias-pruned id list (a debiased subset's), one id per line."),
]
PredictionsOpt = Annotated[
    Path | None,
    typer.Option("--predictions", "-p", help="JSONL, lmms-eval samples, export, CSV/TSV/XLSX table."),
]
RunOpt = Annotated[
    Path | None, typer.Option("--run", help="A spatialbench run folder: its stored answers instead of -p.")
]
RunAnnotationsOpt = Annotated[
    Path | None, typer.Option("--annotations", "-a", help="Annotation file or folder (default: the run's).")
]
RunBenchmarkOpt = Annotated[
    str | None, typer.Option("--benchmark", "-b", help="Registered benchmark name (default: the run's).")
]
RunMraOpt = Annotated[
    str | None, typer.Option("--mra", help="MRA comparison: official (<=) or paper (<); default: the run's.")
]
ExtractOpt = Annotated[
    str | None, typer.Option("--extract", help="Answer extraction: official or robust (default robust).")
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


def report_row_errors(kind: str, errors: list[RowError]) -> None:
    """Print how many rows of ``kind`` were skipped and the first few, naming file, line and field."""
    if not errors:
        return
    typer.echo(f"{len(errors)} {kind} row(s) skipped:", err=True)
    for error in errors[:_SHOWN_ERRORS]:
        typer.echo(f"  {error}", err=True)
    if len(errors) > _SHOWN_ERRORS:
        typer.echo(f"  ... and {len(errors) - _SHOWN_ERRORS} more", err=True)


def lookup(benchmark: str) -> BenchmarkSpec:
    """Return the benchmark registered as ``benchmark``; an unknown name is one line and exit 2."""
    try:
        return get_benchmark(benchmark)
    except UnknownNameError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err


def load_annotations(
    spec: BenchmarkSpec, annotations: Path, pruned_ids: Path | None, subset: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> LoadedItems:
    """Load items (pruned ids and subset only when given), report bad rows; exit 2 on an unusable input.

    ``options`` are loader options to start from (a run's recorded ones); ``pruned_ids`` and ``subset``
    override them.
    """
    from spatialbench.cli.subset_option import with_subset

    given = {**(options or {}), **({"pruned_ids": pruned_ids} if pruned_ids is not None else {})}
    options = with_subset(given, subset)
    try:
        if subset is not None or pruned_ids is not None:
            spec.check_options(options)  # a benchmark without subsets: one line naming the option
        items = spec.load_items(annotations, **options)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    report_row_errors("annotation", items.errors)
    if not items:
        typer.echo(f"error: no usable items in {annotations}", err=True)
        raise typer.Exit(2)
    return items


def check_out(out: Path | None) -> None:
    """Check ``--out`` before any work (one-line error, exit 2); the shared check of cli/out_dir."""
    if out is not None:
        from spatialbench.cli.out_dir import prepare_out_dir

        prepare_out_dir(out)


def _pruning(result: ScoreResult, items: LoadedItems, pruned_ids: Path, spec: BenchmarkSpec) -> ScoreResult:
    """Say how many pruned ids matched (stderr + scores.json); no debiased row when none did."""
    if spec.pruned_ids is None:
        typer.echo(f"error: --pruned-ids does not apply to {spec.name} (it has no pruned-id list)", err=True)
        raise typer.Exit(2)
    ids = spec.pruned_ids(pruned_ids)
    matched = len(ids & {item.id for item in items})
    line = (f"pruned ids: {matched} of {len(ids)} in {pruned_ids} match an item; "
            f"debiased: {len(items) - matched} of {len(items)} items")
    warnings = []
    if matched == 0:
        line = (f"none of the {len(ids)} pruned ids in {pruned_ids} matches an item id (id-less annotations "
                "get derived ids <scene>-<12 hex>): the debiased row is not available")
        warnings.append(line)
        result = replace(result, debiased=None)
    elif matched < len(ids):
        warnings.append(line)
    typer.echo(("warning: " if warnings else "") + line, err=True)
    return replace(result, pruning={"ids": len(ids), "matched": matched},
                   warnings=[*result.warnings, *warnings])


def with_inputs(result: ScoreResult, items: LoadedItems, pruned_ids: Path | None, spec: BenchmarkSpec,
                prediction_errors: Sequence[RowError] = ()) -> ScoreResult:
    """Record the skipped input rows and the pruned-id match count on ``result`` (for scores.json)."""
    result = replace(result, skipped_rows=[str(e) for e in [*items.errors, *prediction_errors]])
    return _pruning(result, items, pruned_ids, spec) if pruned_ids is not None else result


def emit(result: ScoreResult, out: Path | None, show: bool = True, write: bool = True) -> None:
    """Print the Markdown report (unless ``show`` is False) and, with ``out`` and ``write``, write files.

    ``write=False``: the caller writes the score files in one set with others (breakdown options).
    """
    if show:
        typer.echo(render_markdown(result, scores_file=out is not None))
    if out is not None and write:
        with out_errors():
            paths = write_scores(result, out)
        typer.echo(f"wrote {', '.join(str(p) for p in paths.values())}")


@contextmanager
def out_errors() -> Iterator[None]:
    """Turn an OSError while writing output files (a full disk) into one line naming the file and exit 2."""
    try:
        yield
    except OSError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None


def run_inputs(
    annotations: Path | None, predictions: Path | None, run: Path | None, benchmark: str | None,
    default_benchmark: str,
) -> RunRecord:
    """Annotations, benchmark and model: as given, else what the run folder recorded (``--run``).

    Exactly one of ``predictions`` and ``run``; without ``run``, ``annotations`` is needed and the
    benchmark defaults to ``default_benchmark``. Each problem is one line on stderr and exit 2.
    """
    from spatialbench.runs.results import RunRecord, run_record

    if (predictions is None) == (run is None):
        typer.echo("error: give exactly one of --predictions and --run", err=True)
        raise typer.Exit(2)
    if run is None:
        if annotations is None:
            typer.echo("error: --predictions needs --annotations", err=True)
            raise typer.Exit(2)
        return RunRecord(benchmark or default_benchmark, annotations, "")
    try:
        recorded = run_record(run)
    except (FileNotFoundError, ValueError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    return replace(recorded, benchmark=benchmark or recorded.benchmark, data=annotations or recorded.data)


def score_inputs(
    spec: BenchmarkSpec, items: LoadedItems, record: RunRecord, run: Path | None, predictions: Path | None,
    extract: str | None, mra: str | None = None, predictions_format: str | None = None,
    response_field: str | None = None,
) -> tuple[ScoreResult, Predictions]:
    """Score the predictions file, or the run's stored answers as the run scored itself.

    A run: :func:`~spatialbench.runs.results.score_run` (its selection and modes; a baseline run as
    ``baseline`` scores it, read back as format ``baseline``). A file: bad rows are reported (stderr).

    Raises:
        ValueError: ``--extract`` for a baseline run, a bad mode or prediction file; UnknownNameError: an
            unknown MRA mode; FileNotFoundError / RunFolderError: a missing file or unreadable run store.
    """
    from spatialbench.runs.baseline import baseline_name
    from spatialbench.runs.results import run_predictions, score_run
    from spatialbench.scoring.predictions import Predictions, read_predictions
    from spatialbench.scoring.scorer import score_items

    if run is not None:
        result = score_run(run, record, items, spec.scoring, extract, mra)
        baseline = baseline_name(record.model) is not None
        return result, Predictions(format="baseline") if baseline else run_predictions(run)
    assert predictions is not None  # run_inputs: exactly one of the two
    read = read_predictions(predictions, items, predictions_format, response_field)
    report_row_errors("prediction", read.errors)
    return score_items(items, read.responses, spec.scoring, extract=extract, mra=mra or "official"), read


def _nothing_scored(
    read: Predictions, result: ScoreResult, predictions: Path | None, annotations: Path
) -> str | None:
    """Return the error when no prediction was read or none matched an item, else None."""
    if read.format == "baseline":
        return None  # a baseline run's answers come from the items
    if not read.responses and not read.errors:
        return f"no usable prediction in {predictions}: the file has no rows"
    if not read.responses:
        return f"no usable prediction in {predictions} ({len(read.errors)} rows skipped, listed above)"
    if len(read.responses) == len(result.unmatched_predictions):
        shown = ", ".join(result.unmatched_predictions[:5])
        return (f"none of the {len(read.responses)} predictions in {predictions} matches an item of "
                f"{annotations} (ids such as {shown}); wrong annotation file?")
    return None


def drop_flagged(items: LoadedItems, flags: Path | None, benchmark: str) -> tuple[LoadedItems, set[str]]:
    """Leave out the items whose latest review flag in ``flags`` is wrong or ambiguous (bad file: exit 2)."""
    if flags is None:
        return items, set()
    from spatialbench.records.flags import FlagFileError, excluded_ids

    try:
        dropped = excluded_ids(flags, benchmark)
    except (FileNotFoundError, FlagFileError) as err:
        typer.echo(f"error: --exclude {flags}: {err}", err=True)
        raise typer.Exit(2) from err
    kept = LoadedItems([i for i in items if i.id not in dropped], items.errors)
    typer.echo(f"excluded {len(items) - len(kept)} flagged item(s) ({flags})", err=True)
    return kept, dropped


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
) -> None:
    """Score predictions (or a run folder's answers, ``--run``); prints the table, optionally writes files.

    With ``--run`` the benchmark, annotations, item selection and modes default to the run's own.
    """
    check_out(out)
    record = run_inputs(annotations, predictions, run, benchmark, "vsibench")
    spec = lookup(record.benchmark)
    breakdown = breakdown_options(spec, breakdown_option, sub_bench)
    items = load_annotations(spec, record.data, pruned_ids, subset, record.options)
    items, flagged = drop_flagged(items, exclude, spec.name)
    try:
        result, read = score_inputs(spec, items, record, run, predictions, extract, mra, predictions_format,
                                    response_field)
    except (FileNotFoundError, ValueError, UnknownNameError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from err
    result = with_inputs(result, items, pruned_ids, spec, read.errors)
    unmatched = [i for i in result.unmatched_predictions if i not in flagged]  # excluded, not unknown
    result = replace(result, warnings=[*read.warnings, *result.warnings], unmatched_predictions=unmatched)
    if result.unmatched_predictions:
        shown = ", ".join(result.unmatched_predictions[:_SHOWN_ERRORS])
        more = " ..." if len(result.unmatched_predictions) > _SHOWN_ERRORS else ""
        count = len(result.unmatched_predictions)
        typer.echo(f"{count} prediction id(s) match no item: {shown}{more}", err=True)
    failure = _nothing_scored(read, result, run or predictions, record.data)
    del read  # the responses are in result.rows now: free them (a million: ~150 MB) before writing
    emit(result, out if failure is None else None, show=failure is None, write=not breakdown)
    if failure is not None:
        typer.echo(f"error: {failure}; nothing was scored", err=True)
        raise typer.Exit(1)
    if breakdown:  # no files of zeros above; with -B the score files are written with the breakdown ones
        from spatialbench.cli.breakdown import emit_breakdowns

        emit_breakdowns(spec, list(items), result.rows, record.data, breakdown, out, scores=result)
