"""Scene-clustered bootstrap: a 95 % interval for every cell of a score table, and paired differences.

Questions about one scene (one video) are not independent: a model that misreads a room misreads many of
its questions. The bootstrap therefore resamples *scenes* (clusters) with replacement, not questions, as
lmms-eval 0.6's ``clustered_stderr`` and Miller (2024), "Adding Error Bars to Evals" (Sec. 2.2, clustered
standard errors) recommend. Each resample is a weight per scene (how often it was drawn: one multinomial
draw of ``C`` scenes out of ``C``), so a table's every cell is recomputed for all resamples at once as
matrix products of the weights with per-scene sums (no per-resample pandas work): 1000 resamples of a
5000-question table cost a few milliseconds per cell.

Each cell is recomputed *as the table computes it* (:mod:`spatialbench.scoring.grouped`): a
question-weighted cell is the weighted mean of its questions; a column-weighted cell the mean of its parts'
means (VSI-Bench Rel. Dir.); the VSI-Bench overall the mean of the task means present, each task mean
resampled with the same scene draws. The interval is the 2.5th–97.5th percentile of the resampled values
(percent). A question without a ``scene_id`` is its own cluster.

Paired differences (:func:`paired`) use the *same* scene draws for both runs over their shared questions.
The p-value inverts the same percentile interval (Efron & Tibshirani 1993, Sec. 15.4: the smallest α whose
``1 − α`` percentile interval reaches 0), ``min(1, 2·(1 + min(#{d* ≤ 0}, #{d* ≥ 0})) / (1 + B))``, so
identical runs get ``p = 1`` and the interval and p-value tell one story. The verdict is one rule
(:attr:`PairedTest.includes_zero`): a difference is *not shown* when its interval includes 0 **or**
``p ≥ 0.05`` (the two can only part at the edge, from the percentile's interpolation and the ``+1``).
Draws are seeded (:data:`SEED`): the same inputs give the same interval, to the bit.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from spatialbench.scoring.grouped import Table
from spatialbench.scoring.row_frame import Labels, positions

RESAMPLES = 1000
SEED = 0
SMALL = 30
"""A cell with fewer questions than this says so: its interval is too rough to rank by."""
FEW_SCENES = 5
"""A cell whose questions come from fewer scenes than this (clusters) is never called significant."""
MIN_SCENES = 2
"""A cell whose questions come from fewer scenes than this has no interval (None, printed ``-``).

