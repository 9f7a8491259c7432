"""Metrics: exact-match accuracy (MCA) and Mean Relative Accuracy (NA), VSI-Bench Sec. 3.1 Eq. (1).

MRA averages, over the confidence thresholds θ ∈ {0.50, 0.55, …, 0.95}, whether the relative error
``|ŷ − y| / y`` is within ``1 − θ``. Two comparison modes are registered in ``MRA_MODES``:

* ``official`` (default): ``<=``, computed exactly as the official numpy code
  (``np.linspace(.5, .95, 10)``, ``abs(pred - gt) / gt <= 1 - thresholds``), float rounding included
  (1 − 0.8 is 0.19999999999999996 there, so 12 for 10 misses θ = 0.8); the published numbers use it.
* ``paper``: the strict ``<`` the paper's Eq. (1) writes, decided on the numbers as written, not on
  their binary floats: where a float relative error is within ``EXACT_MARGIN`` of a tolerance, the
  comparison is redone exactly, ``|ŷ − y| < (1 − θ)·y`` in fractions of the shortest decimal form of
  each value (``repr``) and exact tolerances 0.50, 0.45, …, 0.05. So 13 for 10, 1.3 for 1.0 and
  130 for 100 (error exactly 0.3) all score 0.4, whatever float rounding does.

The two differ only when the relative error lands exactly on a threshold, e.g. ground truth 2 and
prediction 3 (error 0.5): 0.1 official, 0.0 paper.

A ground truth ≤ 0 or non-finite makes MRA undefined: :func:`ground_truth_error` names the problem,
and the MRA functions return NaN for it (never raise), so a scorer can report it as a data error.
A missing (None) or non-finite prediction earns 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from spatialbench.registry import Registry

# Exactly the official construction: num_pts = (end - start) / interval + 2 -> int(10.999...) = 10.
MRA_THRESHOLDS: NDArray[np.float64] = np.linspace(0.5, 0.95, int((0.95 - 0.5) / 0.05 + 2))
_TOLERANCES = 1 - MRA_THRESHOLDS
EXACT_TOLERANCES = tuple(Fraction(100 - p, 100) for p in range(50, 100, 5))  # 1/2, 9/20, ..., 1/20
EXACT_MARGIN = 1e-9
"""Float relative errors this close to a tolerance are compared exactly in ``paper`` mode."""

Comparison = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.bool_]]
"""``(predictions (n,), ground truths (n,)) -> hits (n, 10)``: which thresholds each prediction meets."""
MRA_MODES: Registry[Comparison] = Registry("MRA mode")


def _relative_error(pred: NDArray[np.float64], gt: NDArray[np.float64]) -> NDArray[np.float64]:
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.abs(pred - gt) / gt


@MRA_MODES.register("official")
def official_hits(pred: NDArray[np.float64], gt: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Official VSI-Bench comparison: float ``relative error <= 1 - θ``, shape (n, 10)."""
    with np.errstate(invalid="ignore"):
        return _relative_error(pred, gt)[:, None] <= _TOLERANCES[None, :]


@MRA_MODES.register("paper")
def paper_hits(pred: NDArray[np.float64], gt: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Paper Eq. (1) comparison ``relative error < 1 - θ``, exact at the boundaries; shape (n, 10)."""
    error = _relative_error(pred, gt)[:, None]
    with np.errstate(invalid="ignore"):
        hits = error < _TOLERANCES[None, :]
        near = np.abs(error - _TOLERANCES[None, :]) <= EXACT_MARGIN
    for row, column in zip(*np.nonzero(near), strict=True):
        p, g = Fraction(repr(float(pred[row]))), Fraction(repr(float(gt[row])))
        hits[row, column] = abs(p - g) < EXACT_TOLERANCES[column] * g
    return hits


def ground_truth_error(ground_truth: object) -> str | None:
    """Why ``ground_truth`` cannot be an MRA ground truth, or None when it can (finite and > 0)."""
    try:
        value = float(ground_truth)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return f"ground truth {ground_truth!r} is not a number"
    if not math.isfinite(value):
        return f"ground truth {ground_truth!r} is not finite"
    if value <= 0:
        return f"ground truth {ground_truth!r} is not positive (MRA divides by it)"
    return None


def mra_array(
    predictions: ArrayLike, ground_truths: ArrayLike, mode: str = "official"
) -> NDArray[np.float64]:
    """MRA per item, vectorised.

    Args:
        predictions: shape (n,), float; NaN marks no answer (scores 0).
        ground_truths: shape (n,), float; must be finite and > 0 for a defined score.
        mode: ``official`` (``<=``, float as the official code) or ``paper`` (``<``, exact at boundaries).

    Returns:
        shape (n,) float64 in {0.0, 0.1, …, 1.0}; NaN where the ground truth is invalid.

    Raises:
        UnknownNameError: unknown ``mode``.
    """
    compare = MRA_MODES.get(mode)
    pred = np.asarray(predictions, dtype=np.float64)
    gt = np.asarray(ground_truths, dtype=np.float64)
    scores = compare(pred, gt).mean(axis=1)
    scores[~(np.isfinite(gt) & (gt > 0))] = np.nan
    return scores


def mean_relative_accuracy(prediction: float | None, ground_truth: float, mode: str = "official") -> float:
    """MRA of one prediction (VSI-Bench Eq. 1); 0 for a None/non-finite prediction, NaN for a bad truth.

    Never raises on any float inputs (an unknown ``mode`` raises UnknownNameError).
    """
    pred = np.nan if prediction is None else prediction
    try:
        return float(mra_array([pred], [ground_truth], mode)[0])
    except (TypeError, ValueError, OverflowError):
        return math.nan


def exact_match(extracted: str | None, ground_truth: str) -> float:
    """Accuracy of one multiple-choice answer: 1.0 on a case-insensitive match, else 0.0 (no answer 0)."""
    if extracted is None:
        return 0.0
    return 1.0 if extracted.lower() == str(ground_truth).strip().lower() else 0.0
