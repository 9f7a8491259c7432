"""The leaderboard (VSI-Bench Fig. 6 layout) and breakdowns across runs, as grids for the one renderer.

The grids are rendered by :mod:`spatialbench.scoring.render` (Markdown, CSV, LaTeX).

Fig. 6 prints one row per method in sections — Baseline (the chance levels), Human Level, then the
models — with a Rank among the models, Avg. and one column per table cell, the columns under the header
groups of the benchmark's own table (``ScoringRules.column_groups``: Fig. 6 "Numerical Answer" /
"Multiple-Choice Answer", MMSI-Video-Bench Table 2 "Spatial Construction" …). The best value of each
column among the model runs is marked, and the second best (bold / underlined, as the papers mark them).
Here a section holds the runs of one kind
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
from spatialbench.scoring.grouped import Cell, Table
from spatialbench.scoring.render import CI_ROW, Grid, Value, interval_cell, spans, to_latex
from spatialbench.scoring.uncertainty import cells_ci

SECTIONS = (("baseline", "Baseline"), ("human", "Human Level"), ("model", "Models"), ("blind", "Models"))
BEST, SECOND = "best", "second"


@dataclass(frozen=True)
class Leaderboard:
    """Rows of the main table: ``sections`` is ``[(section title, [(run label, rank, values)])]``.

    ``header`` = ``("Avg.", *cell labels)``; ``values`` follow it (percent, None = ``-``); ``groups`` is the
    column-group header of each cell column ("" when in none); ``keys`` the cells' JSON keys.
    """

    header: tuple[str, ...]
    keys: tuple[str, ...]
    groups: tuple[str, ...]
    sections: tuple[tuple[str, tuple[tuple[str, int | None, tuple[Value, ...]], ...]], ...]
    intervals: dict[str, tuple[tuple[Any, int, bool], ...]] = field(default_factory=dict)
    """Row label → ``(ci95, n, fewer than 30)`` for Avg. and each cell (:mod:`.protocols`)."""
    left_out: tuple[str, ...] = ()
    """Labels of the benchmark's cells no run has items for: not columns (BLINK's 14 subtasks, 3 answered)."""

    @property
    def note(self) -> str | None:
        """The line naming the :attr:`left_out` cells (the grid's title, printed above the table), or None."""
        if not self.left_out:
            return None
        return (f"No run has items for {len(self.left_out)} of the {len(self.left_out) + len(self.keys)} "
                f"tasks (not shown; Avg. is over the tasks shown): {', '.join(self.left_out)}")

    def grid(self) -> Grid:
        """Return the leaderboard as one :class:`Grid` (section titles as empty rows; Rank first).

        Its title is :attr:`note` (None when every cell has items).
        """
        rows: list[tuple[str, tuple[Value, ...]]] = []
        for title, entries in self.sections:
            rows.append((title, ("",) * (len(self.header) + 1)))
            rows += [(name, (rank if rank is not None else "-", *values)) for name, rank, values in entries]
        groups = self.group_spans()
        over = (("", 2), *groups) if groups else ()  # Rank and Avg. stand under no group
        return Grid(("Rank", *self.header), tuple(rows), self.note, groups=over)

    def group_spans(self) -> list[tuple[str, int]]:
        """Return the top header row over the cell columns: ``[(group label, columns spanned)]``.

        Adjacent columns of one group share a header; the spans add up to the number of cell columns.
        Empty when no column is in a group (the table has one header row).
        """
        return list(spans(self.groups))

    def marks(self) -> dict[str, tuple[str | None, ...]]:
        """Row label → per value column :data:`BEST`, :data:`SECOND` or None, among the model runs.

        Best is a column's highest value within one Models section, second the next lower value (ties
        share a mark): sections are ranked apart (MMSI-Video-Bench Uniform-50 and Sufficient-Coverage,
        Table 2). A column with fewer than two model values, or one value shared by all, is not marked.
        A cell of fewer than 30 items (too few to rank by, :attr:`intervals`) is neither marked nor
        counted. Other rows are never marked.
        """
        marked: dict[str, tuple[str | None, ...]] = {}
        for title, rows in self.sections:
            if title.startswith("Models"):
                marked.update(self._section_marks([(name, values) for name, _, values in rows]))
        return marked

    def _section_marks(self, entries: list[tuple[str, Sequence[Value]]]) -> dict[str, tuple[str | None, ...]]:
        marked: dict[str, list[str | None]] = {name: [None] * len(self.header) for name, _ in entries}
        for column in range(len(self.header)):
            numbers = {name: _sortable(v[column]) for name, v in entries
                       if _sortable(v[column]) > -math.inf and not self._small(name, column)}
            ranked = sorted(set(numbers.values()), reverse=True)
            if len(numbers) < 2 or len(ranked) < 2:
                continue  # one value, or all equal: nothing stands out
            best, second = ranked[0], ranked[1]
            for name, number in numbers.items():
                marked[name][column] = BEST if number == best else SECOND if number == second else None
        return {name: tuple(row) for name, row in marked.items()}

    def _small(self, name: str, column: int) -> bool:
        cells = self.intervals.get(name) or ()
        return column < len(cells) and bool(cells[column][2])

    def marked_grid(self) -> Grid:
        """:meth:`grid` with the best values in bold and the second best underlined (Markdown text)."""
        marks, plain = self.marks(), self.grid()
        rows = []
        for name, values in plain.rows:
            row = marks.get(name, (None,) * len(self.header))
            rows.append((name, (values[0], *(_marked(v, m) for v, m in zip(values[1:], row, strict=True)))))
        return Grid(plain.header, tuple(rows), plain.title, plain.groups)

    def latex(self) -> str:
        """Return the leaderboard as LaTeX: the group row over its columns, best bold, second underlined."""
        marks = {name: (None, *row) for name, row in self.marks().items()}  # Rank is never marked
        return to_latex(self.grid(), corner="Method", marks=marks)

    def interval_grid(self) -> Grid:
        """Return each row's 95 % interval and n per column (``[low, high] n=N``, ``*``: under 30 items)."""
        rows = [(name, tuple(_interval_text(*c) for c in cells)) for name, cells in self.intervals.items()]
        return Grid(self.header, tuple(rows), "95 % intervals (scene-clustered bootstrap) and n")


def _marked(value: Value, mark: str | None) -> Value:
    if mark is None or not isinstance(value, (int, float)):
        return value
    return f"**{value:.1f}**" if mark == BEST else f"<u>{value:.1f}</u>"


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
    if run.kind == "human":  # a run in progress is scored on its answered items only: say how many
        done, sample = len(run.result.rows), len(run.items)
        progress = f", in progress: {done} of {sample}" if done < sample else ""
        return f"Human Level ({name.partition(':')[2] or run.label}{progress})"
    return f"{run.label} (blind)" if run.kind == "blind" else run.label


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
    cells, left_out = _answered_cells(runs)
    keys = tuple(c.key for c in cells)
    header = (first.average_label, *(c.group for c in cells))
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
    groups = tuple(runs[0].spec.scoring.group_of(k) for k in keys)
    intervals = {labels[id(r)]: protocols.cell_intervals(r, keys) for r in runs}
    return Leaderboard(header, keys, groups, tuple(sections), intervals, left_out)


def _answered_cells(runs: Sequence[RunData]) -> tuple[list[Cell], tuple[str, ...]]:
    """Return the first run's cells to show, and the labels of those left out (no run has items for them).

    A table mostly of ``-`` columns hides what was measured (BLINK defines 14 subtasks; a run of three
    drew a leaderboard wider than the page and 11 empty figure rows, issue 24): when more than half of
    the cells have no items in any run, those are left out and named in the table's note. Otherwise all
    stay, as the paper's table has them (a ReVSI run without object-size questions keeps its "-").
    """
    cells = runs[0].result.table.cells
    answered = {c.key for r in runs for c in r.result.table.cells if c.n}
    empty = [c for c in cells if c.key not in answered]
    if not answered or 2 * len(empty) <= len(cells):
        return list(cells), ()
    return [c for c in cells if c.key in answered], tuple(c.group for c in empty)


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
        ranks = competition_ranks([values[id(r)][0] for r in rows])
        out.append((title, rows, {id(r): rank for r, rank in zip(rows, ranks, strict=True)}))
    return out


def competition_ranks(averages: Sequence[Value]) -> list[int]:
    """Rank by Avg., highest first, runs tied on it sharing a rank ("1, 2, 2, 4"); no Avg. ranks last."""
    keys = [_sortable(a) for a in averages]
    return [1 + sum(other > key for other in keys) for key in keys]


def _average(run: RunData) -> Value:
    """Avg. of a run; ``-`` for a baseline that does not apply to some columns (Fig. 6 chance (random))."""
    return None if run.result.not_applicable else run.result.table.average


def _sortable(value: Value) -> float:
    return float(value) if isinstance(value, (int, float)) and not math.isnan(value) else -math.inf


def breakdown_grids(runs: Sequence[RunData]) -> list[Grid]:
    """Per breakdown title, a grid with one accuracy and one interval row per run, random guess (first run's).

    The random-guess row is left out when a chance-random run is among the runs: its row is that baseline
    (the papers print it once, "Random Guessing" / "Random Choice").

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
    random_run = any(r.kind == "baseline" and r.config.model.name.startswith("chance-random") for r in runs)
    for title, pairs in titled.items():
        cells = pairs[0][1].cells
        rows: list[tuple[str, tuple[Value, ...]]] = []
        intervals: list[tuple[str, tuple[Any, ...]]] = []
        for run, table in pairs:  # each run's accuracy, then its n-marked 95 % intervals
            own = {c.key: (ci, c.n) for c, ci in zip(table.cells, cells_ci(table), strict=True)}
            rows.append((row_label(run), tuple(table.scores.get(c.key) for c in cells)))
            rows.append((f"{row_label(run)} {CI_ROW}",
                         tuple(interval_cell(*own[c.key]) if c.key in own else None for c in cells)))
            intervals.append((row_label(run), tuple(own[c.key][0] if c.key in own else None for c in cells)))
        if not random_run and any(c.chance is not None for c in cells):
            rows.append(("random guess", tuple(c.chance for c in cells)))
        rows.append(("n", tuple(c.n for c in cells)))
        groups = spans([runs[0].spec.scoring.group_of(c.key) for c in cells])  # MMSI Table 2, per dataset
        grids.append(Grid(tuple(c.group for c in cells), tuple(rows), title, groups, tuple(intervals)))
    return grids


def _breakdowns(run: RunData) -> list[Table]:
    """Return the benchmark's breakdown tables of one run; one that cannot be built is left out."""
    try:
        return run.spec.breakdown_tables(run.items, run.result.rows, [], data_dir=data_root(str(run.data)))
    except (KeyError, FileNotFoundError, ValueError):
        return []

