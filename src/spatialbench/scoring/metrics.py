"""Metrics: exact-match accuracy (MCA) and Mean Relative Accuracy (NA), VSI-Bench Sec. 3.1 Eq. (1).

MRA averages, over the confidence thresholds θ ∈ {0.50, 0.55, …, 0.95}, whether the relative error
``|ŷ − y| / y`` is within ``1 − θ``. Two comparison modes are registered in ``MRA_MODES``:

* ``official`` (default): ``<=``, computed exactly as the official numpy code
  (``np.linspace(.5, .95, 10)``, ``abs(pred - gt) / gt <= 1 - thresholds``); the published numbers use it.
* ``paper``: the strict ``<`` the paper's Eq. (1) writes.

The two differ only when the relative error lands exactly on a threshold, e.g. ground truth 2 and
prediction 3 (error 0.5): 0.1 official, 0.0 paper.

A ground truth ≤ 0 or non-finite makes MRA undefined: :func:`ground_truth_error` names the problem,
and the MRA functions return NaN for it (never raise), so a scorer can report it as a data error.
A missing (None) or non-finite prediction earns 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from spatialbench.registry import Registry

# Exactly the official construction: num_pts = (end - start) / interval + 2 -> int(10.999...) = 10.
MRA_THRESHOLDS: NDArray[np.float64] = np.linspace(0.5, 0.95, int((0.95 - 0.5) / 0.05 + 2))
_TOLERANCES = 1 - MRA_THRESHOLDS

Comparison = Callable[[NDArray[np.float64], NDArray[np.float64]], NDArray[np.bool_]]
MRA_MODES: Registry[Comparison] = Registry("MRA mode")
MRA_MODES.add("official", np.less_equal)
MRA_MODES.add("paper", np.less)


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
        mode: ``official`` (``<=``) or ``paper`` (``<``).

    Returns:
        shape (n,) float64 in {0.0, 0.1, …, 1.0}; NaN where the ground truth is invalid.

    Raises:
        UnknownNameError: unknown ``mode``.
    """
    compare = MRA_MODES.get(mode)
    pred = np.asarray(predictions, dtype=np.float64)
    gt = np.asarray(ground_truths, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        relative_error = np.abs(pred - gt) / gt
        hits = compare(relative_error[:, None], _TOLERANCES[None, :])
    scores = hits.mean(axis=1)
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
