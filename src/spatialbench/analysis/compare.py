"""Compare scored runs: one row per run and rows of their differences (``spatialbench compare``).

Differences, per table column (the benchmark's own table, re-aggregated from each run's ``items.csv``):

- **Enabled − Disabled**: a vision run minus a blind run (VSI-Bench App. C.4, Fig. 13, Table 13); each
  vision run is paired with the blind run whose settings differ least from it; with two or more pairs a
  mean row follows (Fig. 13 averages six models; a column's mean is over the rows that have it);
- **Disabled − Chance**: a blind run minus the chance baseline, Chance Level (frequency) when a
  ``chance-frequency`` run is given, else ``chance-random`` (Fig. 13 uses frequency);
- **R − REF** for every other run R with ``against=REF``: a strategy against ``direct`` (Fig. 9), video
  first against question first or 1× against 2× video (App. D, Table 7), a frame-count sweep (App. C.3).

Runs that differ in more than the compared setting are *flagged* with every other differing setting, and
so are runs scored on different items. A setting is a configuration key such as ``media.frames`` or
``prompt.order`` (``strategy`` counts as one setting with its parameters); keys that do not change
answers (``out``, concurrency, timeout, attempts, retry delay, frame cache) are never compared, nor the
media settings of a blind run (it sends no media) or the model, media, prompt and strategy of a chance
baseline.
``subset="tiny"`` scores every run on the items of a subset of fixed ids the benchmark declares only
(``BenchmarkSpec.subsets``: VSI-Bench (tiny)); ids a run lacks are noted;
``relative=True`` gives differences in percent of the subtracted run's score, labelled "% of baseline"
(Fig. 9 plots "relative improvements"; the paper does not say whether relative to the score or in points,
so both are offered). Every difference carries its paired 95 % interval and p-value
(:mod:`spatialbench.analysis.compare_stats`); a mean row that includes a pair of two different models (a
vision run paired with another model's blind run) is flagged too.

Registered as the ``compare`` analysis (:data:`ANALYSIS`: the first run, ``others=`` the rest); its
document is ``compare.json`` (``analysis`` ``compare``, ``schema`` ``spatialbench.compare``, ``version``
1), rendered by :mod:`spatialbench.analysis.compare_render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from spatialbench.analysis import compare_render, compare_stats
from spatialbench.analysis.compare_checks import check_runs, chosen_subset, subset_ids
from spatialbench.analysis.item_sets import folder_items, item_notes
from spatialbench.analysis.registry import Analysis, AnalysisDocument, DrawnFigure
from spatialbench.analysis.stored import settings, shown_setting
from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.spec import Subset
from spatialbench.runs.folder import RunFolder, open_run
from spatialbench.runs.keys import model_identity
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.render import Grid

NAME = "compare"
SCHEMA = "spatialbench.compare"
VERSION = 1
IGNORED = frozenset({"out", "model.concurrency", "model.timeout_s", "model.max_attempts",
                     "model.retry_base_delay_s", "media.frame_cache_mb"})
NOT_COMPARED = {"vision": (), "blind": ("media",), "chance": ("media", "prompt", "model", "strategy")}
WHOLE_SETTINGS = ("strategy",)  # compared as one setting with all its parameters


@dataclass(frozen=True)
class Column:
    """A table column: ``key`` in JSON (``overall`` = Avg.), ``label`` as printed."""

    key: str
    label: str


@dataclass(frozen=True)
class RunRow:
    """One run's scores (percent; None for an empty column) and what it is."""

    name: str
    role: str
    model: str
    n_items: int
    scores: dict[str, float | None]
    subset_missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Difference:
    """``minuend − subtrahend`` per column.

    Attributes:
        kind: ``enabled-disabled``, ``disabled-chance``, ``against``, or ``<kind>-mean`` (the mean of a
            kind's rows; ``minuend`` and ``subtrahend`` empty). label: the printed row name.
        compared: the setting(s) the difference is about.
        other: further settings that differ, ``(key, minuend value, subtrahend value)``.
        items_only: items scored only in the minuend, only in the subtrahend.
        ci95, p_value, includes_zero, minimum_detectable: the paired scene-clustered bootstrap per column
            (:mod:`~spatialbench.analysis.compare_stats`); too_few, n, scenes: the columns too small to
            call significant, and each column's shared questions and scenes. other_models: a mean row's
            rows whose two runs are of different models (a vision run paired with another model's blind
            run), marked.
    """

    kind: str
    label: str
    minuend: str
    subtrahend: str
    compared: tuple[str, ...]
    other: tuple[tuple[str, Any, Any], ...]
    items_only: tuple[int, int]
    scores: dict[str, float | None]
    ci95: dict[str, list[float] | None] = field(default_factory=dict)
    p_value: dict[str, float | None] = field(default_factory=dict)
    includes_zero: tuple[str, ...] = ()
    minimum_detectable: float | None = None
    too_few: tuple[str, ...] = ()
    n: dict[str, int] = field(default_factory=dict)
    scenes: dict[str, int] = field(default_factory=dict)
    other_models: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        """Return True when the runs differ in more than the compared setting or items (mean row: models)."""
        return bool(self.other) or any(self.items_only) or bool(self.other_models)


