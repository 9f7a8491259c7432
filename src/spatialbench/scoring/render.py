"""The one renderer of tables: Markdown, CSV, LaTeX and JSON of a :class:`Grid` (rows of values).

Every table spatialbench prints or writes — the leaderboard and breakdowns, each analysis's tables
(``Analysis.tables``), the commands' printed tables — is a :class:`Grid` rendered here, so a new table
needs no writer of its own. Grids of :class:`~spatialbench.scoring.grouped.Table` come in

two layouts of the same cells:

* score layout (:func:`score_grid`) — one row per named table (``all``, ``debiased``, one per dataset),
  columns ``Avg.`` then the cells (VSI-Bench Fig. 6, MMSI-Video-Bench Table 2 as registered tables);
* breakdown layout (:func:`breakdown_grid`) — one column per cell, rows accuracy / 95 % interval / random
  guess / n / extraction failures (MMSI-Video-Bench Tables 2, 3, 6; ReMindView-Bench Table 1); intervals
  are the scene-clustered bootstrap of :mod:`spatialbench.scoring.uncertainty`, ``*`` marking a cell of
  fewer than :data:`~spatialbench.scoring.uncertainty.SMALL` items.

Scores print with one decimal; a missing value prints ``-``. CSV text cells that a spreadsheet would run
as a formula (starting ``=``, ``+``, ``-``, ``@``, tab or carriage return) get a leading ``'``
(:func:`spreadsheet_safe`); numbers are written as numbers. LaTeX (:func:`to_latex`) is a booktabs
``tabular`` with the special characters escaped and minus signs typeset as ``$-$``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spatialbench.scoring.grouped import Table
from spatialbench.scoring.uncertainty import RESAMPLES, SEED, SMALL, Interval, cells_ci, small_cells

Value = float | int | str | None
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """Return ``value`` with a leading ``'`` if it is text starting like a formula; other values unchanged.

    Model responses and file contents are untrusted: ``=HYPERLINK(...)`` in a CSV cell would run when the
    file is opened in a spreadsheet. ``"-5"`` becomes ``"'-5"``; the float ``-5.0`` stays a number.
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


@dataclass(frozen=True)
class Grid:
    """Rows of values under a header; ``title`` (bold above the Markdown) is optional.

    ``groups``: a header row above ``header``, ``(label, columns spanned)`` over its columns in order (""
    leaves its columns blank; :func:`spans`), as a paper groups its columns; drawn in LaTeX and HTML.
    ``intervals``: ``(row label, the 95 % interval of each column)`` for rows whose intervals a figure
    draws as error bars (the text rows show them as :func:`interval_cell`).
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Value, ...]], ...]
    title: str | None = None
    groups: tuple[tuple[str, int], ...] = ()
    intervals: tuple[tuple[str, tuple[Interval, ...]], ...] = ()


def spans(labels: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Return runs of equal adjacent ``labels`` as ``(label, count)``; () when every label is "".

    ``spans(["A", "A", "", "B"]) == (("A", 2), ("", 1), ("B", 1))``; the counts add up to ``len(labels)``.
    """
    out: list[tuple[str, int]] = []
    for label in labels:
        if out and out[-1][0] == label:
            out[-1] = (label, out[-1][1] + 1)
        else:
            out.append((label, 1))
    return tuple(out) if any(labels) else ()


