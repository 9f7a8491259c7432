"""The best constant answer of a numerical task: the continuous optimum of mean MRA (VSI-Bench Sec. 4.1).

A constant ``c`` earns threshold ``θ`` on an item of ground truth ``y`` when ``|c − y| / y <= 1 − θ``,
i.e. when ``c`` lies in ``[θ·y, (2 − θ)·y]``; mean MRA is piecewise constant in ``c`` and changes only at
those interval ends, so its maximum over all reals is reached at one of them (for the official ``<=``
rule) or between two neighbouring ends (for the paper's ``<``). Every candidate is counted in one sweep
(``searchsorted``), and the best few are rescored exactly with :func:`~spatialbench.scoring.metrics.mra_array`
so float rounding at an interval end cannot pick a value the scorer would not credit.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from spatialbench.scoring.metrics import MRA_THRESHOLDS, mra_array

_RESCORED = 64


def _candidates(truths: NDArray[np.float64]) -> NDArray[np.float64]:
    """Interval ends and the midpoints between neighbouring ends, sorted, unique."""
    ends = np.unique(np.concatenate([np.outer(truths, MRA_THRESHOLDS), np.outer(truths, 2 - MRA_THRESHOLDS)]))
    return np.unique(np.concatenate([ends, (ends[1:] + ends[:-1]) / 2]))


def continuous_best_constant(truths: NDArray[np.float64], mra: str = "official") -> float:
    """Return the real constant with the highest mean MRA over ``truths`` (ties: the smallest).

    Args:
        truths: shape (n,), ground truths; non-positive or non-finite values are left out.
        mra: ``official`` (``<=``) or ``paper`` (``<``).

    Raises:
        ValueError: no ground truth is a positive finite number.
    """
    valid = truths[np.isfinite(truths) & (truths > 0)]
    if valid.size == 0:
        raise ValueError("no ground truth is a positive number")
    candidates = _candidates(valid)
    low = np.sort(np.outer(valid, MRA_THRESHOLDS).ravel())
    high = np.sort(np.outer(valid, 2 - MRA_THRESHOLDS).ravel())
    # intervals holding each candidate: ends at or below it, less those that closed before it
    approx = np.searchsorted(low, candidates, side="right") - np.searchsorted(high, candidates, side="left")
    best = np.sort(candidates[np.argsort(-approx, kind="stable")[:_RESCORED]])
    means = [float(np.mean(mra_array(np.full(valid.size, c), valid, mra))) for c in best]
    return float(best[int(np.argmax(means))])