@dataclass(frozen=True)
class Comparison:
    """The comparison table: columns, one row per run, the differences and notes (one line each)."""

    benchmark: str
    subset: str | None
    columns: tuple[Column, ...]
    runs: tuple[RunRow, ...]
    differences: tuple[Difference, ...]
    notes: tuple[str, ...]
    relative: bool = False

    def to_json(self) -> dict[str, Any]:
        """Return the versioned JSON document (``analysis`` ``compare``, also ``schema``)."""
        differences = [
            {
                **asdict(d),
                "flagged": d.flagged,
                "other": [{"setting": k, "minuend": a, "subtrahend": b} for k, a, b in d.other],
            }
            for d in self.differences
        ]
        return {
            "analysis": NAME,
            "version": VERSION,
            "schema": SCHEMA,
            "benchmark": self.benchmark,
            "subset": self.subset,
            "relative": self.relative,
            "columns": [asdict(c) for c in self.columns],
            "runs": [asdict(r) for r in self.runs],
            "differences": differences,
            "notes": list(self.notes),
        }


def _selected_rows(run: RunFolder, subset: Subset | None) -> tuple[Any, tuple[str, ...]]:
    scored = run.rows[run.rows["score"].notna()]
    if subset is None:
        return scored, ()
    wanted = subset_ids(run, subset)
    kept = scored[scored["id"].isin(set(wanted))]
    present = set(kept["id"])
    return kept, tuple(i for i in wanted if i not in present)


def _scores(table: Table) -> dict[str, float | None]:
    return {"overall": table.average, **{c.key: c.accuracy for c in table.cells}}


def _setting(key: str) -> str:
    parts = key.split(".")
    return parts[0] if parts[0] in WHOLE_SETTINGS else ".".join(parts[:2])


def differing(a: RunFolder, b: RunFolder) -> list[tuple[str, Any, Any]]:
    """Return the settings that differ between two runs, ``(key, a's value, b's value)``, sorted by key.

    Keys in :data:`IGNORED` and those :data:`NOT_COMPARED` for either run's role are left out. Model names
    are compared as the served model (:func:`~spatialbench.runs.keys.model_identity`): the same model behind
    another URL or port (``http://127.0.0.1:8001/v1#m`` vs ``:8002``) is the same model.
    """
    skip = IGNORED | set(NOT_COMPARED[a.role]) | set(NOT_COMPARED[b.role])
    left, right = settings(a.raw_config, frozenset(skip)), settings(b.raw_config, frozenset(skip))
    keys = sorted(set(left) | set(right))
    return [(k, left.get(k), right.get(k)) for k in keys if not _same(k, left.get(k), right.get(k))]


def _same(key: str, a: Any, b: Any) -> bool:
    if key == "model.name" and isinstance(a, str) and isinstance(b, str):
        return model_identity(a) == model_identity(b)  # the served model; its endpoint's port is no setting
    return bool(a == b)


def _difference(
    kind: str,
    label: str,
    a: RunFolder,
    b: RunFolder,
    compared: Sequence[str],
    scores: dict[str, dict[str, float | None]],
    ids: dict[str, set[str]],
) -> Difference:
    diffs = differing(a, b)
    if not compared:  # --against: the compared setting is whatever differs, when it is one setting
        groups = {_setting(k) for k, _, _ in diffs}
        compared = sorted(groups) if len(groups) == 1 else []
    other = tuple(d for d in diffs if _setting(d[0]) not in compared)
    values = {k: _minus(v, scores[b.name].get(k)) for k, v in scores[a.name].items()}
    only = (len(ids[a.name] - ids[b.name]), len(ids[b.name] - ids[a.name]))
    return Difference(kind, label, a.name, b.name, tuple(compared), other, only, values)


