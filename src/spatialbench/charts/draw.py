"""Generic charts (matplotlib, Agg back end), each written as PNG and SVG.

* :func:`grouped_bars` — one group of bars per column, one bar per row (per-task bars, VSI-Bench Fig. 1
  right / Fig. 6; breakdowns; differences of runs), chance rows drawn as ticks before their columns and
  dashes across the bars that reach them;
* :func:`stacked_bars` — one stacked bar per column (error types, VSI-Bench Fig. 8);
* :func:`curves` — line plots on one axes (locality, Fig. 11; accuracy against frames, Fig. 12);
* :func:`map_pair` — a predicted and a ground-truth cognitive map side by side (Fig. 10).

Scores are percentages (0–100) unless a ``scale`` says otherwise. Missing values (None, NaN) draw
nothing. SVGs carry no date and stable element ids, so the same inputs give the same files.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever opened
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from spatialbench.charts.palette import map_colour, map_names  # noqa: E402

Value = float | int | str | None
Interval = tuple[float, float] | list[float] | None
"""A table or chart value: a number, a text cell, or None (missing)."""
PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")
FORMATS = ("png", "svg")


def number(value: Value) -> float:
    """Return ``value`` as a float; NaN for None, text or NaN (drawn as nothing)."""
    if isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value)):
        return float(value)
    return math.nan


def save(figure: plt.Figure, stem: Path) -> list[Path]:
    """Write ``stem.png`` (150 dpi) and ``stem.svg``; close the figure; return the two paths."""
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = []
    with plt.rc_context({"svg.hashsalt": "spatialbench"}):  # stable element ids: same figure, same bytes
        for fmt in FORMATS:
            path = stem.with_suffix(f".{fmt}")
            metadata = {"Date": None} if fmt == "svg" else {"Software": None}
            figure.savefig(path, dpi=150, bbox_inches="tight", metadata=metadata)
            paths.append(path)
    plt.close(figure)
    return paths


#: above this many bars a chart is drawn horizontally (one band per column, labels read across): 13 MMSI
#: subtypes x 3 runs drawn upright need a 12-inch figure, scaled to half size on a report page
HORIZONTAL_FROM = 24
#: above this many columns too: MMSI's 13 subtypes + Avg. of one run, upright, need a 14-inch figure whose
#: column names (``Cam.-Scen.`` over ``n=25``) still touch their neighbours
HORIZONTAL_COLUMNS = 10
CHANCE_COLOURS = ("black", "#707070")  # first and second chance row (random, frequency)
LABEL_POINTS = 9  # every text of a chart is at least 9 pt at the saved size
BAR_INCHES = 0.24  # per bar, across: an upright or horizontal 9 pt label and its box fit in it
COLUMN_INCHES = 0.8  # per column of vertical bars: a 9 pt name of 10 characters a line fits under it
LINE_INCHES = 0.16  # a line of 9 pt text (1.2 line spacing: 0.15 in) and a little air
GROUP = 0.7  # a column's bars span x ± GROUP / 2; the gaps between columns hold the chance ticks


def _value_axis(axes: Any, values: Sequence[Value], label: str, scale: float, horizontal: bool) -> None:
    """Set the value axis: 0 to 1.05 × ``scale`` or the highest value (``scale`` 0: the data's range).

    It extends below 0, with a zero line, when a value is negative; 15 % more on each side drawn on holds
    the value labels beyond the bars' ends.
    """
    drawn = [h for h in map(number, values) if not math.isnan(h)]
    low, high = min([0.0, *drawn]), max([0.0, *drawn])
    high = max(high, 1.05 * scale if low >= 0 else high)
    room = 0.15 * max(high - low, 1e-9)
    (axes.axvline if horizontal else axes.axhline)(0, color="black", linewidth=0.8)
    limits = (low - room if low < 0 else 0.0, high + room)
    (axes.set_xlim if horizontal else axes.set_ylim)(*limits)
    (axes.set_xlabel if horizontal else axes.set_ylabel)(label)


def _label_end(height: float, ci: Interval) -> float:
    """Where a bar's label starts: the bar's end, or the end of its error bar beyond it (labels on caps)."""
    if ci is None:
        return height
    return max(height, ci[1]) if height >= 0 else min(height, ci[0])


def _bar_label(axes: Any, centre: float, height: float, ci: Interval, horizontal: bool) -> None:
    """Write ``height`` with one decimal beyond its bar's end (and error bar), on a white box.

    Upright text on vertical bars (horizontal text on horizontal ones) takes a bar's width, not a label's,
    so neighbours never overlap and a label stays within its bar's width (chance ticks lie outside it).
    """
    end, sign = _label_end(height, ci), 1 if height >= 0 else -1
    if horizontal:
        place = {"xy": (end, centre), "xytext": (3 * sign, 0), "ha": "left" if sign > 0 else "right",
                 "va": "center", "rotation": 0}
    else:
        place = {"xy": (centre, end), "xytext": (0, 3 * sign), "ha": "center",
                 "va": "bottom" if sign > 0 else "top", "rotation": 90}
    axes.annotate(f"{height:.1f}", textcoords="offset points", fontsize=LABEL_POINTS, zorder=4,
                  bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none",
                        "alpha": 0.85}, **place)


def _bar_figure(columns: int, bars: int, horizontal: bool, lines: int = 1) -> tuple[Any, Any]:
    """Return a figure sized for ``columns`` groups of ``bars`` bars: :data:`BAR_INCHES` across a bar.

    Drawn horizontally, a band is also tall enough for its name's ``lines`` (:data:`LINE_INCHES` each).
    """
    column = BAR_INCHES * max(bars, 1) / GROUP
    if horizontal:
        column = max(column, LINE_INCHES * lines + 0.1)
    across = column * columns + 1.2
    named = COLUMN_INCHES * columns + 2.5  # each column's wrapped name fits under it
    size = (7.5, max(3.0, across)) if horizontal else (max(6.0, across + 1.0, named), 4.6)
    return plt.subplots(figsize=size)


def grouped_bars(
    columns: Sequence[str],
    bars: Sequence[tuple[str, Sequence[Value]]],
    chance: Sequence[tuple[str, Sequence[Value]]],
    title: str,
    stem: Path,
    ylabel: str = "score (%)",
    scale: float = 100.0,
    intervals: Sequence[Sequence[Interval]] = (),
) -> list[Path]:
    """Bars ``bars`` = ``[(name, values per column)]``; ``chance`` rows as ticks beside; written to ``stem``.

    ``intervals``: per bar row, a ``(low, high)`` (or None) per column, drawn as error bars (95 % intervals);
    a value's label sits beyond its error bar.

    The value axis runs from 0 to 1.05 × ``scale`` (105 for percent scores; 0: the data's range) and
    extends below 0 (with a zero line) when a value is negative, e.g. differences of runs. More than
    :data:`HORIZONTAL_FROM` bars or :data:`HORIZONTAL_COLUMNS` columns are drawn horizontally, first column
    on top (MMSI-Video-Bench's 13 subtypes). Every text is at least 9 pt (:data:`LABEL_POINTS`) at the
    saved size. Chance is drawn where it strikes no value label (:func:`_chance_marks`).

    Raises:
        ValueError: a row whose length differs from ``columns``.
    """
    for name, values in [*bars, *chance]:
        if len(values) != len(columns):
            raise ValueError(f"row {name!r} has {len(values)} values for {len(columns)} columns")
    horizontal = len(columns) * len(bars) > HORIZONTAL_FROM or len(columns) > HORIZONTAL_COLUMNS
    x = np.arange(len(columns), dtype=float)
    lines = max((c.count("\n") + 1 for c in columns), default=1)
    figure, axes = _bar_figure(len(columns), len(bars), horizontal, lines)
    _draw_bars(axes, x, bars, intervals, horizontal)
    _chance_marks(axes, x, bars, chance, horizontal)
    if horizontal:
        axes.set_yticks(x, list(columns))
        axes.invert_yaxis()  # the first column on top, as a table reads
    else:  # upright names, wrapped: rotated ones reach into their neighbours' space
        axes.set_xticks(x, [_column_name(c) for c in columns])
    ends: list[Value] = [e for row in intervals for ci in row if ci is not None for e in ci]
    _value_axis(axes, [v for _, values in [*bars, *chance] for v in values] + ends, ylabel, scale, horizontal)
    axes.tick_params(labelsize=LABEL_POINTS)
    axes.set_title(title, wrap=True)
    axes.legend(fontsize=LABEL_POINTS, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes.grid(axis="x" if horizontal else "y", alpha=0.3)
    return save(figure, stem)


def _chance_marks(axes: Any, x: np.ndarray, bars: Sequence[tuple[str, Sequence[Value]]],
                  chance: Sequence[tuple[str, Sequence[Value]]], horizontal: bool) -> None:
    """Draw each chance row where it strikes no value label: ticks between columns, dashes inside bars.

    Each row is a thick tick before each column's bars and a dashed line across each bar that reaches it.
    A value label lies beyond its bar's end (and error bar), within the bar's width; a chance line across
    a whole column struck the labels of the bars short of it (24.0 under a 25.0 chance). So the line is
    drawn only inside bars (between 0 and the bar's end) and as a thick tick in the gap before the bars
    (``x ± GROUP / 2``), from ``x − 0.49`` to ``x − 0.36``.
    """
    width = GROUP / max(len(bars), 1)
    heights = np.array([[number(v) for v in values] for _, values in bars]).reshape(len(bars), len(x))
    lines = axes.vlines if horizontal else axes.hlines
    for k, (name, values) in enumerate(chance):
        colour, level = CHANCE_COLOURS[k % len(CHANCE_COLOURS)], np.array([number(v) for v in values])
        lines(level, x - 0.49, x - GROUP / 2 - 0.01, colors=colour, linewidth=2.5, label=name, zorder=3)
        inside = (np.fmin(heights, 0) <= level) & (level <= np.fmax(heights, 0))  # NaN: never
        rows, columns = np.nonzero(inside)
        starts = x[columns] - GROUP / 2 + width * rows
        lines(level[columns], starts, starts + width, colors=colour, linestyles=("--", ":")[k % 2],
              linewidth=1.5, zorder=3, label=f"_{name}")  # "_": one legend entry, the tick's


def _column_name(name: str, width: int = 10) -> str:
    """Wrap each line of a column name to ``width`` characters at spaces, hyphens and underscores.

    ``object_rel_distance`` (an official task name) becomes ``object_`` / ``rel_`` / ``distance``; a line
    break given (``Appr. Order`` over ``n=3``) is kept.
    """
    lines = (textwrap.fill(t.replace("_", "_ "), width, break_long_words=False) for t in name.split("\n"))
    return "\n".join(lines).replace("_ ", "_")


def _draw_bars(axes: Any, x: np.ndarray, bars: Sequence[tuple[str, Sequence[Value]]],
               intervals: Sequence[Sequence[Interval]], horizontal: bool) -> None:
    """Draw each row of ``bars`` side by side over the positions ``x``, labelled, with its error bars."""
    width = GROUP / max(len(bars), 1)
    for k, (name, values) in enumerate(bars):
        heights = np.array([number(v) for v in values])
        offsets = x - GROUP / 2 + width * (k + 0.5)
        draw = axes.barh if horizontal else axes.bar
        draw(offsets, np.nan_to_num(heights), width, label=name, color=PALETTE[k % len(PALETTE)], zorder=2)
        row = list(intervals[k]) if k < len(intervals) else [None] * len(x)
        for centre, h, ci in zip(offsets, heights, row, strict=True):
            if not math.isnan(h):
                _bar_label(axes, centre, h, ci, horizontal)
        error_bars(axes, offsets, heights, row, horizontal)


def error_bars(axes: Any, offsets: np.ndarray, heights: np.ndarray, row: Sequence[Interval],
               horizontal: bool = False) -> None:
    """Draw a 95 % interval ``(low, high)`` (or None) over each bar at ``offsets`` of ``heights``."""
    for x, h, ci in zip(offsets, heights, row, strict=True):
        if ci is not None and not math.isnan(h):
            # drawn around the interval's own middle: a percentile interval need not hold the value
            # (few scenes, or its bounds rounded to 4 decimals), and matplotlib refuses a negative spread
            middle, spread = (ci[0] + ci[1]) / 2, (ci[1] - ci[0]) / 2
            where = {"xerr": spread} if horizontal else {"yerr": spread}
            axes.errorbar(*(([middle], [x]) if horizontal else ([x], [middle])), fmt="none", ecolor="black",
                          capsize=2, linewidth=0.8, zorder=3, **where)


def stacked_bars(columns: Sequence[str], stacks: Sequence[tuple[str, Sequence[Value]]], title: str,
                 stem: Path, ylabel: str = "share of errors (%)") -> list[Path]:
    """One stacked bar per column, one segment per ``(name, values)`` (VSI-Bench Fig. 8 error types)."""
    x = np.arange(len(columns), dtype=float)
    bottom = np.zeros(len(columns))
    figure, axes = plt.subplots(figsize=(max(6.0, 0.9 * len(columns) + 3), 4.2))
    for k, (name, values) in enumerate(stacks):
        heights = np.nan_to_num([number(v) for v in values])
        axes.bar(x, heights, 0.7, bottom=bottom, label=name, color=PALETTE[k % len(PALETTE)])
        bottom += heights
    axes.set_xticks(x, list(columns), rotation=20, ha="right")
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(fontsize=LABEL_POINTS, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes.grid(axis="y", alpha=0.3)
    return save(figure, stem)


def curves(series: Sequence[tuple[str, Sequence[float], Sequence[Value], str]], title: str, stem: Path,
           xlabel: str, ylabel: str, xticks: Sequence[tuple[float, str]] = ()) -> list[Path]:
    """Line plots ``(name, x, y, style)`` (matplotlib format string, e.g. ``"o-"``, ``"k--"``) on one axes.

    Used for the locality curve (VSI-Bench Fig. 11) and accuracy against frames (Fig. 12). ``xticks``:
    ``(x, label)`` of a categorical axis (the reasoning phases ``(1)``–``(4)``), the only ticks drawn.
    """
    figure, axes = plt.subplots(figsize=(6.0, 4.0))
    for name, x, y, style in series:
        axes.plot(list(x), [number(v) for v in y], style, label=name)
    if xticks:
        axes.set_xticks([x for x, _ in xticks], [label for _, label in xticks])
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(fontsize=LABEL_POINTS)
    axes.grid(alpha=0.3)
    return save(figure, stem)


def _spread(points: dict[str, NDArray[np.float64]], radius: float = 0.25) -> dict[str, NDArray[np.float64]]:
    """Return ``points`` with the ``m > 1`` markers of one cell moved onto a circle of ``radius`` cells."""
    arrays = {name: np.asarray(xy, dtype=float).reshape(-1, 2).copy() for name, xy in points.items()}
    cells: dict[tuple[float, float], list[tuple[str, int]]] = {}
    for name, xy in arrays.items():
        for k, (x, y) in enumerate(xy):
            cells.setdefault((float(x), float(y)), []).append((name, k))
    for shared in (s for s in cells.values() if len(s) > 1):
        for j, (name, k) in enumerate(shared):
            angle = 2 * np.pi * j / len(shared)
            arrays[name][k] += radius * np.array([np.cos(angle), np.sin(angle)])
    return arrays


def map_pair(predicted: dict[str, NDArray[np.float64]], truth: dict[str, NDArray[np.float64]], grid: int,
             title: str, stem: Path) -> list[Path]:
    """Two grid maps side by side: the model's points and the ground truth, ``(n, 2)`` cells per category.

    A category keeps its colour (and marker) in both panels and is named once, in the legend beside them:
    labels at the points printed over each other where objects share a cell (Fig. 10). Markers sharing a
    cell are spread on a small circle around its centre, so each stays visible. Orientation (y up) and
    colours are the HTML map's too (:mod:`spatialbench.charts.palette`).
    """
    names = map_names(truth, predicted)
    colours = {name: map_colour(k) for k, name in enumerate(names)}
    figure, panels = plt.subplots(1, 2, figsize=(9.0, 4.6))
    for axes, points, label in ((panels[0], predicted, "predicted"), (panels[1], truth, "ground truth")):
        for name, xy in _spread(points).items():
            marker = "osD^v<>p"[names.index(name) % 8]
            axes.scatter(xy[:, 0], xy[:, 1], s=40, color=colours[name], marker=marker, label=name,
                         edgecolors="white", linewidths=0.5)
        axes.set_xlim(-0.5, grid - 0.5)
        axes.set_ylim(-0.5, grid - 0.5)
        axes.set_xticks(range(grid))
        axes.set_yticks(range(grid))
        axes.grid(alpha=0.3)
        axes.set_aspect("equal")
        axes.set_title(label)
    handles = {h.get_label(): h for axes in panels for h in axes.collections}
    figure.legend([handles[n] for n in names if n in handles], [n for n in names if n in handles],
                  loc="center left", bbox_to_anchor=(0.92, 0.5), fontsize=LABEL_POINTS, frameon=False,
                  ncol=1 + len(names) // 24)
    figure.suptitle(title)
    return save(figure, stem)
