"""Adaptive Keyframe Sampling (AKS; Tang et al., CVPR 2025), the keyframe selection of MMSI-Video Table 5.

AKS picks N keyframes from candidate frames (one per second of video) given each candidate's relevance to
the question (an image–text model's score, :mod:`spatialbench.media.relevance`). Its "judge and split"
recursion balances relevance against coverage of the video: scores are min–max normalised; a segment
whose top-N scores stand out from its mean by more than :data:`JUDGE_THRESHOLD` (and whose spread exceeds
:data:`SPREAD_THRESHOLD`) keeps its share of the frames in one piece; any other segment is halved, each
half getting half the share, until :data:`MAX_DEPTH`. Each final segment then takes its share of frames
by score. Thresholds and depth are the official ``frame_select.py`` defaults (``--t1 0.8 --t2 -100
--all_depth 5``); the judge compares the mean of a segment's top N scores (N the whole budget, as the
official code does at every depth) with the segment's mean.

Where the official code leaves the budget short we do not: it gives a segment at depth d ``int(N / 2**d)``
frames, so N = 50 (MMSI-Video's AKS-50) at depth 5 sends 32 frames and N < 32 can send none. Here a split
hands ``share // 2`` to the first half and the rest to the (never shorter) second half, and a segment with
a share of one frame is not split further; the sum is exactly N. For N a multiple of 32 (the official 32
and 64) both give the same frames.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

#: a segment is kept whole when (mean of its top N) - (its mean) exceeds this (normalised scores)
JUDGE_THRESHOLD = 0.8
#: ... and its standard deviation exceeds this (the official -100: always)
SPREAD_THRESHOLD = -100.0
#: segments are halved at most this many times
MAX_DEPTH = 5

Segment = tuple[int, int, int]  # start, stop (candidate positions), frames it takes


def adaptive_keyframes(
    scores: NDArray[np.float64],
    count: int,
    threshold: float = JUDGE_THRESHOLD,
    spread: float = SPREAD_THRESHOLD,
    max_depth: int = MAX_DEPTH,
) -> NDArray[np.int64]:
    """Return the positions of the ``count`` keyframes AKS selects from candidates with ``scores``.

    Args:
        scores: relevance of each candidate frame to the question, shape (n,), any scale (normalised
            here; equal scores count as all 0, so the split spreads the frames evenly).
        count: frames wanted (N); every candidate when there are no more than N.
        threshold: the judge's top-N-minus-mean threshold (normalised scores).
        spread: the judge's standard-deviation threshold.
        max_depth: how many times a segment may be halved.

    Returns:
        Increasing distinct positions into ``scores``, shape (min(count, n),), int64. Within a segment
        ties go to the earlier frame.
    """
    values = np.asarray(scores, dtype=np.float64)
    if len(values) <= count:
        return np.arange(len(values), dtype=np.int64)
    span = float(values.max() - values.min())
    normalised = (values - values.min()) / span if span > 0 else np.zeros_like(values)
    segments = _judge_and_split(normalised, count, (0, len(values), count), 0, threshold, spread, max_depth)
    chosen = [
        start + np.argsort(-normalised[start:stop], kind="stable")[:share] for start, stop, share in segments
    ]
    return np.sort(np.concatenate(chosen)).astype(np.int64)


def _judge_and_split(
    scores: NDArray[np.float64],
    count: int,
    segment: Segment,
    depth: int,
    threshold: float,
    spread: float,
    max_depth: int,
) -> list[Segment]:
    """Return the final segments under ``segment`` (start, stop, share), in temporal order."""
    start, stop, share = segment
    part = scores[start:stop]
    top = np.sort(part)[::-1][:count]
    concentrated = float(top.mean() - part.mean()) > threshold and float(part.std()) > spread
    if concentrated or depth >= max_depth or share < 2:
        return [segment]
    middle = start + (stop - start) // 2
    halves = ((start, middle, share // 2), (middle, stop, share - share // 2))
    return [
        leaf
        for half in halves
        for leaf in _judge_and_split(scores, count, half, depth + 1, threshold, spread, max_depth)
    ]
