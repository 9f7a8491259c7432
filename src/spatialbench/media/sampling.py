"""Frame sampling strategies, by name, as pure functions of frame timestamps.

Names (see :func:`parse_strategy`):

- ``uniform:N`` — N evenly spaced frames, first and last included: ``np.linspace(0, n - 1, min(N, n),
  dtype=int)``, as the official VSI-Bench / lmms-eval code samples (N is clamped to the frames available);
- ``fps:F`` — the first frame at or after each time ``t0 + k / F`` (duplicates dropped);
- ``consecutive:N@S`` — N consecutive frames from frame index S, or from the first frame at or after
  S seconds when S ends in ``s`` (``consecutive:8@2.5s``);
- ``all`` — every frame;
- ``coverage:N`` — the coverage oracle: greedily the N frames that add the most distinct visible objects
  (ties: earliest frame); needs per-frame visibility (synthetic scenes, :mod:`spatialbench.media.visibility`).

The same strategies apply to videos and to frame folders with timestamps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError


class StrategyError(SpatialBenchError, ValueError):
    """A strategy name that does not parse."""


@dataclass(frozen=True)
class FrameStrategy:
    """A parsed strategy; ``name`` is the canonical text form (used in cache keys and run configs)."""

    kind: str  # "uniform", "fps", "consecutive", "all", "coverage"
    count: int = 0
    rate: float = 0.0
    start_index: int | None = None
    start_s: float | None = None

    @property
    def name(self) -> str:
        """Canonical name, e.g. ``uniform:32``."""
        if self.kind in ("uniform", "coverage"):
            return f"{self.kind}:{self.count}"
        if self.kind == "fps":
            return f"fps:{self.rate:g}"
        if self.kind == "consecutive":
            start = f"{self.start_s:g}s" if self.start_s is not None else str(self.start_index)
            return f"consecutive:{self.count}@{start}"
        return "all"

    def select(
        self, timestamps: NDArray[np.float64], visible: Sequence[frozenset[int]] | None = None
    ) -> NDArray[np.int64]:
        """Return increasing indices into frames with presentation ``timestamps`` (seconds, shape (n,)).

        ``visible`` (one set of visible object ids per frame) is read by ``coverage:N`` only.
        Returns an empty array when there are no frames.

        Raises:
            StrategyError: ``coverage:N`` without ``visible`` (the media has no visibility information).
        """
        n = len(timestamps)
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
            targets = np.arange(timestamps[0], timestamps[-1] + 1e-9, 1.0 / self.rate)
            return np.unique(np.minimum(np.searchsorted(timestamps, targets - 1e-6), n - 1)).astype(np.int64)
        if self.start_s is None:
            first = self.start_index or 0
        else:
            first = int(np.searchsorted(timestamps, self.start_s - 1e-6))
        first = min(max(first, 0), n)
        return np.arange(first, min(first + self.count, n), dtype=np.int64)


_PATTERNS = {
    "uniform": re.compile(r"uniform:(\d+)"),
    "coverage": re.compile(r"coverage:(\d+)"),
    "fps": re.compile(r"fps:(\d+(?:\.\d+)?)"),
    "consecutive": re.compile(r"consecutive:(\d+)@(\d+(?:\.\d+)?s|\d+)"),
}


def parse_strategy(name: str) -> FrameStrategy:
    """Parse ``uniform:N``, ``fps:F``, ``consecutive:N@S`` / ``consecutive:N@Ts`` or ``all``.

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
            f"bad frame strategy {name!r}; expected uniform:N, coverage:N, fps:F, "
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
    if kind in ("uniform", "coverage"):
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
