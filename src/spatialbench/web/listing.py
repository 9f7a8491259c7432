"""Browse's item list over every item: filters, search words, a sort column and its direction, pages.

The query parameters (``task``, ``scene``, ``dataset``, ``kind``, ``q``, ``sort``, ``order``) apply to all
items before the page of 100 is cut, so a search finds an item on any page and a sort by a run's score
puts the benchmark's best item first. ``sort`` is ``id``, ``task``, ``scene``, ``question``, ``truth`` or
``run:NAME`` (that run's score; unscored items last in either direction); unknown names keep the
benchmark's order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from spatialbench.records.item import Item
from spatialbench.web.runs import ServedRun

FILTERS = ("task", "scene", "dataset", "kind")
COLUMNS = ("id", "task", "scene", "question", "truth")


def value_of(item: Item, name: str) -> str:
    """Return the item's value of filter ``name`` (``task``, ``scene``, ``dataset`` or ``kind``)."""
    return {"task": item.task, "scene": item.scene_id or "", "dataset": item.dataset or "",
            "kind": item.answer_kind.value}[name]


def searched(item: Item, query: str) -> bool:
    """Whether every word of ``query`` is in the item's id, task, scene, question, options or truth."""
    text = " ".join([item.id, item.task, item.scene_id or "", item.question, *(item.options or ()),
                     str(item.ground_truth)]).lower()
    return all(word in text for word in query.lower().split())


def _natural(text: str) -> tuple[int, float, str]:
    """Numbers as numbers (``2`` before ``10``), then text."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text.lower())


@dataclass(frozen=True)
class Listing:
    """The browse request: chosen filters, search words, sort column and order (``asc`` / ``desc``)."""

    chosen: dict[str, str]
    q: str = ""
    sort: str = ""
    order: str = "asc"

    def rows(self, items: Sequence[Item], runs: Sequence[ServedRun]) -> list[Item]:
        """Return the items that pass the filters and the search, in the chosen order (all pages)."""
        kept = [i for i in items if self._kept(i)]
        descending = self.order == "desc"
        if self.sort in COLUMNS:
            field = {"id": lambda i: i.id, "task": lambda i: i.task, "scene": lambda i: i.scene_id or "",
                     "question": lambda i: i.question, "truth": lambda i: str(i.ground_truth)}[self.sort]
            return sorted(kept, key=lambda i: _natural(field(i)), reverse=descending)
        run = next((r for r in runs if f"run:{r.name}" == self.sort), None)
        if run is None:
            return kept
        scored = [(score, i) for i in kept if (score := _score(run, i.id)) is not None]
        scored.sort(key=lambda pair: pair[0], reverse=descending)  # stable: ties keep benchmark order
        unscored = [i for i in kept if _score(run, i.id) is None]
        return [i for _, i in scored] + unscored

    def _kept(self, item: Item) -> bool:
        return all(value_of(item, k) == v for k, v in self.chosen.items() if v) and searched(item, self.q)

    def query(self, **changed: str) -> str:
        """Return this request's query string with ``changed`` parameters replaced (no page number)."""
        return urlencode({**self.chosen, "q": self.q, "sort": self.sort, "order": self.order, **changed})

    def header(self, key: str, label: str) -> dict[str, Any]:
        """Return a column header: its label, link (a click sorts by it, again reverses) and ``aria-sort``."""
        active = self.sort == key
        order = "desc" if active and self.order == "asc" else "asc"
        aria = ("descending" if self.order == "desc" else "ascending") if active else "none"
        return {"label": label, "href": "?" + self.query(sort=key, order=order), "aria": aria,
                "arrow": {"ascending": "▲", "descending": "▼"}.get(aria, "")}


def _score(run: ServedRun, item_id: str) -> float | None:
    value = (run.scores.get(item_id) or {}).get("score")
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
