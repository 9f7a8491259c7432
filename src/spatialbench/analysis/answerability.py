"""Answerability under the frames sent (issue 23 item 5; ReVSI's per-budget ground truth).

For a synthetic-scene item and a frame strategy: is every object category the question names visible
in at least one sent frame; for ``object_counting``, how many instances of the category are visible in
the sent frames against the answer (answerable when equal). Items whose media has no visibility, or
that name no object (room size), are left out (``None``). ``spatialbench run`` records each item's verdict
for the frames it sent; :func:`accuracy_by_answerability` splits a run's accuracy by it (the report's table).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from spatialbench.media.sampling import FrameStrategy
from spatialbench.media.video import probe_pts
from spatialbench.media.visibility import answerability, find_visibility
from spatialbench.records.item import Item, MediaKind
from spatialbench.records.progress import Progress, Tally
from spatialbench.scoring.render import Grid
from spatialbench.scoring.uncertainty import Resampler, cluster_keys, interval_text, masked_mean

OVERALL = "overall"
"""The row over every task: always last, after the tasks in name order (:func:`task_order`)."""


def task_order(tasks: Iterable[str]) -> list[str]:
    """Return the task names sorted, then :data:`OVERALL` (when given): every table's row order."""
    names = set(tasks)
    return [*sorted(names - {OVERALL}), *([OVERALL] if OVERALL in names else [])]


def item_answerability(item: Item, root: Path, strategy: FrameStrategy) -> dict[str, Any] | None:
    """Return :func:`~spatialbench.media.visibility.answerability` for the frames ``strategy`` sends.

    ``root``: the data folder the item's relative media paths start from. None: no video, no visibility
    or no named object.
    """
    refs = [r for r in item.media if r.kind is MediaKind.VIDEO]
    if not refs:
        return None
    path = Path(refs[0].path) if Path(refs[0].path).is_absolute() else root / refs[0].path
    vis = find_visibility(path)
    if vis is None:
        return None
    pts, base = probe_pts(str(path))
    times = (pts - pts[0]).astype(np.float64) * base
    sent = strategy.select(times, vis.frames) if strategy.kind == "coverage" else strategy.select(times)
    return answerability(item, path, [int(i) for i in sent])


def answerability_shares(
    items: Sequence[Item],
    root: Path,
    strategies: Sequence[FrameStrategy],
    progress: Progress | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """``{strategy: {task: {"n": items with visibility, "share": answerable share}}}``, ``overall`` last.

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
                flags[OVERALL].append(bool(result["answerable"]))
        out[strategy.name] = {t: {"n": len(flags[t]), "share": float(np.mean(flags[t]))}
                              for t in task_order(flags)}
    return out


def accuracy_by_answerability(
    rows: pd.DataFrame, verdicts: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Accuracy on answerable vs unanswerable items, per task and over all items with a verdict.

    ``rows``: a run's scored rows (``id``, ``task``, ``scene_id``, ``score`` in [0, 1]; NaN scores, data
    errors, left out); ``verdicts``: item id → its recorded answerability
    (:meth:`~spatialbench.runs.folder.RunFolder.answerability`). Returns ``{task | "overall":
    {"answerable" | "unanswerable": {"score": percent | None, "ci95": [low, high] | None, "n": int,
    "scenes": int}}}`` (tasks by name, ``overall`` last, question-weighted); empty when no scored row has a
    verdict. Intervals: the scene-clustered bootstrap of :mod:`spatialbench.scoring.uncertainty`, one
    seeded draw for every cell; None for a cell whose items come from fewer than 2 scenes.
    """
    known = rows[rows["id"].astype(str).isin(verdicts) & rows["score"].notna()].reset_index(drop=True)
    if known.empty:
        return {}
    answerable = known["id"].astype(str).map(lambda i: bool(verdicts[i]["answerable"])).to_numpy()
    resampler = Resampler.for_rows(known)
    tasks = known["task"].astype(str).to_numpy()
    scenes = cluster_keys(known).to_numpy()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for task in task_order([*tasks, OVERALL]):
        in_task = np.ones(len(known), bool) if task == OVERALL else tasks == task
        out[task] = {}
        for label, flag in (("answerable", True), ("unanswerable", False)):
            mask = in_task & (answerable == flag)
            score, ci = masked_mean(known, mask, resampler)
            interval = None if ci is None else list(ci)
            out[task][label] = {"score": score, "ci95": interval, "n": int(mask.sum()),
                                "scenes": len(set(scenes[mask]))}
    return out


def answerability_grid(split: Mapping[str, Mapping[str, Mapping[str, Any]]], title: str) -> Grid:
    """Return :func:`accuracy_by_answerability`'s split as a table: ``score [low, high] n=N`` per cell.

    Rows: the tasks by name, ``overall`` last; a cell from 1 scene reads ``score - n=N (1 scene)``.
    """

    def cell(c: Mapping[str, Any]) -> str:
        if not c["n"]:
            return "-"
        return f"{c['score']:.1f} " + interval_text(c["ci95"], c["n"], c.get("scenes"))

    rows = tuple((task, (cell(split[task]["answerable"]), cell(split[task]["unanswerable"])))
                 for task in task_order(split))
    return Grid(("answerable", "unanswerable"), rows, title)
