"""Runs made on other questions than the served ones: not shown, and said so (issue 22).

Integer ids (0, 1, 2, ...) are shared by every VSI-style benchmark file, so an lmms-eval log imported on
one file and served with ``--data`` of another was scored by id against questions it never answered
(61.1 on ``/scores`` where ``compare`` and ``report``, reading the run's own data, gave 63.5). A run whose
recorded data is not the served data has its questions read from that data and checked as ``score`` checks
logged questions (:func:`~spatialbench.scoring.question_check.disagreement`): one that disagrees is left
out of every page, with the reason. A run whose own data cannot be read any more is checked by the task of
each item in its ``items.csv``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spatialbench.records.item import Item
from spatialbench.scoring.question_check import LoggedQuestion, disagreement
from spatialbench.web.runs import ServedRun


def _same_data(run: ServedRun, data: Path) -> bool:
    try:
        return run.folder.data_path.resolve() == data.resolve()
    except OSError:
        return False


def _by_task(run: ServedRun, by_id: dict[str, Item]) -> str | None:
    """Why the run's scored tasks are not the served items' tasks (its data unreadable), else None."""
    rows = run.folder.rows if run.folder.scored else None
    if rows is None:
        return None
    tasks = dict(zip(rows["id"].astype(str), rows["task"].astype(str), strict=True))
    shared = [i for i in tasks if i in by_id]
    wrong = [i for i in shared if tasks[i] != by_id[i].task]
    if not wrong:
        return None
    return (f"item {wrong[0]}: the run's task {tasks[wrong[0]]!r}, --data's {by_id[wrong[0]].task!r} "
            f"({len(wrong)} of {len(shared)} tasks differ)")


def other_questions(run: ServedRun, data: Path, items: Sequence[Item]) -> str | None:
    """Return why ``run`` was made on other questions than ``items`` (read from ``data``), else None."""
    if _same_data(run, data):
        return None
    by_id = {item.id: item for item in items}
    try:
        own = run.folder.load()
    except (ValueError, OSError):
        return _by_task(run, by_id)
    answered = set(run.scores) or {item.id for item in own}
    where = str(run.folder.data_path)
    logged = {i.id: LoggedQuestion(i.question, where) for i in own if i.id in answered}
    return disagreement(logged, items, ours="the run's questions", theirs="--data's", unit="questions")
