"""Which instances a rendered walkthrough shows, from its instance masks.

VSI-Bench questions are about what the video shows, so the benchmark's meta-info lists only instances
that are visible: at least :func:`min_visible_pixels` pixels (1/1536 of the frame, 200 px at 640×480,
about a 14×14 patch) in at least one frame. The summary kept here (pixels per instance per frame) is all
later steps need, so the frames themselves can be released after each scene.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.visibility import VISIBLE_FRACTION  # one threshold for meta-info and samplers


def min_visible_pixels(width: int, height: int) -> int:
    """Visible-pixel threshold of a ``width`` × ``height`` frame (200 at 640×480, at least 1)."""
    return max(1, math.ceil(width * height * VISIBLE_FRACTION))


def pixel_counts(mask: NDArray[np.integer], n_ids: int) -> NDArray[np.int64]:
    """(n_ids,) pixels of each id below ``n_ids`` in ``mask`` (non-negative ids; larger ones ignored).

    Counted by runs of equal ids along the rows (a rendered mask has about a thousand at 640x480), not
    pixel by pixel: ``np.bincount`` over the pixels took 1.2 ms a frame, a quarter of the main process's
    own work per frame in the demo (issue 25); over the runs it takes 0.3 ms. Same counts.
    """
    flat = np.ascontiguousarray(mask).ravel()
    if not flat.size:
        return np.zeros(n_ids, dtype=np.int64)
    starts = np.empty(flat.size, dtype=bool)
    starts[0] = True
    np.not_equal(flat[1:], flat[:-1], out=starts[1:])
    first = np.flatnonzero(starts)
    lengths = np.diff(first, append=flat.size)
    # float64 sums of whole numbers below 2**53 are exact
    return np.bincount(flat[first], weights=lengths, minlength=n_ids)[:n_ids].astype(np.int64)


@dataclass(frozen=True)
class Visibility:
    """Per-frame visible pixels of every instance id of one walkthrough.

    Attributes:
        pixels: (F, M) int64, pixels of instance id ``m`` in frame ``f`` (column 0 = room shell).
        timestamps: (F,) seconds.
        width, height: frame size in pixels.
    """

    pixels: NDArray[np.int64]
    timestamps: NDArray[np.float64]
    width: int
    height: int

    @classmethod
    def from_masks(
        cls, masks: Iterable[NDArray[np.integer]], timestamps: NDArray[np.float64], n_ids: int
    ) -> Visibility:
        """Count pixels per id in (H, W) masks with ids below ``n_ids``."""
        rows, shape = [], (0, 0)
        for mask in masks:
            shape = mask.shape
            rows.append(pixel_counts(mask, n_ids))
        pixels = np.array(rows, dtype=np.int64).reshape(len(rows), n_ids)
        return cls(pixels, np.asarray(timestamps, dtype=np.float64), int(shape[1]), int(shape[0]))

    @property
    def min_pixels(self) -> int:
        """Return the video's visible-pixel threshold (:func:`min_visible_pixels`)."""
        return min_visible_pixels(self.width, self.height)

    def visible_ids(self) -> set[int]:
        """Instance ids (> 0) with at least ``min_pixels`` pixels in some frame."""
        if not len(self.pixels):
            return set()
        peak = self.pixels.max(axis=0)
        return {int(i) for i in np.flatnonzero(peak >= self.min_pixels) if i > 0}

    def category_pixels(self, id_to_category: Mapping[int, str]) -> tuple[list[str], NDArray[np.int64]]:
        """(categories sorted by name, (F, C) visible pixels of each category, all its instances together)."""
        categories = sorted(set(id_to_category.values()))
        counts = np.zeros((len(self.pixels), len(categories)), dtype=np.int64)
        for column, category in enumerate(categories):
            ids = [i for i, c in id_to_category.items() if c == category and i < self.pixels.shape[1]]
            counts[:, column] = self.pixels[:, ids].sum(axis=1)
        return categories, counts
