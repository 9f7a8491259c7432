"""The leaderboard (VSI-Bench Fig. 6 layout) and breakdowns across runs, as grids for the one renderer.

The grids are rendered by :mod:`spatialbench.scoring.render` (Markdown, CSV, LaTeX).

Fig. 6 prints one row per method in sections — Baseline (the chance levels), Human Level, then the
models — with a Rank among the models, Avg. and one column per table cell, the columns grouped by answer
kind ("Numerical Answer" / "Multiple-Choice Answer"). Here a section holds the runs of one kind
(:attr:`~spatialbench.report.runs.RunData.kind`): ``baseline`` and ``human`` runs are not ranked; model and
blind runs are ranked together by Avg. (1 = best). MMSI-Video-Bench (Table 2) and ReMindView-Bench (Table 1)
use the same layout over their own score tables; a benchmark's breakdown tables (MMSI Table 3 and
difficulty levels, ReMindView object count / distance) become one grid per breakdown with a row per run
plus the random-guess row; each run's row is followed by its 95 % intervals (``*``: under 30 items).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spatialbench.report import protocols
from spatialbench.report.runs import RunData
from spatialbench.runs.plan import data_root
from spatialbench.scoring.grouped import Table
from spatialbench.scoring.render import CI_ROW, Grid, Value, interval_cell
from spatialbench.scoring.uncertainty import cells_ci

SECTIONS = (("baseline", "Baseline"), ("human", "Human Level"), ("model", "Models"), ("blind", "Models"))
KIND_HEADERS = {"numerical": "Numerical Answer", "multiple_choice": "Multiple-Choice Answer"}


@dataclass(frozen=True)
class Leaderboard:
    """Rows of the main table: ``sections`` is ``[(section title, [(run label, rank, values)])]``.

    ``header`` = ``("Avg.", *cell labels)``; ``values`` follow it (percent, None = ``-``); ``kinds`` is the
    answer-kind header of each cell column (empty when mixed or unknown); ``keys`` the cells' JSON keys.
    """

    header: tuple[str, ...]
    keys: tuple[str, ...]
    kinds: tuple[str, ...]
    sections: tuple[tuple[str, tuple[tuple[str, int | None, tuple[Value, ...]], ...]], ...]
    intervals: dict[str, tuple[tuple[Any, int, bool], ...]] = field(default_factory=dict)
    """Row label → ``(ci95, n, fewer than 30)`` for Avg. and each cell (:mod:`.protocols`)."""

    def grid(self) -> Grid:
        """Return the leaderboard as one :class:`Grid` (section titles as empty rows; Rank first)."""
        rows: list[tuple[str, tuple[Value, ...]]] = []
        for title, entries in self.sections:
            rows.append((title, ("",) * (len(self.header) + 1)))
            rows += [(name, (rank if rank is not None else "-", *values)) for name, rank, values in entries]
        return Grid(("Rank", *self.header), tuple(rows))

    def interval_grid(self) -> Grid:
        """Return each row's 95 % interval and n per column (``[low, high] n=N``, ``*``: under 30 items)."""
        rows = [(name, tuple(_interval_text(*c) for c in cells)) for name, cells in self.intervals.items()]
        return Grid(self.header, tuple(rows), "95 % intervals (scene-clustered bootstrap) and n")


def _interval_text(ci: Any, n: int, small: bool) -> str:
    if not n:
        return "-"
    return (f"[{ci[0]:.1f}, {ci[1]:.1f}] " if ci else "") + f"n={n}" + ("*" if small else "")


def row_label(run: RunData) -> str:
    """Row name: chance levels as the paper names them, blind runs marked, others by folder name."""
    name = run.config.model.name
    if run.kind == "baseline":
        return {"chance-random": "Chance Level (Random)", "chance-frequency": "Chance Level (Frequency)"}.get(
            name.partition(":")[0], name)
    if run.kind == "human":
        return f"Human Level ({name.partition(':')[2] or run.label})"
    return f"{run.label} (blind)" if run.kind == "blind" else run.label


def _kind(run: RunData, table: Table, key: str) -> str:
    cell = next(c for c in table.cells if c.key == key)
    rows = run.result.rows
    tasks = {str(p) for p in cell.parts} or set(rows["task"].astype(str))
    kinds = set(rows.loc[rows["task"].astype(str).isin(tasks), "answer_kind"])
    return KIND_HEADERS.get(kinds.pop(), "") if len(kinds) == 1 else ""


