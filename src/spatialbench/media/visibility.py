"""Per-frame visible objects of a synthetic walkthrough, read from the files beside its video.

``spatialbench generate synthetic`` / ``spatialbench demo`` write ``synthetic/<scene>.mp4`` and
``scenes/<scene>/frames.npz`` (member ``instance``: (F, H, W) instance ids, frame ``i`` of the mp4 is
frame ``i`` of the npz) under the same data root, plus ``scenes/<scene>/scene.json`` (instance table).
An instance is visible in a frame when it covers at least 1/1536 of it (the threshold the synthetic
pipeline uses for the benchmark's meta-info). Other media have no visibility: :func:`find_visibility`
returns None.

:func:`answerability` is issue 23 item 5's per-item verdict (ReVSI's per-budget ground truth) for the
frames actually sent; ``spatialbench run`` records it with each answer and ``spatialbench answerability``
computes it for a frame strategy without a model.
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from spatialbench.records.item import Item

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


_GUARD = threading.Lock()
_LOADING: dict[Path, threading.Lock] = {}  # npz → the lock its one load holds


def find_visibility(video: str | Path) -> FrameVisibility | None:
    """Per-frame visibility of a synthetic walkthrough video, or None when the media has none.

    Read once per ``frames.npz`` (kept for the 16 most recent): concurrent callers wait for the one
    reading it (inflating the masks costs ~1.5 s of CPU for a 20 s demo video; issue 25: every request
    of a video read them at once, in the to_thread pool, and nothing was in flight for seconds).
    """
    npz = visibility_files(video)
    if npz is None:
        return None
    npz = npz.resolve()
    with _GUARD:
        lock = _LOADING.setdefault(npz, threading.Lock())
    with lock:
        return _load(npz)


def named_categories(item: Item, categories: Iterable[str]) -> list[str]:
    """Categories named in the question or options, longest first so ``table lamp`` is not ``table``."""
    text = " ".join([item.question, *item.options]).lower()
    found = []
    for name in sorted(set(categories), key=len, reverse=True):
        pattern = rf"\b{re.escape(name.lower())}(?:\(s\)|s)?\b"
        if re.search(pattern, text):
            found.append(name)
            text = re.sub(pattern, " ", text)
    return sorted(found)


def answerability(item: Item, video: str | Path, sent: Sequence[int]) -> dict[str, Any] | None:
    """Whether ``item`` is answerable from frames ``sent`` (frame numbers of ``video``) — issue 23 item 5.

    Returns ``{"answerable": bool, "missing": [category, ...], "visible_count": int | None}``: answerable
    when every category the question or options name is visible in at least one sent frame; for
    ``object_counting``, when the instances of its category visible in the sent frames number the answer
    (``visible_count``). None when the video has no visibility or the item names no object (room size).
    """
    vis = find_visibility(video)
    return None if vis is None else verdict(item, vis, sent)


def verdict(item: Item, vis: FrameVisibility, sent: Sequence[int]) -> dict[str, Any] | None:
    """:func:`answerability` for a video's visibility already read (``vis``)."""
    names = named_categories(item, vis.categories.values())
    if not names:
        return None
    seen = set().union(*(vis.frames[int(i)] for i in sent)) if len(sent) else set()
    missing = [n for n in names if n not in {vis.categories.get(i) for i in seen}]
    if item.task == "object_counting":
        count = sum(1 for i in seen if vis.categories.get(i) == names[0])
        return {
            "answerable": str(count) == item.ground_truth.strip(),
            "missing": missing,
            "visible_count": count,
        }
    return {"answerable": not missing, "missing": missing, "visible_count": None}