def _relative(diff: Difference, base: dict[str, float | None]) -> Difference:
    def percent(key: str, value: float | None) -> float | None:
        reference = base.get(key)
        return None if value is None or not reference else 100.0 * value / reference

    return replace(diff, scores={k: percent(k, v) for k, v in diff.scores.items()})


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _closest(run: RunFolder, candidates: Sequence[RunFolder]) -> RunFolder:
    return min(candidates, key=lambda c: len(differing(run, c)))  # ties: the first given


Pair = tuple[str, str, RunFolder, RunFolder, tuple[str, ...]]


def _auto_pairs(runs: Sequence[RunFolder]) -> list[Pair]:
    vision = [r for r in runs if r.role == "vision"]
    blind = [r for r in runs if r.role == "blind"]
    chance = sorted((r for r in runs if r.role == "chance"), key=lambda r: "frequency" not in r.model)
    pairs: list[Pair] = []
    if blind:
        for run in vision:
            other = _closest(run, blind)
            label = f"Enabled−Disabled ({run.name} − {other.name})"
            pairs.append(("enabled-disabled", label, run, other, ("prompt.blind",)))
    if chance:
        for run in blind:
            label = f"Disabled−Chance ({run.name} − {chance[0].name})"
            pairs.append(("disabled-chance", label, run, chance[0], ("model.name",)))
    return pairs


def _means(differences: Sequence[Difference]) -> list[Difference]:
    """Return a mean row per automatic kind with two or more rows (Fig. 13 averages six models)."""
    means = []
    for kind, title in (("enabled-disabled", "Enabled−Disabled"), ("disabled-chance", "Disabled−Chance")):
        rows = [d for d in differences if d.kind == kind]
        if len(rows) < 2:
            continue
        values: dict[str, float | None] = {}
        for key in rows[0].scores:
            present = [v for d in rows if (v := d.scores.get(key)) is not None]
            values[key] = sum(present) / len(present) if present else None
        mixed = tuple(d.label for d in rows if any(k == "model.name" for k, _, _ in d.other))
        means.append(Difference(f"{kind}-mean", f"{title} (mean of {len(rows)})", "", "", rows[0].compared,
                                (), (0, 0), values, other_models=mixed))
    return means


def _notes(differences: Sequence[Difference], rows: Sequence[RunRow], subset: Subset | None) -> list[str]:
    notes = []
    for diff in differences:
        if not diff.flagged:
            continue
        parts = [f"{k} ({shown_setting(a)} vs {shown_setting(b)})" for k, a, b in diff.other]
        if any(shown_setting(v) != repr(v) for _, *values in diff.other for v in values):
            parts.append("full lists in each run's config.json")
        if any(diff.items_only):
            parts.append(
                f"items: {diff.items_only[0]} only in {diff.minuend}, "
                f"{diff.items_only[1]} only in {diff.subtrahend}"
            )
        if diff.other_models:
            mixed = "; ".join(diff.other_models)
            notes.append(f"* {diff.label}: includes rows of two different models: {mixed}")
            continue
        compared = ", ".join(diff.compared) or "one setting"
        notes.append(f"* {diff.label}: differs in more than {compared}: {'; '.join(parts)}")
    for row in rows:
        if subset and row.subset_missing:
            shown = ", ".join(row.subset_missing[:10]) + (" ..." if len(row.subset_missing) > 10 else "")
            count = len(row.subset_missing)
            notes.append(f"{row.name}: {count} {subset.title} ids not scored: {shown}")
    return notes