def _text(value: Value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _line(cells: Sequence[str]) -> str:
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


def to_markdown(grid: Grid) -> list[str]:
    """Markdown lines: the title (bold) and a blank line when set, header, rule, one line per row."""
    lines = [f"**{grid.title}**", ""] if grid.title else []
    lines += [_line(["", *grid.header]), "|---|" + "---:|" * len(grid.header)]
    lines += [_line([name, *(_text(v) for v in values)]) for name, values in grid.rows]
    return lines


CSV_OPTIONS: dict[str, Any] = {"quoting": csv.QUOTE_NONNUMERIC, "lineterminator": "\n"}
"""How every CSV spatialbench writes is quoted: every text cell in double quotes, numbers bare, ``\n``
line ends. Minimal quoting is not enough: with ``\n`` line ends the csv module leaves a cell holding a
bare ``\r`` unquoted, and readers then split that row in two (issue 26). Pass as ``**CSV_OPTIONS`` to
``csv.writer`` or ``DataFrame.to_csv``."""


def to_csv(grid: Grid) -> str:
    """CSV text: a header row (first cell empty), then one row per grid row; missing values are empty.

    Quoted as :data:`CSV_OPTIONS`: text cells in double quotes, numbers bare.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, **CSV_OPTIONS)
    writer.writerow([spreadsheet_safe(h) for h in ("", *grid.header)])
    for name, values in grid.rows:
        writer.writerow([spreadsheet_safe(name), *("" if v is None else spreadsheet_safe(v) for v in values)])
    return buffer.getvalue()


_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                  "\u2212": "$-$"}


def latex_text(text: str, minus: bool = False) -> str:
    """Escape ``text`` for LaTeX; ``−`` (U+2212) becomes ``$-$``, and so does ``-`` when ``minus``."""
    special = {**_LATEX_SPECIAL, "-": "$-$"} if minus else _LATEX_SPECIAL
    return "".join(special.get(ch, ch) for ch in text)


def _latex_value(value: Value) -> str:
    text = _text(value)
    return text if text == "-" else latex_text(text, minus=True)


def _latex_groups(groups: Sequence[tuple[str, int]]) -> list[str]:
    r"""Return the header row over the columns (a ``\multicolumn`` per labelled span) and its rules."""
    cells, rules, start = [""], [], 2  # column 1 is the row names
    for label, span in groups:
        blank = " & ".join([""] * span)
        cells.append(rf"\multicolumn{{{span}}}{{c}}{{{latex_text(label)}}}" if label else blank)
        if label:
            rules.append(rf"\cmidrule(lr){{{start}-{start + span - 1}}}")
        start += span
    return [" & ".join(cells) + r" \\", " ".join(rules)] if rules else []


def _marked_latex(value: Value, mark: str | None) -> str:
    text = _latex_value(value)
    return {"best": rf"\textbf{{{text}}}", "second": rf"\underline{{{text}}}"}.get(mark or "", text)


def to_latex(grid: Grid, corner: str = "", rules: Sequence[int] = (), comments: Sequence[str] = (),
             marks: Mapping[str, Sequence[str | None]] | None = None) -> str:
    r"""Return ``grid`` as a ``tabular`` with booktabs rules.

    ``corner`` fills the header's first cell (the leaderboard's ``Method``); a row whose values are all
    ``""`` is a section row (its name in italics across the table); ``rules`` are row indices before
    which a ``\midrule`` goes (between runs and their differences); ``comments`` follow as ``% ...``
    lines. Values print as in Markdown (one decimal, ``-`` when missing), minus signs as ``$-$``.
    The grid's ``groups`` become a header row above the column names, each label with a ``\cmidrule``;
    ``marks``: row name → per value ``"best"`` (``\textbf``), ``"second"`` (``\underline``) or None, as
    the papers mark them.
    """
    width, marked = len(grid.header) + 1, marks or {}
    lines = [r"\begin{tabular}{l" + "r" * len(grid.header) + "}", r"\toprule", *_latex_groups(grid.groups),
             " & ".join([latex_text(corner), *(latex_text(h) for h in grid.header)]) + r" \\", r"\midrule"]
    for index, (name, values) in enumerate(grid.rows):
        if index in rules:
            lines.append(r"\midrule")
        if values and all(v == "" for v in values):
            lines.append(rf"\multicolumn{{{width}}}{{l}}{{\textit{{{latex_text(name)}}}}} \\")
            continue
        row = marked.get(name, (None,) * len(values))
        lines.append(" & ".join([latex_text(name), *map(_marked_latex, values, row)]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", *(f"% {latex_text(c)}" for c in comments)]
    return "\n".join(lines) + "\n"


def score_grid(named: Sequence[tuple[str, Table]]) -> Grid:
    """Score layout: one row per ``(name, table)``; columns ``Avg.`` and the first table's cells."""
    first = named[0][1]
    average = first.average_label
    keys = [c.key for c in first.cells]
    rows = tuple((name, (table.average, *(table.scores.get(k) for k in keys))) for name, table in named)
    return Grid((average, *(c.group for c in first.cells)), rows)


