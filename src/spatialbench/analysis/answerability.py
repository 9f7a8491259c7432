"""Answerability under the frames sent (issue 23 item 5; ReVSI's per-budget ground truth).

For a synthetic-scene item and a frame strategy: is every object category the question names visible
in at least one sent frame; for ``object_counting``, how many instances of the category are visible in
the sent frames against the answer (answerable when equal). Items whose media has no visibility, or
that name no object (room size), are left out (``None``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.sampling import FrameStrategy
from spatialbench.media.video import probe_pts
from spatialbench.media.visibility import FrameVisibility, find_visibility
from spatialbench.records.item import Item, MediaKind
from spatialbench.records.progress import Progress, Tally


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


def item_answerability(item: Item, root: Path, strategy: FrameStrategy) -> dict[str, Any] | None:
    """``{"answerable": bool, "missing": [...], "visible_count": int | None}`` or None (no visibility)."""
    refs = [r for r in item.media if r.kind is MediaKind.VIDEO]
    if not refs:
        return None
    path = Path(refs[0].path) if Path(refs[0].path).is_absolute() else root / refs[0].path
    vis = find_visibility(path)
    if vis is None:
        return None
    names = named_categories(item, vis.categories.values())
    if not names:
        return None
    pts, base = probe_pts(str(path))
    times = (pts - pts[0]).astype(np.float64) * base
    sent = strategy.select(times, vis.frames) if strategy.kind == "coverage" else strategy.select(times)
    seen = _seen(vis, sent)
    missing = [n for n in names if n not in {vis.categories.get(i) for i in seen}]
    count = None
    if item.task == "object_counting":
        count = sum(1 for i in seen if vis.categories.get(i) == names[0])
        return {
            "answerable": str(count) == item.ground_truth.strip(),
            "missing": missing,
            "visible_count": count,
        }
    return {"answerable": not missing, "missing": missing, "visible_count": count}


def _seen(vis: FrameVisibility, sent: NDArray[np.int64]) -> set[int]:
    return set().union(*(vis.frames[int(i)] for i in sent)) if len(sent) else set()


def answerability_shares(
    items: Sequence[Item],
    root: Path,
    strategies: Sequence[FrameStrategy],
    progress: Progress | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """``{strategy: {task: {"n": items with visibility, "share": answerable share}}}`` (plus ``overall``).

    ``progress``: called with (items done over every strategy, items × strategies).
    """
    out: dict[str, dict[str, dict[str, float]]] = {}
    tally = Tally(len(items) * len(strategies), progress)
    for strategy in strategies:
        flags: dict[str, list[bool]] = defaultdict(list)
        for item in tally.each(items):
            result = item_answerability(item, root, strategy)
            if result is not None:
                flags[item.task].append(bool(result["answerable"]))
                flags["overall"].append(bool(result["answerable"]))
        out[strategy.name] = {t: {"n": len(v), "share": float(np.mean(v))} for t, v in sorted(flags.items())}
    return out
