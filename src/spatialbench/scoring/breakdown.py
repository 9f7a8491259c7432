"""Accuracy broken down by named groups, each with its random-guess baseline and extraction failures.

One grouping combinator serves every benchmark's tables (MMSI-Video-Bench Tables 2, 3, 6; ReMindView-Bench
Table 1): a :class:`Group` is a name and a predicate on items; :func:`breakdown` scores each group over the
outcomes it selects. Accuracy is the share of correct answers among the group's items, in percent (a failed
extraction counts as wrong and is reported in ``failures``). The random-guess baseline of a group is the mean
of ``1 / number of options`` over its items, in percent — the expected accuracy of guessing uniformly.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from spatialbench.records.item import Item
from spatialbench.registry import Registry
from spatialbench.scoring.tables import Column, ScoreTable, build_table


@dataclass(frozen=True)
class Outcome:
    """One scored item: whether the extracted answer was right, and whether an answer was extracted."""

    item: Item
    correct: bool
    answered: bool = True


@dataclass(frozen=True)
class Group:
    """A named group of items (``selects(item)`` is True for its members)."""

    name: str
    selects: Callable[[Item], bool]


@dataclass(frozen=True)
class Cell:
    """A group's score.

    Attributes:
        group: group name as printed.
        n: number of items in the group.
        accuracy: percent correct, None for an empty group.
        chance: random-guess baseline in percent (mean of 1 / options), None for an empty group.
        failures: items whose answer could not be extracted (counted wrong).
    """

    group: str
    n: int
    accuracy: float | None
    chance: float | None
    failures: int


@dataclass(frozen=True)
class Table:
    """A titled row of cells."""

    title: str
    cells: tuple[Cell, ...]

    def cell(self, group: str) -> Cell:
        """Return the cell of ``group``; KeyError naming the known groups otherwise."""
        for cell in self.cells:
            if cell.group == group:
                return cell
        raise KeyError(f"no group {group!r} in table {self.title!r}; groups: {[c.group for c in self.cells]}")

    def to_markdown(self, digits: int = 1) -> str:
        """Render the table as Markdown: one row of accuracy, one of random guess, one of n and failures."""
        head = "| " + " | ".join(["", *(c.group for c in self.cells)]) + " |"
        rule = "|" + "---|" * (len(self.cells) + 1)
        rows = [
            _row("accuracy", [_fmt(c.accuracy, digits) for c in self.cells]),
            _row("random guess", [_fmt(c.chance, digits) for c in self.cells]),
            _row("n", [str(c.n) for c in self.cells]),
            _row("extraction failures", [str(c.failures) for c in self.cells]),
        ]
        return "\n".join([f"**{self.title}**", "", head, rule, *rows])


def _row(label: str, values: Sequence[str]) -> str:
    return "| " + " | ".join([label, *values]) + " |"


def _fmt(value: float | None, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def chance_accuracy(items: Iterable[Item]) -> float | None:
    """Random-guess accuracy in percent: mean of ``1 / len(item.options)``; None when there are no items.

    Raises:
        ValueError: an item without options (the baseline is defined for multiple choice only).
    """
    inverse = []
    for item in items:
        if not item.options:
            raise ValueError(f"item {item.id!r} has no options; random guess is defined for multiple choice")
        inverse.append(1.0 / len(item.options))
    return 100.0 * sum(inverse) / len(inverse) if inverse else None


def score_group(outcomes: Sequence[Outcome], group: Group) -> Cell:
    """Score one group over the outcomes it selects."""
    chosen = [o for o in outcomes if group.selects(o.item)]
    accuracy = 100.0 * sum(o.correct for o in chosen) / len(chosen) if chosen else None
    failures = sum(not o.answered for o in chosen)
    return Cell(group.name, len(chosen), accuracy, chance_accuracy(o.item for o in chosen), failures)


def breakdown(title: str, outcomes: Sequence[Outcome], groups: Sequence[Group]) -> Table:
    """Score each group, in the given order, into one table."""
    return Table(title, tuple(score_group(outcomes, group) for group in groups))


def everything(item: Item) -> bool:
    """Select all items (the ``Avg.`` group)."""
    return True


def field_equals(key: str, value: object) -> Callable[[Item], bool]:
    """Select items whose ``metadata[key]`` equals ``value``."""
    return lambda item: item.metadata.get(key) == value


def task_in(tasks: Iterable[str]) -> Callable[[Item], bool]:
    """Select items whose ``task`` is one of ``tasks``."""
    wanted = frozenset(tasks)
    return lambda item: item.task in wanted


def id_in(ids: Iterable[str]) -> Callable[[Item], bool]:
    """Select items whose id is one of ``ids``."""
    wanted = frozenset(ids)
    return lambda item: item.id in wanted


def outcomes_from_rows(items: Iterable[Item], rows: pd.DataFrame) -> list[Outcome]:
    """Pair items with their per-item score rows (``score_items(...).rows``: ``id``, ``score``, ``answered``).

    Items without a row, and rows with no score (data errors), are left out.
    """
    by_id = {str(r["id"]): r for r in rows.to_dict(orient="records")}
    outcomes = []
    for item in items:
        row = by_id.get(item.id)
        if row is not None and pd.notna(row["score"]):
            outcomes.append(Outcome(item, bool(row["score"] >= 1.0), bool(row["answered"])))
    return outcomes


def micro_table(rows: pd.DataFrame, columns: Sequence[Column]) -> ScoreTable:
    """Build a :class:`ScoreTable` whose column scores and ``average`` are question-weighted.

    Unlike :func:`spatialbench.scoring.tables.build_table` (a column of several tasks is the mean of its task
    means; Avg is the mean of the columns), every score here is the mean over the questions it covers, as
    MMSI-Video-Bench ("Overall") and ReMindView-Bench compute theirs. ``averaged_over`` lists the columns with
    items; ``average`` covers the scored rows of the tasks the columns name; tasks no column names are
    listed in ``other_tasks`` and are not in ``average`` (``weighting`` is ``"questions"``).
    """
    scored = rows[rows["score"].notna()]
    scores: dict[str, float | None] = {}
    for column in columns:
        chosen = scored[scored["task"].isin(column.tasks)]
        scores[column.key] = 100.0 * float(chosen["score"].mean()) if len(chosen) else None
    covered = scored[scored["task"].isin({t for c in columns for t in c.tasks})]
    average = 100.0 * float(covered["score"].mean()) if len(covered) else None
    return replace(build_table(rows, columns), scores=scores, average=average, weighting="questions")


BreakdownFn = Callable[..., list[Table]]
"""``fn(items, rows, **options) -> tables``: a benchmark's breakdown tables for ``spatialbench score``."""

