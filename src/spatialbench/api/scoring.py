"""Scoring saved answers: a predictions file against a benchmark, or a run folder's stored answers.

:func:`score` is ``spatialbench score`` without the printing (``spatialbench.score``): it loads the
annotations, reads the predictions (or opens the run, :func:`~spatialbench.runs.folder.open_run`), scores
them and records the inputs' bookkeeping on the result (skipped rows, pruned-id matches, unmatched ids).
:func:`score_answers` is the same without the bookkeeping (``spatialbench breakdown``). A run folder is
scored as it scored itself (:meth:`~spatialbench.runs.folder.RunFolder.score`: its selection, shard
included, its modes; a baseline run as ``baseline`` scores it). Each unusable input is one
:class:`ScoreInputError` (or the :class:`~spatialbench.errors.SpatialBenchError` raised below) with a
one-line message; notes for the user (skipped rows, excluded flags, pruning) go to ``notify`` as they
arise and are kept in :attr:`ScoreOutcome.notes`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, TypeVar

from spatialbench.api.nothing_scored import nothing_scored
from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import BenchmarkSpec
from spatialbench.errors import SpatialBenchError
from spatialbench.records.item import Item
from spatialbench.records.item_table import ItemTable, LoadedTable
from spatialbench.records.rows import LoadedItems, RowError
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.scoring.predictions import Predictions
from spatialbench.scoring.scorer import ScoreResult

Loaded = TypeVar("Loaded", LoadedItems, LoadedTable)
SHOWN_ERRORS = 10
"""Bad rows and unmatched ids named in a note (the rest are counted)."""


class ScoreInputError(SpatialBenchError, ValueError):
    """Inputs that cannot be scored: a missing or unreadable file, a bad option or mode (exit 2)."""


class NothingScoredError(SpatialBenchError, ValueError):
    """No prediction was read, or none matches an item (exit 1); ``outcome`` holds the all-zero result."""

    exit_code = 1

    def __init__(self, message: str, outcome: ScoreOutcome) -> None:
        super().__init__(message)
        self.outcome = outcome


@dataclass(frozen=True)
class ScoreOutcome:
    """What :func:`score` scored.

    Attributes:
        result: the scores (``scores.json`` / ``items.csv`` of :func:`~spatialbench.scoring.output.
            write_scores`). spec: the benchmark. items: the items scored (a run's selection; flagged
            items left out; an :class:`~spatialbench.records.item_table.ItemTable` for a predictions
            file). data: the annotation file or folder read. run: the run folder (None for a
            predictions file). notes: the lines given to ``notify``, in order.
    """

    result: ScoreResult
    spec: BenchmarkSpec
    items: Sequence[Item]
    data: Path
    run: RunFolder | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class _Read:
    """The inputs as read: loaded annotations, items to score, predictions, flagged ids."""

    spec: BenchmarkSpec
    data: Path
    loaded: LoadedItems | LoadedTable
    items: Sequence[Item]
    predictions: Predictions
    result: ScoreResult
    flagged: set[str]
    run: RunFolder | None

    @cached_property
    def whole_ids(self) -> set[str] | None:
        """The ids of the whole benchmark (loaded without a subset, once), None when it cannot be read."""
        run_options = self.run.options if self.run is not None else {}
        options = {k: v for k, v in run_options.items() if k != "subset"}
        try:
            return set(self.spec.load_table(self.data, **options).column("id"))
        except (OSError, ValueError):
            return None


class _Notes(list[str]):
    """The notes of one call, each also handed to ``notify`` at once."""

    def __init__(self, notify: Callable[[str], None] | None) -> None:
        super().__init__()
        self.notify = notify

    def add(self, line: str) -> None:
        self.append(line)
        if self.notify is not None:
            self.notify(line)

    def rows(self, kind: str, errors: Sequence[RowError]) -> None:
        """Note how many rows of ``kind`` were skipped and the first few, naming file, line and field."""
        if not errors:
            return
        self.add(f"{len(errors)} {kind} row(s) skipped:")
        for error in errors[:SHOWN_ERRORS]:
            self.add(f"  {error}")
        if len(errors) > SHOWN_ERRORS:
            self.add(f"  ... and {len(errors) - SHOWN_ERRORS} more")


@contextmanager
def _as_input_error() -> Iterator[None]:
    """Re-raise a FileNotFoundError / ValueError from below as one :class:`ScoreInputError` line."""
    try:
        yield
    except SpatialBenchError:
        raise
    except (FileNotFoundError, ValueError) as err:
        raise ScoreInputError(str(err)) from None


def load_annotations(
    spec: BenchmarkSpec, annotations: str | Path, pruned_ids: str | Path | None = None,
    subset: str | None = None, options: Mapping[str, Any] | None = None,
    notify: Callable[[str], None] | None = None,
) -> LoadedItems:
    """Load the benchmark's items (``options``, then ``pruned_ids`` and ``subset`` when given).

    Bad rows are skipped and noted (``notify``).

    Raises:
        ScoreInputError: an unreadable file, an option the benchmark does not take, no usable item.
    """
    return _load(spec.load_items, spec, Path(annotations), _path(pruned_ids), subset, _Notes(notify), options)


def _load(
    load: Callable[..., Loaded], spec: BenchmarkSpec, annotations: Path, pruned_ids: Path | None,
    subset: str | None, notes: _Notes, options: Mapping[str, Any] | None = None,
) -> Loaded:
    """Load the items with ``spec.load_items``, or ``spec.load_table`` (the scorer's: no Item per row)."""
    loader = {**(options or {}), **({"pruned_ids": pruned_ids} if pruned_ids is not None else {})}
    loader = {**loader, "subset": subset} if subset else loader
    with _as_input_error():
        spec.check_options(loader)  # an option the benchmark lacks (a subset, pruned ids): one line
        items = load(annotations, **loader)
    notes.rows("annotation", items.errors)
    metadata = items.column("metadata") if isinstance(items, ItemTable) else [i.metadata for i in items]
    budgets = sorted({str(m["budget"]) for m in metadata if "budget" in m})
    if budgets:  # ReVSI: each frame budget has its own ground truth; say which one was scored against
        notes.add(f"ground truth of frame budget {', '.join(budgets)} (--option budget=N selects another)")
    if not items:
        raise ScoreInputError(f"no usable items in {annotations}")
    return items


def _flagged(items: Sequence[Item], flags: Path | None, benchmark: str, notes: _Notes) -> set[str]:
    """Return the ids whose latest review flag in ``flags`` is wrong or ambiguous; note how many items."""
    if flags is None:
        return set()
    from spatialbench.records.flags import FlagFileError, excluded_ids

    try:
        dropped = excluded_ids(flags, benchmark)
    except (FileNotFoundError, FlagFileError) as err:
        raise ScoreInputError(f"--exclude {flags}: {err}") from None
    notes.add(f"excluded {sum(i in dropped for i in _ids(items))} flagged item(s) ({flags})")
    return dropped


def _lookup(benchmark: str) -> BenchmarkSpec:
    return get_benchmark(benchmark)  # UnknownNameError: a SpatialBenchError naming near misses


def _read(
    benchmark: str | None, annotations: Path | None, predictions: Path | None, run: Path | None,
    options: dict[str, Any], notes: _Notes, default_benchmark: str,
) -> _Read:
    """Open the run or the predictions file, load, select and score (``options``: this module's knobs)."""
    if (predictions is None) == (run is None):
        raise ScoreInputError("give exactly one of --predictions and --run")
    folder = open_run(run) if run is not None else None
    if folder is None and annotations is None:
        raise ScoreInputError("--predictions needs --annotations")
    spec = _lookup(benchmark or (folder.benchmark if folder is not None else default_benchmark))
    data = annotations if annotations is not None else folder.data_path  # type: ignore[union-attr]
    args = (spec, data, options["pruned_ids"], options["subset"], notes,
            {**(folder.options if folder is not None else {}), **options.get("options", {})})
    loaded = _load(spec.load_items, *args) if folder is not None else _load(spec.load_table, *args)
    flagged = _flagged(loaded, options["exclude"], spec.name, notes)
    extract, mra = options["extract"], options["mra"]
    with _as_input_error():
        if folder is not None:
            assert isinstance(loaded, LoadedItems)  # a run's items are loaded as items (load_items)
            result = folder.score(loaded, extract=extract, mra=mra, exclude=flagged)
            items: Sequence[Item] = folder.items(loaded, exclude=flagged)
            read = Predictions(format="baseline") if folder.baseline else Predictions(
                responses=folder.responses(), format="run")
            return _Read(spec, data, loaded, items, read, result, flagged, folder)
        from spatialbench.scoring.prediction_columns import unusable_columns
        from spatialbench.scoring.predictions import read_predictions
        from spatialbench.scoring.scorer import score_items

        table = ItemTable.of(loaded)  # the loaded table itself (load_table)
        items = table.take([k for k, i in enumerate(_ids(table)) if i not in flagged]) if flagged else table
        read = read_predictions(predictions, items, options["predictions_format"],  # type: ignore[arg-type]
                                options["response_field"])
        missing = unusable_columns(read, options["response_field"])
        if missing:  # no row can be used: a usage error, not a run that scored nothing
            raise ScoreInputError(f"no usable prediction column in {predictions}: {missing}")
        notes.rows("prediction", read.errors)
        result = score_items(items, read.responses, spec.scoring, extract=extract, mra=mra or "official")
    return _Read(spec, data, loaded, items, read, result, flagged, None)


def score_answers(
    benchmark: str | None = None, annotations: str | Path | None = None,
    predictions: str | Path | None = None, run: str | Path | None = None, *,
    extract: str | None = None, mra: str | None = None,
    default_benchmark: str = "vsibench", notify: Callable[[str], None] | None = None,
) -> ScoreOutcome:
    """Score a predictions file or a run folder's answers, without :func:`score`'s bookkeeping.

    Arguments as :func:`score`; the result carries no skipped rows or pruning counts and an input that
    matched nothing is scored (all zeros) rather than refused.

    Raises:
        ScoreInputError, RunFolderError, UnknownNameError: as :func:`score`.
    """
    notes = _Notes(notify)
    knobs = {"extract": extract, "mra": mra, "pruned_ids": None, "subset": None, "exclude": None,
             "predictions_format": None, "response_field": None}
    read = _read(benchmark, _path(annotations), _path(predictions), _path(run), knobs, notes,
                 default_benchmark)
    return ScoreOutcome(read.result, read.spec, read.items, read.data, read.run, list(notes))


def _ids(items: Sequence[Item]) -> list[str]:
    """Return each item's id (a table's column as it is)."""
    return items.column("id") if isinstance(items, ItemTable) else [item.id for item in items]


def _path(value: str | Path | None) -> Path | None:
    return None if value is None else Path(value)


def score(
    benchmark: str | None = None, annotations: str | Path | None = None,
    predictions: str | Path | None = None, run: str | Path | None = None, *,
    extract: str | None = None, mra: str | None = None,
    pruned_ids: str | Path | None = None, subset: str | None = None, exclude: str | Path | None = None,
    predictions_format: str | None = None, response_field: str | None = None,
    options: Mapping[str, Any] | None = None,
    default_benchmark: str = "vsibench", notify: Callable[[str], None] | None = None,
) -> ScoreOutcome:
    """Score saved predictions, or a run folder's stored answers, against the benchmark's annotations.

    Give exactly one of ``predictions`` (a JSONL, lmms-eval samples, export or CSV/TSV/XLSX file; needs
    ``annotations``) and ``run`` (a run folder: its benchmark, annotations, loader options, selection,
    shard and modes are the defaults). ``benchmark``: registered name (default: the run's, else
    ``default_benchmark``). ``extract``: ``official`` / ``robust`` (default: the run's, else the
    benchmark's). ``mra``: ``official`` (<=) / ``paper`` (<). ``pruned_ids``: a bias-pruned id list (one
    per line; its match count goes into the result, no debiased row when none matches). ``subset``:
    the ``subset`` loader option (``tiny``). ``exclude``: a review flags file; items flagged wrong or
    ambiguous are left out. ``options``: loader options (``{"budget": "16"}``), over a run's own.
    ``predictions_format``, ``response_field``: see
    :func:`~spatialbench.scoring.predictions.read_predictions`. ``notify``: called with each note line
    (skipped rows, excluded items, pruning, unmatched ids) as it arises.

    Returns:
        :class:`ScoreOutcome`; ``result.warnings`` includes the predictions' and the pruning's warnings,
        ``result.skipped_rows`` the bad annotation and prediction rows.

    Raises:
        ScoreInputError: both or neither of ``predictions`` and ``run``; ``predictions`` without
            ``annotations``; an unreadable file, bad option or mode. RunFolderError: not a (readable) run
            folder. UnknownNameError: an unknown benchmark or mode. NothingScoredError: no prediction
            read, or none matches an item (wrong annotation file?).
    """
    notes = _Notes(notify)
    pruned = _path(pruned_ids)
    knobs = {"extract": extract, "mra": mra, "pruned_ids": pruned, "subset": subset,
             "exclude": _path(exclude), "predictions_format": predictions_format,
             "response_field": response_field, "options": dict(options or {})}
    read = _read(benchmark, _path(annotations), _path(predictions), _path(run), knobs, notes,
                 default_benchmark)
    # pruned ids are ids of the whole benchmark: a subset (the debiased one holds none) counts them there
    whole = read.whole_ids if subset and pruned is not None else None
    result = _with_inputs(read.spec, read.result, read.loaded.errors, _ids(read.items), pruned,
                          read.predictions.errors, notes, (whole, subset))
    result = _unmatched(result, read, notes, subset)
    outcome = ScoreOutcome(result, read.spec, read.items, read.data, read.run, list(notes))
    failure = nothing_scored(read.predictions, result, _path(run) or _path(predictions), read.data)
    if failure is not None:
        raise NothingScoredError(f"{failure}; nothing was scored", outcome)
    return outcome


def _unmatched(result: ScoreResult, read: _Read, notes: _Notes, subset: str | None = None) -> ScoreResult:
    """Add the predictions' warnings; note the prediction ids that match no item (flagged ones left out).

    With ``subset``, ids of the full benchmark outside it are expected: one line counts them.
    """
    unmatched = [i for i in result.unmatched_predictions if i not in read.flagged]  # excluded, not unknown
    if unmatched and subset:
        outside = _outside(read, subset, unmatched)
        if outside:
            notes.add(f"{len(outside)} prediction id(s) are for items outside subset {subset} (not scored)")
            unmatched = [i for i in unmatched if i not in outside]
    if unmatched:
        more = " ..." if len(unmatched) > SHOWN_ERRORS else ""
        shown = ", ".join(unmatched[:SHOWN_ERRORS])
        notes.add(f"{len(unmatched)} prediction id(s) match no item: {shown}{more}")
    return replace(result, warnings=[*read.predictions.warnings, *result.warnings],
                   unmatched_predictions=unmatched, filtered_responses=read.predictions.filtered)


def _outside(read: _Read, subset: str, unmatched: Sequence[str]) -> set[str]:
    """Return the ``unmatched`` ids that are items of the whole benchmark (loaded without the subset)."""
    every = read.whole_ids or set()  # the whole set cannot be read: every id stays unmatched
    return {i for i in unmatched if i in every}


def with_inputs(
    spec: BenchmarkSpec, result: ScoreResult, items: LoadedItems, pruned_ids: str | Path | None,
    prediction_errors: Sequence[RowError] = (), notify: Callable[[str], None] | None = None,
) -> ScoreResult:
    """Record the skipped input rows and the pruned-id match count on ``result`` (for scores.json).

    ``items``: the loaded annotations (their bad rows are recorded; their ids matched against the
    pruned ids, read by ``spec.pruned_ids``). The pruning line goes to ``notify``.
    """
    return _with_inputs(spec, result, items.errors, _ids(items), _path(pruned_ids), prediction_errors,
                        _Notes(notify))


def _with_inputs(
    spec: BenchmarkSpec, result: ScoreResult, annotation_errors: Sequence[RowError], scored: Sequence[str],
    pruned_ids: Path | None, prediction_errors: Sequence[RowError], notes: _Notes,
    whole: tuple[set[str] | None, str | None] = (None, None),
) -> ScoreResult:
    """``scored``: the ids scored; ``whole``: the whole benchmark's ids and the subset, with a subset."""
    result = replace(result, skipped_rows=[str(e) for e in [*annotation_errors, *prediction_errors]])
    return _pruning(spec, result, scored, pruned_ids, notes, *whole) if pruned_ids is not None else result


def _pruning(spec: BenchmarkSpec, result: ScoreResult, scored: Sequence[str], pruned_ids: Path,
             notes: _Notes, whole: set[str] | None, subset: str | None) -> ScoreResult:
    """Note how many pruned ids matched (and record it for scores.json); no debiased row when none did."""
    if spec.pruned_ids is None:
        raise ScoreInputError(f"--pruned-ids does not apply to {spec.name} (it has no pruned-id list)")
    ids = spec.pruned_ids(pruned_ids)
    matched = len(ids & (whole if whole is not None else set(scored)))
    line = f"pruned ids: {matched} of {len(ids)} in {pruned_ids} match an item; " + (
        f"debiased: {len(scored) - matched} of {len(scored)} items" if whole is None else
        f"(the whole benchmark: {len(whole)} items; subset {subset}: {len(scored)} scored)")
    warnings = []
    if matched == 0:
        line = (f"none of the {len(ids)} pruned ids in {pruned_ids} matches an item id (id-less annotations "
                "get derived ids <scene>-<12 hex>): the debiased row is not available")
        warnings.append(line)
        result = replace(result, debiased=None)
    elif matched < len(ids):
        warnings.append(line)
    notes.add(("warning: " if warnings else "") + line)
    return replace(result, pruning={"ids": len(ids), "matched": matched},
                   warnings=[*result.warnings, *warnings])
