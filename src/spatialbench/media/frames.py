"""Frame folders (MMSI-Video-Bench style: listed frame files with timestamps) and single images."""

from __future__ import annotations

import os

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError
from spatialbench.media.image import load_image, resize_to_max_pixels
from spatialbench.media.relevance import FrameLoader, FrameScores
from spatialbench.media.sampling import FrameStrategy, StrategyError, extent, within_segment
from spatialbench.media.video import SampledFrames


def sample_frame_folder(
    folder: str,
    names: tuple[str, ...],
    timestamps: tuple[float, ...],
    strategy: FrameStrategy,
    start: float | None = None,
    end: float | None = None,
    max_pixels: int | None = None,
    scores: FrameScores | None = None,
) -> SampledFrames:
    """Sample listed frame files of ``folder`` (temporal order) and load only the chosen ones.

    Without ``timestamps`` the frame number stands in for time, so ``fps:F`` and ``consecutive:N@Ts``
    are refused (and ``aks:N`` scores every frame). ``scores``: the question's relevance of frames, for
    ``aks:N`` (:mod:`spatialbench.media.relevance`).

    Raises:
        MediaError: empty list, timestamps that do not match the list, a time-based strategy without
            timestamps, or a missing / unreadable frame file.
    """
    if not names:
        raise MediaError(folder, "frame list is empty")
    if timestamps and len(timestamps) != len(names):
        raise MediaError(folder, f"{len(timestamps)} timestamps for {len(names)} frames")
    timed = bool(timestamps)
    if not timed and (strategy.kind == "fps" or strategy.start_s is not None):
        raise MediaError(folder, f"strategy {strategy.name} needs frame timestamps")
    times = np.asarray(timestamps if timed else range(len(names)), dtype=np.float64)
    candidates = within_segment(times, start, end) if timed else np.arange(len(names), dtype=np.int64)
    load = _loader(folder, names)
    relevance = None if scores is None else (lambda picks: scores(candidates[picks], load))
    try:
        chosen = candidates[strategy.select(times[candidates], None, relevance)]
    except StrategyError as exc:  # coverage:N: a frame folder has no visibility information
        raise MediaError(folder, str(exc)) from exc
    if len(chosen) == 0:
        raise MediaError(folder, f"no frames selected by {strategy.name}: {extent(times, start, end, timed)}")
    pixels = tuple(resize_to_max_pixels(p, max_pixels) for p in load(chosen))
    return SampledFrames(pixels, chosen, times[chosen], folder)


def _loader(folder: str, names: tuple[str, ...]) -> FrameLoader:
    """Load the listed frames with the given numbers (for the chosen frames and for AKS's scorer)."""

    def load(frames: NDArray[np.int64]) -> list[NDArray[np.uint8]]:
        return [load_image(os.path.join(folder, names[i])) for i in frames]

    return load


def single_image(path: str, max_pixels: int | None = None) -> SampledFrames:
    """One still image as a one-frame sample."""
    pixels = resize_to_max_pixels(load_image(path), max_pixels)
    return SampledFrames((pixels,), np.zeros(1, np.int64), np.zeros(1, np.float64), path)