#: benchmark name → its breakdown tables (MMSI-Video-Bench: ``sub_bench=``, ``data_dir=`` options)
BREAKDOWNS: Registry[BreakdownFn] = Registry("benchmark breakdown")


def breakdown_tables(
    benchmark: str,
    items: Iterable[Item],
    rows: pd.DataFrame,
    warnings: list[str] | None = None,
    **options: Any,
) -> list[Table]:
    """Return the breakdown tables of ``benchmark`` (empty when it registers none).

    Options the benchmark's function does not take are dropped when None and refused otherwise (a
    ``sub_bench`` for ReMindView-Bench is an error, not silently ignored). ``warnings``, when given and taken
    by the function, collects lines about tables left out or items outside a table.

    Raises:
        ValueError: an option (not None) the benchmark's breakdown does not take; whatever the benchmark's
            function raises for bad options (e.g. an unknown sub-benchmark).
    """
    from spatialbench.benchmarks.registry import discover

    discover()  # benchmark packages register their breakdowns on import
    if benchmark not in BREAKDOWNS:
        return []
    fn = BREAKDOWNS.get(benchmark)
    taken = set(inspect.signature(fn).parameters)
    refused = [name for name, value in options.items() if name not in taken and value is not None]
    if refused:
        names = ", ".join("--" + name.replace("_", "-") for name in refused)
        raise ValueError(f"{names} does not apply to {benchmark} (its breakdown takes no such option)")
    kept = {name: value for name, value in options.items() if name in taken}
    if warnings is not None and "warnings" in taken:
        kept["warnings"] = warnings
    return fn(list(items), rows, **kept)
