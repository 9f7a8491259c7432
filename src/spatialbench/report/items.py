"""Per-item views across runs: what each run was asked and answered, worst items of each task first.

An item's "difficulty" for ordering is its mean score over the runs that answer from a model or a person
(chance baselines left out); items no such run scored sort by the baselines' mean. Items of a task are
listed from the lowest mean score up (ties by item id), as the report's item lists link them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from spatialbench.records.item import Item
from spatialbench.report.runs import RunData
from spatialbench.runs.transcript import settings_line

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def page_name(item_id: str) -> str:
    """Return the file name of an item's page.

    Characters other than ``A-Za-z0-9._-`` become ``_``, plus a short hash of the id when that changed
    it, so two ids never share a page.
    """
    safe = _UNSAFE.sub("_", item_id).strip(".") or "item"
    if safe != item_id:
        import hashlib

        safe = f"{safe}-{hashlib.sha1(item_id.encode()).hexdigest()[:8]}"
    return f"{safe}.html"


@dataclass(frozen=True)
class RunAnswer:
    """One run's answer to one item (``score`` in [0, 1], None when the run did not score the item).

    ``settings``: the run's settings line; ``transcript``: its dialogue for the item as HTML (set by the
    build once the frames sent are written as thumbnails; None when nothing was stored).
    """

    run: str
    kind: str
    status: str
    response: str | None
    extracted: Any
    rule: str | None
    score: float | None
    frames: list[dict[str, Any]]
    blind: bool
    error: str | None = None
    sheet: str | None = None
    settings: str = ""
    transcript: Markup | None = None
    truth: str | None = None
    """The run's own ground truth where it is not the page's (a ReVSI run of another frame budget)."""


@dataclass
class ItemView:
    """An item and every run's answer to it; ``mean`` orders the worst items first."""

    item: Item
    page: str
    answers: list[RunAnswer] = field(default_factory=list)

    def score_of(self, run: str) -> float | None:
        """Return run ``run``'s score of the item (None: not scored, or the run did not select it)."""
        return next((a.score for a in self.answers if a.run == run), None)

    @property
    def mean(self) -> float:
        """Mean score over model / human runs (baselines when none), NaN when unscored."""
        chosen = [a.score for a in self.answers if a.kind != "baseline" and a.score is not None]
        if not chosen:
            chosen = [a.score for a in self.answers if a.score is not None]
        return sum(chosen) / len(chosen) if chosen else math.nan


def _answer(run: RunData, shown: Item, row: dict[str, Any] | None) -> RunAnswer:
    item_id, own = shown.id, run.item(shown).ground_truth
    stored = run.answers.get(item_id)
    score = row["score"] if row is not None else None
    extracted = row["extracted"] if row is not None else None
    return RunAnswer(
        run=run.label,
        kind=run.kind,
        status=stored.status if stored else "not answered",
        response=row["prediction"] if row is not None and row["prediction"] is not None
        else (stored.response if stored else None),
        extracted=None if _missing(extracted) else extracted,
        rule=row["rule"] if row is not None else None,
        score=None if _missing(score) else float(score or 0.0),
        frames=list(stored.prompt.get("media", [])) if stored else [],
        blind=run.config.prompt.blind,
        error=stored.error if stored else None,
        settings=settings_line(run.folder),
        truth=None if own == shown.ground_truth else str(own),
    )


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def item_views(runs: Sequence[RunData]) -> list[ItemView]:
    """One view per item of any run (first run's order first), each with every run's answer."""
    views: dict[str, ItemView] = {}
    for run in runs:
        for item in run.items:
            views.setdefault(item.id, ItemView(item, page_name(item.id)))
    for run in runs:
        rows = {str(r["id"]): r for r in run.result.rows.to_dict("records")}
        for item_id, view in views.items():
            if item_id in run.by_id:
                view.answers.append(_answer(run, view.item, rows.get(item_id)))
    return list(views.values())


def worst_first(views: Sequence[ItemView]) -> dict[str, list[ItemView]]:
    """Task → its items, lowest mean score first (unscored last; ties by id), tasks in first-seen order."""
    by_task: dict[str, list[ItemView]] = {}
    for view in views:
        by_task.setdefault(view.item.task, []).append(view)
    for task_views in by_task.values():
        task_views.sort(key=lambda v: (math.isnan(v.mean), 0.0 if math.isnan(v.mean) else v.mean, v.item.id))
    return by_task