Every resample of one cluster draws that cluster: its "interval" is the point, 0 wide, and says nothing
about another scene (issue 23 newcomer check: ``37.1 [37.1, 37.1] n=7`` on a one-scene benchmark)."""
ALPHA = 0.05
"""A difference with ``p ≥ ALPHA`` is not shown (two-sided, the 95 % interval's level)."""
CLUSTER = "scene_id"
Interval = tuple[float, float] | None
V = TypeVar("V")
_PER_TABLE: dict[tuple[str, int], Any] = {}
"""What :func:`_once` computed, by kind and table id (each entry removed when its table goes)."""


def cluster_keys(rows: pd.DataFrame) -> pd.Series:
    """Return the cluster of each row: its ``scene_id``, or ``item:<id>`` when it has none."""
    if CLUSTER not in rows:
        return "item:" + rows["id"].astype(str)
    scenes = rows[CLUSTER]
    text = scenes.astype(str)
    missing = scenes.isna() | (text == "")
    if not missing.any():  # the usual case: no million ``item:<id>`` texts made for nothing
        return text
    return text.where(~missing, "item:" + rows["id"].astype(str))


@dataclass(frozen=True)
class Resampler:
    """Scene draws shared by every table computed with it.

    Attributes:
        clusters: cluster name → column of ``weights``.
        weights: shape ``(1 + B, C)``: row 0 all ones (the point estimate), then how often each of the
            ``C`` clusters was drawn in each of the ``B`` resamples.
    """

    clusters: Mapping[str, int]
    weights: np.ndarray

    @classmethod
    def of(cls, clusters: Iterable[Any], resamples: int = RESAMPLES, seed: int = SEED) -> Resampler:
        """Draw ``resamples`` multinomial resamples of the distinct ``clusters`` (sorted: order-free)."""
        names = sorted({str(c) for c in clusters})
        count = len(names)
        rng = np.random.default_rng(seed)
        draws = (rng.multinomial(count, np.full(count, 1.0 / count), size=resamples).astype(float)
                 if count else np.zeros((resamples, 0)))
        return cls({n: i for i, n in enumerate(names)}, np.vstack([np.ones((1, count)), draws]))

    @classmethod
    def for_rows(cls, *frames: pd.DataFrame, resamples: int = RESAMPLES, seed: int = SEED) -> Resampler:
        """Return a resampler over the clusters of all ``frames``."""
        keys = [k for frame in frames for k in cluster_keys(frame).unique().tolist()]  # not cell by cell
        return cls.of(keys, resamples, seed)


class _Sums:
    """Weighted means of masks of one frame's scores under a :class:`Resampler`."""

    def __init__(self, rows: pd.DataFrame, resampler: Resampler, weight: str | None = None,
                 clusters: Labels | None = None) -> None:
        """``clusters``: the rows' :func:`cluster_keys` as labels, when already made (a table's)."""
        self.counts = rows[weight].to_numpy(dtype=float) if weight else np.ones(len(rows))
        self.scores = rows["score"].to_numpy(dtype=float) * self.counts
        self.codes = (_codes(cluster_keys(rows), resampler.clusters) if clusters is None
                      else clusters.columns_in(resampler.clusters))
        self.weights = resampler.weights

    def mean(self, mask: np.ndarray) -> np.ndarray:
        """Percent, shape ``(1 + B,)``; NaN in a resample that drew none of the masked questions."""
        width = self.weights.shape[1]
        codes = self.codes[mask]
        return self._percent(np.bincount(codes, weights=self.scores[mask], minlength=width),
                             np.bincount(codes, weights=self.counts[mask], minlength=width))

    def means_by(self, labels: Labels) -> dict[str, np.ndarray]:
        """Return ``{name: mean(labels(name))}`` for every name of ``labels``, in one pass over the rows.

        Each (label, cluster) sum adds its rows in row order, as :meth:`mean` does: the same bits.
        """
        shape = (len(labels.names), self.weights.shape[1])  # explicit: a resampler of no cluster has width 0
        kept = labels.codes >= 0  # a row without a label (NaN) is in no label's mean
        cells = (labels.codes * shape[1] + self.codes)[kept]
        totals = np.bincount(cells, weights=self.scores[kept], minlength=shape[0] * shape[1]).reshape(shape)
        counts = np.bincount(cells, weights=self.counts[kept], minlength=shape[0] * shape[1]).reshape(shape)
        return {name: self._percent(totals[k], counts[k]) for k, name in enumerate(labels.names.tolist())}

    def _percent(self, totals: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Resampled ``100 · Σ scores / Σ counts`` of per-cluster sums (NaN where a resample has none)."""
        total, count = self.weights @ totals, self.weights @ counts
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, 100.0 * total / count, np.nan)

    def scenes(self, mask: np.ndarray) -> int:
        """Return how many distinct clusters the masked questions come from."""
        return len(np.unique(self.codes[mask]))


def _codes(keys: pd.Series, clusters: Mapping[str, int]) -> np.ndarray:
    """Return the column of ``clusters`` of each key, in one hashed look-up (KeyError for an unknown one)."""
    found = positions(keys, list(clusters))
    if (found < 0).any():
        raise KeyError(keys[found < 0].iloc[0])
    return np.asarray(list(clusters.values()), dtype=np.int64)[found]


def _nanmean(stack: list[np.ndarray]) -> np.ndarray:
    values = np.vstack(stack)
    present = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(present.any(axis=0), np.nansum(values, axis=0) / present.sum(axis=0), np.nan)


def table_draws(table: Table, resampler: Resampler) -> dict[str, np.ndarray | None]:
    """Resampled values of every key of ``table``'s JSON (``overall``, cells, tasks), shape ``(1 + B,)``.

    Resamples the rows the table was computed from (``table.source``, as made by
    :func:`~spatialbench.scoring.grouped.grouped`). Row 0 of each array is the table's own value; None for
    a key without questions. Raises ValueError for a table made without its rows.
    """
    if table.source is None:
        raise ValueError(f"table {table.title!r} keeps no rows to resample")
    scored = table.source.reset_index(drop=True)
    is_task, clusters = _row_labels(table)
    sums = _Sums(scored, resampler, table.weight, clusters)
    by_label = sums.means_by(is_task)
    # a task without rows here (an inner table of _seeded_ci keeps its table's task_scores): NaN draws
    tasks = {t: by_label[t] if t in by_label else sums.mean(is_task(t)) for t in table.task_scores}
    draws: dict[str, np.ndarray | None] = {}
    covered = np.zeros(len(scored), dtype=bool)
    group_of = {g.key: (g, mask) for g, mask in zip(table.groups, table.group_masks, strict=True)}
    # a cell no group makes (a breakdown's Avg., keyed ``overall``) is resampled as the table's overall
    for (group, mask), cell in ((group_of[c.key], c) for c in table.cells if c.key in group_of):
        covered |= mask
        if cell.accuracy is None:
            draws[cell.key] = None
        elif table.weighting == "columns":
            parts = is_task.sorted_in(mask)
            only_by = group.only_by(table.by)
            draws[cell.key] = _nanmean([tasks[p] if only_by else sums.mean(mask & is_task(p)) for p in parts])
        else:
            draws[cell.key] = sums.mean(mask)
    present = [d for d in draws.values() if d is not None]
    if table.average is None:
        overall = None
    else:
        overall = _nanmean(present) if table.weighting == "columns" else sums.mean(covered)
    out: dict[str, np.ndarray | None] = {"overall": overall, **draws}
    for cell in table.cells:
        for task in cell.parts:
            out.setdefault(str(task), tasks.get(str(task)))
    for task in table.other_tasks:
        out[task] = tasks[task]
    return out


def table_clusters(table: Table) -> dict[str, tuple[int, int]]:
    """Return ``{key: (questions, scenes)}`` for every key of ``table``'s JSON with questions.

    ``scenes`` counts the distinct clusters (:func:`cluster_keys`) the key's interval is drawn from;
    ``overall`` covers every row. Raises ValueError for a table made without its rows.
    """
    return dict(_once("clusters", table, _table_clusters))


def _once(kind: str, table: Table, compute: Callable[[Table], V]) -> V:
    """Return ``compute(table)``, computed once per table object while it lives.

    A table is frozen and so are its rows; the report, ``scores.json`` and ``scores.md`` each ask for the
    same intervals (a million rows: ~0.3 s a time).
    """
    key = (kind, id(table))
    if key not in _PER_TABLE:
        _PER_TABLE[key] = compute(table)
        weakref.finalize(table, _PER_TABLE.pop, key, None)  # the id may be reused by a later table
    found: V = _PER_TABLE[key]
    return found


def _table_clusters(table: Table) -> dict[str, tuple[int, int]]:
    if table.source is None:
        raise ValueError(f"table {table.title!r} keeps no rows to resample")
    mask_of = {g.key: mask for g, mask in zip(table.groups, table.group_masks, strict=True)}
    masks = {c.key: mask_of[c.key] for c in table.cells if c.key in mask_of}
    is_task, scenes = _row_labels(table)
    masks.update({t: is_task(t) for t in {*table.task_scores, *table.other_tasks}})
    masks["overall"] = np.ones(len(table.source), dtype=bool)
    return {k: (int(m.sum()), scenes.count_in(m)) for k, m in masks.items() if m.any()}


def _row_labels(table: Table) -> tuple[Labels, Labels]:
    """Return the labels of the rows' grouping key (``table.by``) and clusters, made once per table.

    The draws and the cluster counts both read them (a million rows: ~20 ms a factorization).
    """
    return _once("labels", table, _make_labels)


def _make_labels(table: Table) -> tuple[Labels, Labels]:
    assert table.source is not None  # checked by the callers, which say which table keeps no rows
    scored = table.source.reset_index(drop=True)
    if not len(scored):
        return Labels(np.array([], dtype=str)), Labels(np.array([], dtype=str))
    return Labels(scored[table.by].astype(str)), Labels(cluster_keys(scored))


def too_few(questions: int, scenes: int) -> bool:
    """Say whether a cell is too small to call a difference significant (issue 21).

    Under :data:`SMALL` questions or under :data:`FEW_SCENES` scenes: a bootstrap over 2 clusters has only
    3 distinct resamples, so its interval and p-value mean little.
    """
    return questions < SMALL or scenes < FEW_SCENES


def from_scenes(scenes: int | None) -> str:
    """Return ``" from K scenes"`` for an interval drawn from under :data:`FEW_SCENES` scenes, else ``""``."""
    if scenes is None or scenes >= FEW_SCENES:
        return ""
    return f" from {scenes} scene{'' if scenes == 1 else 's'}"


def interval_text(ci: Interval, n: int, scenes: int | None = None) -> str:
    """Return ``[low, high] n=N`` (one decimal), or ``- n=N``, ``- n=N (1 scene)`` under :data:`MIN_SCENES`.

    ``scenes``: the distinct scenes of the cell's questions, None when unknown.
    """
    if ci is not None:
        return f"[{ci[0]:.1f}, {ci[1]:.1f}] n={n}"
    few = scenes is not None and 0 < scenes < MIN_SCENES
    return f"- n={n}" + (f" ({scenes} scene)" if few else "")


def interval(draws: np.ndarray | None, scenes: int) -> Interval:
    """Return the 95 % interval of the resamples (row 0, the estimate, left out).

    ``scenes``: how many clusters the questions behind ``draws`` come from. None when there are no
    resamples or fewer than :data:`MIN_SCENES` scenes (every consumer's intervals come from here).
    """
    if draws is None or scenes < MIN_SCENES:
        return None
    values = draws[1:][~np.isnan(draws[1:])]
    if not len(values):
        return None
    low, high = np.percentile(values, [2.5, 97.5])
    return (round(float(low), 4), round(float(high), 4))


def table_ci(table: Table, resampler: Resampler | None = None) -> dict[str, Interval]:
    """Return ``{key: (low, high)}`` (percent) for every key of ``table``'s JSON.

    Without ``resampler``, a seeded one over the table's own rows (computed once per table).
    """
    if resampler is None:
        return dict(_once("ci", table, _seeded_ci))
    return _intervals(table, resampler)


def _intervals(table: Table, resampler: Resampler) -> dict[str, Interval]:
    """Each key's interval, None for a key whose questions come from under :data:`MIN_SCENES` scenes."""
    scenes = table_clusters(table) if table.source is not None else {}
    return {key: interval(d, scenes.get(key, (0, 0))[1]) for key, d in table_draws(table, resampler).items()}


def _seeded_ci(table: Table) -> dict[str, Interval]:
    """Intervals over the table's own scenes; its groups' keys over the scenes of their questions alone.

    A task no group names (MindCube's translation, tracked outside the overall) must not add its scenes
    to the overall's resamples: the interval would then be over other questions than the point.
    """
    if table.source is None:
        return _intervals(table, Resampler.of([]))
    scored = table.source.reset_index(drop=True)
    out = _intervals(table, Resampler.of(_row_labels(table)[1].names.tolist()))  # the clusters of its rows
    covered = np.zeros(len(scored), dtype=bool)
    for mask in table.group_masks:
        covered |= mask
    if covered.all() or not covered.any():
        return out
    inner = replace(table, source=scored[covered], other_tasks=())
    outside = set(table.other_tasks)
    out.update({key: ci for key, ci in _intervals(inner, Resampler.for_rows(inner.source)).items()
                if key not in outside})
    return out


def cells_ci(table: Table) -> tuple[Interval, ...]:
    """Return the 95 % interval of each of ``table.cells``, in order (a cell keyed ``overall``: Avg.'s).

    Seeded over the table's own rows (:func:`table_ci`): the same table gives the same intervals.
    """
    ci = table_ci(table)
    return tuple(ci.get(c.key) for c in table.cells)


def masked_mean(rows: pd.DataFrame, mask: np.ndarray, resampler: Resampler | None = None
                ) -> tuple[float | None, Interval]:
    """Mean ``score`` of the ``mask`` rows (percent) and its 95 % interval; ``(None, None)`` when none.

    ``rows``: ``id``, ``score`` in [0, 1] (``scene_id`` clusters, as everywhere here); ``mask``: bool,
    shape ``(len(rows),)``. Without ``resampler``, a seeded one over ``rows``' clusters.
    """
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return None, None
    frame = rows.reset_index(drop=True)
    sums = _Sums(frame, resampler or Resampler.for_rows(frame))
    draws = sums.mean(mask)
    return float(draws[0]), interval(draws, sums.scenes(mask))


def small_cells(table: Table, threshold: int = SMALL) -> list[tuple[str, int]]:
    """``(label, n)`` of the cells with questions but fewer than ``threshold`` of them."""
    return [(c.group, c.n) for c in table.cells if 0 < c.n < threshold]


@dataclass(frozen=True)
class PairedTest:
    """A difference with its paired interval: ``delta`` (percent points), ``ci95``, ``p_value``, ``se``."""

    delta: float
    ci95: tuple[float, float]
    p_value: float
    se: float

    @property
    def includes_zero(self) -> bool:
        """True when the difference is not shown: its 95 % interval includes 0 or ``p ≥ 0.05``."""
        return self.ci95[0] <= 0.0 <= self.ci95[1] or self.p_value >= ALPHA


def paired(difference: np.ndarray) -> PairedTest | None:
    """Test resampled differences (row 0 the observed one; from one resampler for both runs).

    Returns None when no resample has a value. p-value and interval: module docstring.
    """
    observed, rest = float(difference[0]), difference[1:][~np.isnan(difference[1:])]
    if np.isnan(observed) or not len(rest):
        return None
    low, high = np.percentile(rest, [2.5, 97.5])
    tail = min(int((rest <= 0.0).sum()), int((rest >= 0.0).sum()))
    p_value = min(1.0, 2.0 * (1 + tail) / (1 + len(rest)))
    return PairedTest(observed, (round(float(low), 4), round(float(high), 4)), round(p_value, 4),
                      float(rest.std(ddof=1)) if len(rest) > 1 else 0.0)


def minimum_detectable(se: float, power: float = 0.8, alpha: float = 0.05) -> float:
    """Return the smallest true difference a two-sided test at ``alpha`` detects with ``power``.

    ``(z₁₋α/₂ + z_power)·SE``.

    Miller (2024), Sec. 5 (power analysis); ``se`` in percent points, so is the result (≈ 2.80·SE).
    """
    from scipy.stats import norm  # here: importing scipy.stats costs every score command ~0.5 s of CPU

    return float((norm.ppf(1 - alpha / 2) + norm.ppf(power)) * se)