CI_ROW = "95 % CI"
CI_NOTE = (f"95 % CI: scene-clustered bootstrap ({RESAMPLES} resamples, seed {SEED}); "
           f"* fewer than {SMALL} items, too few to rank by.")


def interval_cell(ci: Interval, n: int) -> str | None:
    """Write a cell's interval as ``[low, high]`` (one decimal), ``*`` after it under :data:`SMALL` items."""
    if ci is None:
        return None
    return f"[{ci[0]:.1f}, {ci[1]:.1f}]" + ("*" if 0 < n < SMALL else "")


def metric_label(table: Table) -> str:
    """Return the first breakdown row's label: the metric its cells share (``MRA``: numerical ones).

    ``accuracy / MRA`` when the cells differ; ``accuracy`` for a table of empty cells.
    """
    metrics = {c.metric for c in table.cells if c.metric}
    return metrics.pop() if len(metrics) == 1 else "accuracy / MRA" if metrics else "accuracy"


def breakdown_grid(table: Table) -> Grid:
    """Breakdown layout: one column per cell; rows the metric, 95 % CI, random guess, n, extraction failures.

    The metric row is labelled by :func:`metric_label` (``accuracy``, or ``MRA`` for numerical questions).

    The interval row reads ``[low, high]`` (percent, one decimal; :func:`cells_ci`), ``*`` after it
    for a cell of fewer than :data:`SMALL` items (:data:`CI_NOTE` says so), ``-`` for an empty cell.
    """
    cells = table.cells
    intervals = cells_ci(table)
    rows: tuple[tuple[str, tuple[Value, ...]], ...] = (
        (metric_label(table), tuple(c.accuracy for c in cells)),
        (CI_ROW, tuple(interval_cell(ci, c.n) for ci, c in zip(intervals, cells, strict=True))),
        ("random guess", tuple(c.chance for c in cells)),
        ("n", tuple(c.n for c in cells)),
        ("extraction failures", tuple(c.failures for c in cells)),
    )
    return Grid(tuple(c.group for c in cells), rows, table.title)


def cells_json(table: Table) -> dict[str, Any]:
    """Return a breakdown as JSON: ``title``, its cells, and ``small_cells``.

    Each cell: ``group``, ``n``, ``accuracy`` (the score in percent, by ``metric``: ``accuracy`` or
    ``MRA``), ``chance``, ``failures``, ``ci95`` (``[low, high]`` percent, the scene-clustered bootstrap of
    :func:`cells_ci`). ``small_cells``: ``{group, n}`` of the cells with fewer than :data:`SMALL` items.
    Percentages and intervals are None for an empty cell.
    """
    keys = ("group", "n", "accuracy", "metric", "chance", "failures")
    intervals = cells_ci(table)
    cells = [{**{k: getattr(c, k) for k in keys}, "ci95": list(ci) if ci else None}
             for c, ci in zip(table.cells, intervals, strict=True)]
    small = [{"group": label, "n": n} for label, n in small_cells(table)]
    return {"title": table.title, "cells": cells, "small_cells": small}


def summary_json(table: Table) -> dict[str, Any]:
    """JSON form of a score table: ``overall``, cell keys, task keys, and what ``overall`` covers."""
    scores: dict[str, Any] = {"overall": table.average, **table.scores}
    for cell in table.cells:
        for task in cell.parts:
            scores.setdefault(str(task), table.task_scores.get(str(task)))
    for task in table.other_tasks:
        scores[task] = table.task_scores[task]
    scores["averaged_over"] = list(table.averaged_over)
    scores["average_weighting"] = table.weighting
    scores["missing_tasks"] = list(table.missing)
    scores["counts"] = dict(table.counts)
    return scores
