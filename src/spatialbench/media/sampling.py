"""Frame sampling strategies, by name, as pure functions of frame timestamps.

Names (see :func:`parse_strategy`):

- ``uniform:N`` — N evenly spaced frames, first and last included: ``np.linspace(0, n - 1, min(N, n),
  dtype=int)``, as the official VSI-Bench / lmms-eval code samples (N is clamped to the frames available);
- ``fps:F`` — the first frame at or after each time ``t0 + k / F`` (duplicates dropped);
- ``consecutive:N@S`` — N consecutive frames from frame index S, or from the first frame at or after
  S seconds when S ends in ``s`` (``consecutive:8@2.5s``);
- ``all`` — every frame;
- ``coverage:N`` — the coverage oracle: greedily the N frames that add the most distinct visible objects
  (ties: earliest frame); needs per-frame visibility (synthetic scenes, :mod:`spatialbench.media.visibility`);
- ``aks:N`` — Adaptive Keyframe Sampling (MMSI-Video Table 5): N of the one-per-second candidate frames by
  their relevance to the question (:mod:`spatialbench.media.aks`); needs an image–text scorer
  (:mod:`spatialbench.media.relevance`).

The same strategies apply to videos and to frame folders with timestamps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError
from spatialbench.media.aks import adaptive_keyframes

#: scores of the candidate frames at the given positions (into the timestamps ``select`` was given)
Relevance = Callable[[NDArray[np.int64]], NDArray[np.float64]]
#: AKS's candidate frames: one per second (the official ``feature_extract.py`` scores frame ``j * fps``)
AKS_CANDIDATE_FPS = 1.0


class StrategyError(SpatialBenchError, ValueError):
    """A strategy name that does not parse."""


@dataclass(frozen=True)
class FrameStrategy:
    """A parsed strategy; ``name`` is the canonical text form (used in cache keys and run configs)."""

    kind: str  # "uniform", "fps", "consecutive", "all", "coverage", "aks"
    count: int = 0
    rate: float = 0.0
    start_index: int | None = None
    start_s: float | None = None

    @property
    def name(self) -> str:
        """Canonical name, e.g. ``uniform:32``."""
        if self.kind in _COUNTED:
            return f"{self.kind}:{self.count}"
        if self.kind == "fps":
            return f"fps:{self.rate:g}"
        if self.kind == "consecutive":
            start = f"{self.start_s:g}s" if self.start_s is not None else str(self.start_index)
            return f"consecutive:{self.count}@{start}"
        return "all"

    def select(
        self,
        timestamps: NDArray[np.float64],
        visible: Sequence[frozenset[int]] | None = None,
        relevance: Relevance | None = None,
    ) -> NDArray[np.int64]:
        """Return increasing indices into frames with presentation ``timestamps`` (seconds, shape (n,)).

        ``visible`` (one set of visible object ids per frame) is read by ``coverage:N`` only, and
        ``relevance`` (the question's score of candidate frames) by ``aks:N`` only.
        Returns an empty array when there are no frames.

        Raises:
            StrategyError: ``coverage:N`` without ``visible`` (the media has no visibility information),
                ``aks:N`` without ``relevance`` (no scorer model).
        """
        n = len(timestamps)
        if self.kind == "aks":
            return self._keyframes(timestamps, relevance)
        if self.kind == "coverage":
            if visible is None:
                raise StrategyError(
                    f"--frames {self.name} needs per-frame visibility (synthetic scenes only); "
                    "this media has none"
                )
            return greedy_coverage(visible, self.count)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        if self.kind == "uniform":
            return np.linspace(0, n - 1, min(self.count, n), dtype=int).astype(np.int64)
        if self.kind == "all":
            return np.arange(n, dtype=np.int64)
        if self.kind == "fps":
            return per_second(timestamps, self.rate)
        if self.start_s is None:
            first = self.start_index or 0
        else:
            first = int(np.searchsorted(timestamps, self.start_s - 1e-6))
        first = min(max(first, 0), n)
        return np.arange(first, min(first + self.count, n), dtype=np.int64)

    def _keyframes(self, timestamps: NDArray[np.float64], relevance: Relevance | None) -> NDArray[np.int64]:
        """``aks:N``: AKS over the one-per-second candidates, scored by ``relevance``."""
        if relevance is None:
            raise StrategyError(f"--frames {self.name} needs an image-text scorer model (--aks-model PATH)")
        if len(timestamps) == 0:
            return np.zeros(0, dtype=np.int64)
        candidates = per_second(timestamps, AKS_CANDIDATE_FPS)
        return candidates[adaptive_keyframes(relevance(candidates), self.count)]


def per_second(timestamps: NDArray[np.float64], rate: float) -> NDArray[np.int64]:
    """``fps:F``: the first frame at or after each time ``t0 + k / rate``; increasing, duplicates dropped."""
    targets = np.arange(timestamps[0], timestamps[-1] + 1e-9, 1.0 / rate)
    found = np.searchsorted(timestamps, targets - 1e-6)
    return np.unique(np.minimum(found, len(timestamps) - 1)).astype(np.int64)


#: strategies named ``KIND:N``
_COUNTED = ("uniform", "coverage", "aks")
_PATTERNS = {
    "uniform": re.compile(r"uniform:(\d+)"),
    "coverage": re.compile(r"coverage:(\d+)"),
    "aks": re.compile(r"aks:(\d+)"),
    "fps": re.compile(r"fps:(\d+(?:\.\d+)?)"),
    "consecutive": re.compile(r"consecutive:(\d+)@(\d+(?:\.\d+)?s|\d+)"),
}


def parse_strategy(name: str) -> FrameStrategy:
    """Parse ``uniform:N``, ``coverage:N``, ``aks:N``, ``fps:F``, ``consecutive:N@S`` / ``@Ts`` or ``all``.

    Raises:
        StrategyError: the name does not match any form, or N / F is not positive.
    """
    text = name.strip()
    if text == "all":
        return FrameStrategy("all")
    kind = text.partition(":")[0]
    match = _PATTERNS[kind].fullmatch(text) if kind in _PATTERNS else None
    if match is None:
        raise StrategyError(
            f"bad frame strategy {name!r}; expected uniform:N, coverage:N, aks:N, fps:F, "
            "consecutive:N@START[s] or all"
        )
    if kind == "fps":
        rate = float(match.group(1))
        if rate <= 0:
            raise StrategyError(f"bad frame strategy {name!r}: rate must be > 0")
        return FrameStrategy("fps", rate=rate)
    count = int(match.group(1))
    if count <= 0:
        raise StrategyError(f"bad frame strategy {name!r}: frame count must be > 0")
    if kind in _COUNTED:
        return FrameStrategy(kind, count=count)
    start = match.group(2)
    if start.endswith("s"):
        return FrameStrategy("consecutive", count=count, start_s=float(start[:-1]))
    return FrameStrategy("consecutive", count=count, start_index=int(start))


def within_segment(
    timestamps: NDArray[np.float64], start: float | None, end: float | None
) -> NDArray[np.int64]:
    """Return indices of frames whose timestamp lies in ``[start, end]`` seconds (None = open)."""
    keep = np.ones(len(timestamps), dtype=bool)
    if start is not None:
        keep &= timestamps >= start - 1e-6
    if end is not None:
        keep &= timestamps <= end + 1e-6
    return np.flatnonzero(keep).astype(np.int64)


def extent(
    timestamps: NDArray[np.float64], start: float | None = None, end: float | None = None, timed: bool = True
) -> str:
    """Say how long the media is (for "no frames selected" errors): frames, seconds, and the segment."""
    n = len(timestamps)
    if not timed:
        return f"the frame list has only {n} frames"
    seconds = float(timestamps[-1] - timestamps[0]) + (
        float(np.median(np.diff(timestamps))) if n > 1 else 0.0
    )
    segment = f"; segment [{start}, {end}] s" if start is not None or end is not None else ""
    return f"the video has only {n} frames ({seconds:.1f} s){segment}"


def greedy_coverage(visible: Sequence[frozenset[int]], count: int) -> NDArray[np.int64]:
    """Greedy maximum coverage: ``count`` frames (fewer when there are fewer) adding the most new objects.

    Each step takes the frame with the most objects not yet seen in a chosen frame; ties (also a gain
    of zero) go to the earliest frame. Returns the chosen indices sorted, shape (min(count, n),).
    """
    chosen: list[int] = []
    seen: set[int] = set()
    free = np.ones(len(visible), dtype=bool)
    for _ in range(min(count, len(visible))):
        gains = np.array([len(v - seen) if f else -1 for v, f in zip(visible, free, strict=True)])
        best = int(np.argmax(gains))
        chosen.append(best)
        free[best] = False
        seen |= visible[best]
    return np.array(sorted(chosen), dtype=np.int64)
