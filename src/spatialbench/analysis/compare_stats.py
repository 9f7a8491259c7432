"""Paired intervals and p-values for the differences of ``compare`` (issue 21, "Uncertainty").

Each difference row ``A − B`` is resampled over the questions both runs scored, with the *same* scene draws
for both (a paired, scene-clustered bootstrap: :mod:`spatialbench.scoring.uncertainty`); each column gets
``ci95`` ``[low, high]`` (percent points, or percent of the baseline with ``relative``), a two-sided
``p_value`` and, on Avg., the minimum difference detectable at 80 % power (α = 0.05) for this benchmark size
(:func:`~spatialbench.scoring.uncertainty.minimum_detectable` of the paired standard error). A column that
is not shown (its interval includes 0 or ``p ≥ 0.05``: one rule,
:attr:`~spatialbench.scoring.uncertainty.PairedTest.includes_zero`) is listed in ``includes_zero``. A column
of fewer than 30 shared questions or from fewer than 5 scenes is listed in ``too_few`` and never called
significant, whatever its p-value (``n`` and ``scenes`` give its sizes). A mean row (Fig. 13 averages) is
resampled as it is computed: the mean of its rows' resampled differences. The delta printed stays the one of
each run on its own items; when the two runs scored different items the interval is over the shared ones
(the row is flagged for its items already).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.scoring.grouped import Table
from spatialbench.scoring.uncertainty import (
    Resampler,
    minimum_detectable,
    paired,
    table_clusters,
    table_draws,
    too_few,
)

Draws = dict[str, np.ndarray | None]
Sizes = dict[str, tuple[int, int]]


def _difference_draws(a: Draws, b: Draws, relative: bool) -> Draws:
    out: Draws = {}
    for key, left in a.items():
        right = b.get(key)
        if left is None or right is None:
            out[key] = None
        elif relative:
            with np.errstate(invalid="ignore", divide="ignore"):
                out[key] = np.where(right != 0, 100.0 * (left - right) / right, np.nan)
        else:
            out[key] = left - right
    return out


def _pair_draws(a: pd.DataFrame, b: pd.DataFrame, table: Callable[[pd.DataFrame], Table],
                resampler: Resampler, relative: bool) -> tuple[Draws, Sizes]:
    shared = set(a["id"]) & set(b["id"])
    left, right = (table(f[f["id"].isin(shared)]) for f in (a, b))
    draws = _difference_draws(table_draws(left, resampler), table_draws(right, resampler), relative)
    return draws, table_clusters(left)


def _mean_sizes(rows: Sequence[Sizes]) -> Sizes:
    """Give a mean row's key the fewest questions and scenes of its rows (never more certain than them)."""
    keys = {k for r in rows for k in r}
    return {k: (min(r[k][0] for r in rows if k in r), min(r[k][1] for r in rows if k in r)) for k in keys}


def _mean_draws(rows: Sequence[Draws]) -> Draws:
    keys = rows[0] if rows else {}
    out: Draws = {}
    for key in keys:
        present = [d for r in rows if (d := r.get(key)) is not None]
        if not present:
            out[key] = None
            continue
        stack = np.vstack(present)
        counts = (~np.isnan(stack)).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[key] = np.where(counts > 0, np.nansum(stack, axis=0) / counts, np.nan)
    return out


def _stats(draws: Draws, sizes: Sizes) -> dict[str, Any]:
    ci95: dict[str, list[float] | None] = {}
    p_value: dict[str, float | None] = {}
    mdd = None
    tests = {key: paired(values) if values is not None else None for key, values in draws.items()}
    for key, test in tests.items():
        ci95[key] = list(test.ci95) if test else None
        p_value[key] = test.p_value if test else None
        if key == "overall" and test:
            mdd = round(minimum_detectable(test.se), 4)
    zero = tuple(k for k, t in tests.items() if t is not None and t.includes_zero)
    few = tuple(k for k in ci95 if k in sizes and too_few(*sizes[k]))
    return {"ci95": ci95, "p_value": p_value, "includes_zero": zero, "minimum_detectable": mdd,
            "too_few": few, "n": {k: v[0] for k, v in sizes.items()},
            "scenes": {k: v[1] for k, v in sizes.items()}}


def with_intervals(differences: Sequence[Any], selected: Mapping[str, pd.DataFrame],
                   table: Callable[[pd.DataFrame], Table], relative: bool) -> list[Any]:
    """Return ``differences`` (``compare.Difference``) with their intervals and p-values set.

    Sets ``ci95``, ``p_value``, ``includes_zero``, ``minimum_detectable``, ``n``, ``scenes`` (the shared
    questions and scenes per column) and ``too_few`` (columns of too few questions or scenes,
    :func:`~spatialbench.scoring.uncertainty.too_few`: never called significant; module docstring).
    ``selected``: each run's scored rows as compared (by run name); ``table``: the benchmark's table.
    """
    resampler = Resampler.for_rows(*selected.values())
    draws: dict[int, Draws] = {}
    sizes: dict[int, Sizes] = {}
    for index, diff in enumerate(differences):
        if diff.minuend and diff.subtrahend:
            draws[index], sizes[index] = _pair_draws(selected[diff.minuend], selected[diff.subtrahend], table,
                                                     resampler, relative)
        else:  # a mean row: the mean of its kind's rows, resample by resample
            kind = diff.kind.removesuffix("-mean")
            rows = [i for i, d in enumerate(differences) if d.kind == kind]
            draws[index] = _mean_draws([draws[i] for i in rows])
            sizes[index] = _mean_sizes([sizes[i] for i in rows])
    return [replace(d, **_stats(draws[i], sizes[i])) for i, d in enumerate(differences)]
