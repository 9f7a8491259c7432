"""Per-frame visible objects of a synthetic walkthrough, read from the files beside its video.

``spatialbench generate synthetic`` / ``spatialbench demo`` write ``synthetic/<scene>.mp4`` and
``scenes/<scene>/frames.npz`` (member ``instance``: (F, H, W) instance ids, frame ``i`` of the mp4 is
frame ``i`` of the npz) under the same data root, plus ``scenes/<scene>/scene.json`` (instance table).
An instance is visible in a frame when it covers at least 1/1536 of it (the threshold the synthetic
pipeline uses for the benchmark's meta-info). Other media have no visibility: :func:`find_visibility`
returns None.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: fraction of the frame an instance must cover to count as visible in it
VISIBLE_FRACTION = 1 / 1536


@dataclass(frozen=True)
class FrameVisibility:
    """Visible instances per frame.

    Attributes:
        frames: one frozenset of instance ids (> 0) per frame, shape (F,).
        categories: instance id -> category name.
    """

    frames: tuple[frozenset[int], ...]
    categories: dict[int, str]


def visibility_files(video: str | Path) -> Path | None:
    """``scenes/<stem>/frames.npz`` beside the video's folder, or None when absent."""
    path = Path(video)
    candidate = path.parent.parent / "scenes" / path.stem / "frames.npz"
    return candidate if candidate.is_file() else None


@functools.lru_cache(maxsize=16)
def _load(npz: Path) -> FrameVisibility:
    with np.load(npz) as archive:
        masks = archive["instance"]
    height, width = masks.shape[1:3]
    threshold = max(1, math.ceil(width * height * VISIBLE_FRACTION))
    n_ids = int(masks.max()) + 1 if masks.size else 1
    frames = tuple(
        frozenset(
            int(i) for i in np.flatnonzero(np.bincount(m.ravel(), minlength=n_ids) >= threshold) if i > 0
        )
        for m in masks
    )
    table = json.loads((npz.parent / "scene.json").read_text(encoding="utf-8")).get("instances", [])
    return FrameVisibility(frames, {int(r["instance_id"]): str(r["category"]) for r in table})


def find_visibility(video: str | Path) -> FrameVisibility | None:
    """Per-frame visibility of a synthetic walkthrough video, or None when the media has none."""
    npz = visibility_files(video)
    return _load(npz.resolve()) if npz is not None else None
