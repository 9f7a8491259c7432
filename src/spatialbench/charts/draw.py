"""Generic charts (matplotlib, Agg back end), each written as PNG and SVG.

* :func:`grouped_bars` — one group of bars per column, one bar per row (per-task bars, VSI-Bench Fig. 1
  right / Fig. 6; breakdowns; differences of runs), chance rows drawn as dashed ticks over their columns;
* :func:`stacked_bars` — one stacked bar per column (error types, VSI-Bench Fig. 8);
* :func:`curves` — line plots on one axes (locality, Fig. 11; accuracy against frames, Fig. 12);
* :func:`map_pair` — a predicted and a ground-truth cognitive map side by side (Fig. 10).

Scores are percentages (0–100) unless a ``scale`` says otherwise. Missing values (None, NaN) draw
nothing. SVGs carry no date and stable element ids, so the same inputs give the same files.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever opened
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

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


def _value_axis(axes: Any, values: Sequence[Value], label: str, scale: float) -> None:
    """Set the value axis: 0 to 1.05 × ``scale`` or the highest value (``scale`` 0: the data's range).

    It extends below 0, with a zero line, when a value is negative.
    """
    drawn = [h for h in map(number, values) if not math.isnan(h)]
    low, high = min([0.0, *drawn]), max([0.0, *drawn])
    margin = 0.05 * max(scale, high - low, 1e-9)
    if low < 0:
        axes.axhline(0, color="black", linewidth=0.8)
        # room at both ends for upright labels beyond the bars and error bars (``_bar_label``)
        axes.set_ylim(low - 2.5 * margin, high + 2.5 * margin)
    else:
        axes.set_ylim(0, max(1.05 * scale, high + margin) * 1.12)  # room for the upright labels
    axes.set_ylabel(label)


def _bar_label(axes: Any, rect: Any, height: float, ci: Interval = None) -> None:
    """Write ``height`` with one decimal above its bar, upright, on a white box (chance lines pass behind).

    Upright (rotated 90°) text takes a bar's width, not a label's, so neighbours never overlap. A bar with
    an error bar is labelled beyond it, so the bar's line and cap never strike the text: above the cap of a
    bar of 0 or more, below the lower cap of a negative one. Without one, a negative bar's label stands
    on the zero line.
    """
    anchor, above = max(height, 0.0), True
    if ci is not None:
        above = height >= 0
        anchor = max(height, float(ci[1])) if above else min(height, float(ci[0]))
    axes.annotate(f"{height:.1f}", (rect.get_x() + rect.get_width() / 2, anchor), ha="center",
                  va="bottom" if above else "top", rotation=90, fontsize=7, xytext=(0, 2 if above else -2),
                  textcoords="offset points", zorder=4,
                  bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none",
                        "alpha": 0.85})


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
    """Bars ``bars`` = ``[(name, values per column)]``; ``chance`` rows as dashed ticks; written to ``stem``.

    ``intervals``: per bar row, a ``(low, high)`` (or None) per column, drawn as error bars (95 % intervals).

    The value axis runs from 0 to 1.05 × ``scale`` (105 for percent scores; 0: the data's range) and
    extends below 0 (with a zero line) when a value is negative, e.g. differences of runs.

    Raises:
        ValueError: a row whose length differs from ``columns``.
    """
    for name, values in [*bars, *chance]:
        if len(values) != len(columns):
            raise ValueError(f"row {name!r} has {len(values)} values for {len(columns)} columns")
    x = np.arange(len(columns), dtype=float)
    width = 0.8 / max(len(bars), 1)
    # every bar gets ~0.3 inch: labels of 13 subtypes x several runs neither shrink nor collide
    figure, axes = plt.subplots(figsize=(max(6.0, 0.3 * len(columns) * max(len(bars), 2) + 2), 4.6))
    for k, (name, values) in enumerate(bars):
        heights = np.array([number(v) for v in values])
        offsets = x - 0.4 + width * (k + 0.5)
        drawn = axes.bar(offsets, np.nan_to_num(heights), width, label=name, color=PALETTE[k % len(PALETTE)],
                         zorder=2)
        row: Sequence[Interval] = intervals[k] if k < len(intervals) else [None] * len(columns)
        for rect, h, ci in zip(drawn, heights, row, strict=True):
            if not math.isnan(h):
                _bar_label(axes, rect, h, ci)
        _error_bars(axes, offsets, heights, row)
    for k, (name, values) in enumerate(chance):
        heights = np.array([number(v) for v in values])
        axes.hlines(heights, x - 0.45, x + 0.45, colors="black", linestyles=("--", ":")[k % 2], linewidth=1.2,
                    label=name, zorder=3)
    axes.set_xticks(x, list(columns), rotation=20, ha="right")
    ends: list[Value] = [e for row in intervals for ci in row if ci is not None for e in ci]
    _value_axis(axes, [v for _, values in [*bars, *chance] for v in values] + ends, ylabel, scale)
    axes.set_title(title)
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes.grid(axis="y", alpha=0.3)
    return save(figure, stem)


def _error_bars(axes: Any, offsets: np.ndarray, heights: np.ndarray, row: Sequence[Interval]) -> None:
    for x, h, ci in zip(offsets, heights, row, strict=True):
        if ci is not None and not math.isnan(h):
            # drawn from its own centre: a bootstrap interval need not contain the bar's value (a percentile
            # interval of a skewed cell), and matplotlib refuses negative error lengths
            low, high = float(ci[0]), float(ci[1])
            axes.errorbar([x], [(low + high) / 2], yerr=[[(high - low) / 2]], fmt="none", ecolor="black",
                          capsize=2, linewidth=0.8)


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
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes.grid(axis="y", alpha=0.3)
    return save(figure, stem)


def curves(series: Sequence[tuple[str, Sequence[float], Sequence[Value], str]], title: str, stem: Path,
           xlabel: str, ylabel: str) -> list[Path]:
    """Line plots ``(name, x, y, style)`` (matplotlib format string, e.g. ``"o-"``, ``"k--"``) on one axes.

    Used for the locality curve (VSI-Bench Fig. 11) and accuracy against frames (Fig. 12).
    """
    figure, axes = plt.subplots(figsize=(6.0, 4.0))
    for name, x, y, style in series:
        axes.plot(list(x), [number(v) for v in y], style, label=name)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.set_title(title)
    axes.legend(fontsize=7)
    axes.grid(alpha=0.3)
    return save(figure, stem)


def map_pair(predicted: dict[str, NDArray[np.float64]], truth: dict[str, NDArray[np.float64]], grid: int,
             title: str, stem: Path) -> list[Path]:
    """Two grid maps side by side: the model's points and the ground truth, ``(n, 2)`` cells per category.

    A category keeps its colour (and marker) in both panels and is named once, in the legend beside them:
    labels at the points printed over each other where objects share a cell (Fig. 10).
    """
    names = list(dict.fromkeys([*truth, *predicted]))
    palette = plt.get_cmap("tab20")
    colours = {name: palette(k % 20) for k, name in enumerate(names)}
    figure, panels = plt.subplots(1, 2, figsize=(9.0, 4.6))
    for axes, points, label in ((panels[0], predicted, "predicted"), (panels[1], truth, "ground truth")):
        for name, xy in points.items():
            xy = np.asarray(xy, dtype=float).reshape(-1, 2)
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
                  loc="center left", bbox_to_anchor=(0.92, 0.5), fontsize=7, frameon=False,
                  ncol=1 + len(names) // 24)
    figure.suptitle(title)
    return save(figure, stem)
