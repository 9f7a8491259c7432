"""Browse's item list over every item: filters, search words, a sort column and its direction, pages.

The query parameters (``task``, ``scene``, ``dataset``, ``kind``, ``q``, ``sort``, ``order``) apply to all
items before the page of 100 is cut, so a search finds an item on any page and a sort by a run's score
puts the benchmark's best item first. A filter given more than once keeps the items of any of its values
(``?task=a&task=b``: the union of the two tasks). ``sort`` is ``id``, ``task``, ``scene``, ``question``,
``truth`` or ``run:NAME`` (that run's score; unscored items last in either direction); unknown names keep
the benchmark's order. The item page reads the same parameters (:func:`listing_query`), so its previous /
next links walk the list browse showed and its browse link returns to it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Query

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
    """The browse request: chosen filter values, search words, sort column and order (``asc`` / ``desc``).

    ``chosen`` maps each of :data:`FILTERS` to the values kept (none: every item).
    """

    chosen: dict[str, tuple[str, ...]]
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
        return all(value_of(item, k) in v for k, v in self.chosen.items() if v) and searched(item, self.q)

    def pairs(self, **changed: str | int) -> list[tuple[str, str]]:
        """Return this request's parameters, ``changed`` ones replaced; defaults left out unless changed.

        A filter with several values gives one pair per value, in the order they were chosen.
        """
        given = {**{k: list(v) for k, v in self.chosen.items()}, "q": self.q, "sort": self.sort,
                 "order": "" if self.order == "asc" else self.order, **changed}
        return [(key, str(value)) for key, values in given.items()
                for value in (values if isinstance(values, list) else [values])
                if value != "" or key in changed]

    def query(self, **changed: str | int) -> str:
        """Return :meth:`pairs` as a query string (``q=trash+bin&sort=run%3Acot&order=desc``; no ``?``)."""
        return urlencode(self.pairs(**changed))

    def header(self, key: str, label: str) -> dict[str, Any]:
        """Return a column header: its label, link (a click sorts by it, again reverses) and ``aria-sort``."""
        active = self.sort == key
        order = "desc" if active and self.order == "asc" else "asc"
        aria = ("descending" if self.order == "desc" else "ascending") if active else "none"
        return {"label": label, "href": "?" + self.query(sort=key, order=order), "aria": aria,
                "arrow": {"ascending": "▲", "descending": "▼"}.get(aria, "")}


Values = Annotated[list[str] | None, Query()]
"""A filter's query parameter: repeated for several values (``?task=a&task=b``); empty values ignored."""


def listing_query(task: Values = None, scene: Values = None, dataset: Values = None, kind: Values = None,
                  q: str = "", sort: str = "", order: str = "asc") -> Listing:
    """Read the browse list's parameters (a FastAPI dependency of browse and of the item page)."""
    given = {"task": task, "scene": scene, "dataset": dataset, "kind": kind}
    chosen = {name: tuple(dict.fromkeys(v for v in values or () if v)) for name, values in given.items()}
    return Listing(chosen, q, sort, "desc" if order == "desc" else "asc")


def _score(run: ServedRun, item_id: str) -> float | None:
    value = (run.scores.get(item_id) or {}).get("score")
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