def compare_runs(
    runs: Sequence[RunFolder], against: str | None = None, subset: str | None = None, relative: bool = False
) -> Comparison:
    """Compare runs of one benchmark (rules in the module docstring).

    Args:
        runs: scored runs, each with a unique ``name``.
        against: name of the reference run: every other run minus it; None: the automatic
            Enabled−Disabled and Disabled−Chance rows.
        subset: the name of a subset the benchmark declares (``"tiny"``, BLINK's ``"spatial"``): every
            run is scored on its items of the subset only (:func:`~.compare_checks.subset_ids`).
        relative: differences in percent of the subtracted run's score (Fig. 9 "relative improvements");
            None where that score is 0 or missing.

    Raises:
        CompareError: no run, runs of different benchmarks, duplicate names, unknown ``against`` or
            subset. UnknownNameError: the runs' benchmark is not registered.
    """
    benchmark = check_runs(runs, against)
    spec = get_benchmark(benchmark)
    chosen = chosen_subset(spec, subset)
    scores: dict[str, dict[str, float | None]] = {}
    ids: dict[str, set[str]] = {}
    selection: dict[str, Any] = {}
    rows: list[RunRow] = []
    columns: tuple[Column, ...] = ()
    for run in runs:
        selected, missing = _selected_rows(run, chosen)
        selection[run.name] = selected
        table = spec.scoring.table(selected)
        columns = columns or (Column("overall", "Avg."), *(Column(c.key, c.group) for c in table.cells))
        scores[run.name], ids[run.name] = _scores(table), set(selected["id"])
        rows.append(RunRow(run.name, run.role, run.model, len(selected), scores[run.name], missing))
    if against is not None:
        ref = next(r for r in runs if r.name == against)
        pairs: list[Pair] = [("against", f"{r.name} − {ref.name}", r, ref, ()) for r in runs if r is not ref]
    else:
        pairs = _auto_pairs(runs)
    differences = [_difference(kind, label, a, b, done, scores, ids) for kind, label, a, b, done in pairs]
    if relative:
        differences = [_relative(d, scores[d.subtrahend]) for d in differences]
    differences += _means(differences)
    differences = compare_stats.with_intervals(differences, selection, spec.scoring.table, relative)
    notes = (*_notes(differences, rows, chosen), *item_notes([folder_items(r) for r in runs]))
    return Comparison(benchmark, subset, tuple(columns), tuple(rows), tuple(differences), notes, relative)


class CompareParams(BaseModel):
    """Parameters of ``compare`` (rules in the module docstring).

    ``others``: the runs compared with the first, labelled ``labels`` (default: their folder names);
    ``against``: the reference run's name; ``subset``, ``relative``: see :func:`compare_runs`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    others: tuple[Path, ...] = ()
    labels: tuple[str, ...] = ()
    against: str | None = None
    subset: str | None = None
    relative: bool = False


class CompareAnalysis(Analysis):
    """``compare``: the run, the ``others`` and their differences (module docstring)."""

    name: ClassVar[str] = NAME
    description: ClassVar[str] = "runs side by side and their differences (Enabled−Disabled, R − REF)"
    title: ClassVar[str] = "Comparison of runs"
    version: ClassVar[int] = VERSION
    Params: ClassVar[type[BaseModel]] = CompareParams

    def compute(self, run: RunFolder, params: BaseModel) -> AnalysisDocument:
        """Compare ``run`` with ``params.others`` (each opened as a scored run).

        Raises:
            RunFolderError: another run folder that is not a scored run. CompareError, UnknownNameError:
                see :func:`compare_runs`; ValueError: ``labels`` not one per other run.
        """
        assert isinstance(params, CompareParams)
        if params.labels and len(params.labels) != len(params.others):
            raise ValueError(f"{len(params.labels)} labels for {len(params.others)} other runs")
        labels = params.labels or (None,) * len(params.others)
        runs = [run, *(open_run(p, n, scored=True) for p, n in zip(params.others, labels, strict=True))]
        comparison = compare_runs(runs, params.against, params.subset, params.relative)
        return AnalysisDocument.model_validate(comparison.to_json())

    def tables(self, doc: dict[str, Any]) -> list[Grid]:
        """Return the runs and their differences (values; flagged rows end in `` *``; ``†`` explained).

        Then each difference's intervals, p-values, n and detectable difference, and the mean rows sorted.
        """
        title = f"Runs and differences ({compare_render.LEGEND})" if doc["differences"] else "Runs"
        grids = [replace(compare_render.display_grid(doc), title=title)]
        if doc["differences"]:
            grids.append(compare_render.interval_grid(doc))
        return [*grids, *compare_render.mean_grids(doc)]

    def figures(self, doc: dict[str, Any], folder: Path) -> list[DrawnFigure]:
        """Bars of the difference rows per column (Fig. 13 / Fig. 9)."""
        return compare_render.difference_bars(doc, folder)


ANALYSIS = CompareAnalysis()
