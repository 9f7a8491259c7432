"""Locality of cognitive maps (VSI-Bench Sec. 6.1, Fig. 11, App. B.4, Table 4).

For every pair of categories of a ground-truth map, the inter-category distance is the smallest
Euclidean distance (grid cells) between an instance of one and an instance of the other, on the
predicted map and on the ground-truth map. The pair is correct when the two differ by at most one cell.
Pairs are pooled over all maps and binned by their ground-truth distance into the paper's eight bins,
edges ``numpy.linspace(1, 10, 9)`` (Table 4 prints them rounded: [1.0, 2.1], (2.1, 3.3], ...,
(8.9, 10.0]); the first bin is closed on the left, the others open. Ground-truth distances below 1
(same cell) or above 10 fall in no bin and are counted apart.

A category of the ground truth missing from the prediction makes each of its pairs wrong
(``count_missing=True``, default: the model was asked for it) or leaves them out (``False``);
either way their number is reported. Categories only the prediction holds are ignored.
Reference curve (Gemini-1.5 Pro, Table 4): .64 .48 .35 .35 .28 .12 .06 .00.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike

LOCALITY_EDGES: tuple[float, ...] = tuple(float(e) for e in np.linspace(1, 10, 9))
TOLERANCE = 1.0  # App. B.4: "differs from the ground truth distance by no more than one grid unit"


@dataclass(frozen=True)
class PairDistance:
    """One category pair of one map: distances in grid cells; ``predicted`` None when a side is missing."""

    first: str
    second: str
    truth: float
    predicted: float | None

    def correct(self, tolerance: float = TOLERANCE) -> bool:
        """Whether the predicted distance is within ``tolerance`` cells of the ground truth."""
        return self.predicted is not None and abs(self.predicted - self.truth) <= tolerance


@dataclass(frozen=True)
class Locality:
    """Accuracy per ground-truth distance bin.

    Attributes:
        edges: the bin edges (9 for the paper's 8 bins), grid cells.
        correct, total: pairs correct and pairs counted per bin.
        below, above: pairs whose ground-truth distance lies below the first or above the last edge.
        missing: pairs with a category absent from the prediction (counted wrong or left out).
    """

    edges: tuple[float, ...]
    correct: tuple[int, ...]
    total: tuple[int, ...]
    below: int
    above: int
    missing: int

    @property
    def accuracy(self) -> tuple[float | None, ...]:
        """Share correct per bin (0..1); None for an empty bin."""
        return tuple(c / t if t else None for c, t in zip(self.correct, self.total, strict=True))


def _as_points(value: ArrayLike) -> np.ndarray:
    return np.asarray(value, dtype=np.float64).reshape(-1, 2)


def _min_distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.min(np.linalg.norm(a[:, None, :] - b[None, :, :], axis=-1)))


def category_distance(first: ArrayLike, second: ArrayLike) -> float | None:
    """Smallest distance between an (n, 2) and an (m, 2) set of grid points; None when either is empty."""
    a, b = _as_points(first), _as_points(second)
    return _min_distance(a, b) if len(a) and len(b) else None


def map_pairs(
    predicted: Mapping[str, ArrayLike], truth: Mapping[str, ArrayLike]
) -> list[PairDistance]:
    """Every pair of ground-truth categories with both distances (``truth`` order, first < second).

    Args:
        predicted: category -> its predicted points, (n, 2) grid cells (lists of pairs accepted).
        truth: category -> its ground-truth points, same form; categories without a point are skipped.
    """
    gt_points = {c: _as_points(p) for c, p in truth.items() if len(_as_points(p))}
    pairs = []
    for first, second in combinations(gt_points, 2):
        gt = _min_distance(gt_points[first], gt_points[second])
        pred = None
        if first in predicted and second in predicted:
            pred = category_distance(predicted[first], predicted[second])
        pairs.append(PairDistance(first, second, gt, pred))
    return pairs


def locality(
    pairs: Iterable[PairDistance],
    edges: Sequence[float] = LOCALITY_EDGES,
    tolerance: float = TOLERANCE,
    count_missing: bool = True,
) -> Locality:
    """Bin pooled pairs by ground-truth distance and count the correct ones (rules in the module docstring).

    Raises:
        ValueError: fewer than two edges, or edges not increasing.
    """
    bounds = np.asarray(edges, dtype=np.float64)
    if bounds.size < 2 or np.any(np.diff(bounds) <= 0):
        raise ValueError(f"locality bin edges must be at least two increasing numbers, got {list(edges)}")
    correct = [0] * (bounds.size - 1)
    total = [0] * (bounds.size - 1)
    below = above = missing = 0
    for pair in pairs:
        if pair.predicted is None:
            missing += 1
            if not count_missing:
                continue
        if pair.truth < bounds[0]:
            below += 1
        elif pair.truth > bounds[-1]:
            above += 1
        else:
            index = max(int(np.searchsorted(bounds, pair.truth, side="left")) - 1, 0)
            total[index] += 1
            correct[index] += pair.correct(tolerance)
    return Locality(tuple(float(e) for e in bounds), tuple(correct), tuple(total), below, above, missing)