def leaderboard(runs: Sequence[RunData]) -> Leaderboard:
    """Build the main table over ``runs`` (all of one benchmark; the first run's table gives the columns).

    Raises:
        ValueError: no runs, or runs of different benchmarks.
    """
    if not runs:
        raise ValueError("no runs to tabulate")
    benchmarks = sorted({r.spec.name for r in runs})
    if len(benchmarks) > 1:
        raise ValueError(f"runs of different benchmarks cannot share a table: {', '.join(benchmarks)}")
    first = runs[0].result.table
    keys = tuple(c.key for c in first.cells)
    header = ("Avg. (question-weighted)" if first.weighting == "questions" else "Avg.",
              *(c.group for c in first.cells))
    values = {id(r): (_average(r), *(r.result.table.scores.get(k) for k in keys)) for r in runs}
    marks = protocols.item_marks(runs)
    labels = {id(r): row_label(r) for r in runs}
    sections = []
    for title in dict.fromkeys(t for _, t in SECTIONS):
        kinds = {k for k, t in SECTIONS if t == title}
        chosen = [r for r in runs if r.kind in kinds]
        parts = _protocol_sections(chosen, values) if title == "Models" else [(title, chosen, {})]
        sections += [(name, tuple((labels[id(r)], _rank(ranks.get(id(r)), marks.get(id(r))), values[id(r)])
                                  for r in rows)) for name, rows, ranks in parts if rows]
    kind_row = tuple(_kind(runs[0], first, k) for k in keys)
    intervals = {labels[id(r)]: protocols.cell_intervals(r, keys) for r in runs}
    return Leaderboard(header, keys, kind_row, tuple(sections), intervals)


def _rank(rank: int | None, mark: str | None) -> Any:
    return rank if mark is None else f"{'-' if rank is None else rank}{mark}"


def _protocol_sections(runs: list[RunData], values: dict[int, tuple[Value, ...]]) -> list[tuple[str, list,
                                                                                                 dict]]:
    """Model runs per protocol section (:mod:`~spatialbench.report.protocols`), each ranked apart by Avg."""
    parts: dict[str, list[RunData]] = {}
    for run in runs:
        parts.setdefault(protocols.section_title(run), []).append(run)
    out: list[tuple[str, list, dict]] = []
    for title, rows in sorted(parts.items(), key=lambda p: p[0] == protocols.MAPS_SECTION):
        if title == protocols.MAPS_SECTION:
            out.append((title, rows, {}))
            continue
        rows = sorted(rows, key=lambda r: -_sortable(values[id(r)][0]))
        out.append((title, rows, {id(r): k + 1 for k, r in enumerate(rows)}))
    return out


def _average(run: RunData) -> Value:
    """Avg. of a run; ``-`` for a baseline that does not apply to some columns (Fig. 6 chance (random))."""
    return None if run.result.not_applicable else run.result.table.average


def _sortable(value: Value) -> float:
    return float(value) if isinstance(value, (int, float)) and not math.isnan(value) else -math.inf


def breakdown_grids(runs: Sequence[RunData]) -> list[Grid]:
    """Per breakdown title, a grid with one accuracy and one interval row per run, random guess (first run's).

    The per-dataset tables (``ScoreResult.by_dataset``) come first, titled ``Dataset: NAME``, when the
    runs span more than one dataset; then the benchmark's own breakdowns (empty for VSI-Bench).
    """
    titled: dict[str, list[tuple[RunData, Table]]] = {}
    for run in runs:
        tables = list(run.result.by_dataset.items()) if len(run.result.by_dataset) > 1 else []
        for name, table in tables:
            titled.setdefault(f"Dataset: {name}", []).append((run, table))
        for table in _breakdowns(run):
            titled.setdefault(table.title, []).append((run, table))
    grids = []
    for title, pairs in titled.items():
        cells = pairs[0][1].cells
        rows: list[tuple[str, tuple[Value, ...]]] = []
        for run, table in pairs:  # each run's accuracy, then its n-marked 95 % intervals
            own = {c.key: (ci, c.n) for c, ci in zip(table.cells, cells_ci(table), strict=True)}
            rows.append((row_label(run), tuple(table.scores.get(c.key) for c in cells)))
            rows.append((f"{row_label(run)} {CI_ROW}",
                         tuple(interval_cell(*own[c.key]) if c.key in own else None for c in cells)))
        if any(c.chance is not None for c in cells):
            rows.append(("random guess", tuple(c.chance for c in cells)))
        rows.append(("n", tuple(c.n for c in cells)))
        grids.append(Grid(tuple(c.group for c in cells), tuple(rows), title))
    return grids


def _breakdowns(run: RunData) -> list[Table]:
    """Return the benchmark's breakdown tables of one run; one that cannot be built is left out."""
    try:
        return run.spec.breakdown_tables(run.items, run.result.rows, [], data_dir=data_root(str(run.data)))
    except (KeyError, FileNotFoundError, ValueError):
        return []

