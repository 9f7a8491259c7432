"""The report's own figures (matplotlib through :mod:`spatialbench.charts`), each written as PNG and SVG.

* :func:`radar` — every run's column scores overlaid on one polar chart (VSI-Bench Fig. 1 left), the
  frequency chance level dashed behind them when given;
* :func:`gap_bars` — enabled − disabled and disabled − chance per task, tasks sorted by the first
  (VSI-Bench Fig. 13).

The generic charts (grouped and stacked bars, curves, cognitive maps) are in :mod:`spatialbench.charts`,
where analyses draw them too; the report's modules still reach ``grouped_bars`` and ``curves`` here.
Scores are percentages (0–100); missing values (None) draw nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.projections.polar import PolarAxes

from spatialbench.charts import LABEL_POINTS, PALETTE, Value, curves, grouped_bars, number, save
from spatialbench.charts.draw import Interval, error_bars

__all__ = ["curves", "gap_bars", "grouped_bars", "radar"]


def radar(columns: Sequence[str], series: Sequence[tuple[str, Sequence[Value]]], title: str, stem: Path,
          reference: tuple[str, Sequence[Value]] | None = None) -> list[Path]:
    """Draw every run's column scores (0–100) on one radar chart, overlaid as VSI-Bench Fig. 1 (left).

    ``series`` = ``[(run name, value per column)]``; ``reference`` (frequency chance) is dashed behind.

    Each run is a line in its own colour with a light fill, named in the legend beside the chart; missing
    values are drawn at 0. A negative score (chance-adjusted accuracy below chance) moves the centre
    below 0 (:func:`radial_scale`), with the 0 ring drawn. Text is at least 9 pt
    (:data:`spatialbench.charts.LABEL_POINTS`).
    """
    angles = np.linspace(0, 2 * np.pi, len(columns), endpoint=False)
    closed = np.append(angles, angles[0])
    figure, plain = plt.subplots(figsize=(6.4, 5.2), subplot_kw={"projection": "polar"})
    axes = cast(PolarAxes, plain)
    if reference is not None:
        ref = np.nan_to_num([number(v) for v in reference[1]])
        axes.plot(closed, np.append(ref, ref[0]), "k--", linewidth=1, label=reference[0], zorder=3)
    for k, (name, values) in enumerate(series):
        scores = np.nan_to_num([number(v) for v in values])
        colour = PALETTE[k % len(PALETTE)]
        axes.plot(closed, np.append(scores, scores[0]), color=colour, linewidth=1.8, label=name, zorder=2)
        axes.fill(closed, np.append(scores, scores[0]), color=colour, alpha=0.08)
    axes.set_xticks(angles, [""] * len(columns))  # the spokes; their names are placed below
    for angle, name in zip(angles, columns, strict=True):
        _spoke_label(axes, float(angle), name)
    low, ticks = radial_scale([v for _, values in series for v in values])
    axes.set_ylim(low, 100)
    axes.set_yticks(ticks, [f"{t:g}" for t in ticks], fontsize=LABEL_POINTS, color="#666")
    if low < 0:  # a chance-adjusted score below chance (SITE's CAA): the 0 ring drawn, the centre below it
        axes.plot(np.linspace(0, 2 * np.pi, 181), np.zeros(181), color="black", linewidth=0.8, zorder=1)
    axes.set_rlabel_position(180 / max(len(columns), 1))  # between the first two spokes, off every line end
    for label in axes.get_yticklabels():  # the runs' lines pass behind the scale, not through it
        label.set_bbox({"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none",
                        "alpha": 0.8})
    axes.set_title(title, pad=40)  # above the top spoke's name
    axes.legend(fontsize=LABEL_POINTS, loc="upper left", bbox_to_anchor=(1.12, 1.0), frameon=False)
    return save(figure, stem)


def radial_scale(values: Sequence[Value]) -> tuple[float, list[float]]:
    """Return the radar's centre and rings: 0 and 25…100, or from a multiple of 25 below the lowest value.

    ``[-50.0, 100.0]`` → ``(-50.0, [-50, -25, 0, 25, 50, 75, 100])``: the 0 ring is labelled when the centre
    lies below it. NaN values are left out.
    """
    drawn = [v for v in map(number, values) if not np.isnan(v)]
    low = min([0.0, *drawn])
    centre = 25.0 * float(np.floor(low / 25.0)) if low < 0 else 0.0
    ticks = [float(t) for t in np.arange(centre, 100.1, 25.0) if t > centre or centre < 0]
    return centre, ticks


def _spoke_label(axes: Any, angle: float, name: str) -> None:
    """Name a spoke just outside the rim, aligned away from the circle (tick labels there touch the rim)."""
    across, up = np.cos(angle), np.sin(angle)
    ha = "left" if across > 0.1 else "right" if across < -0.1 else "center"
    va = "bottom" if up > 0.1 else "top" if up < -0.1 else "center"
    axes.text(angle, 108, name, ha=ha, va=va, fontsize=LABEL_POINTS, clip_on=False)


def gap_bars(columns: Sequence[str], enabled: Sequence[Value], disabled: Sequence[Value],
             chance: Sequence[Value] | None, title: str, stem: Path,
             intervals: Sequence[Sequence[Interval]] = ()) -> tuple[list[Path], list[str]]:
    """Draw Enabled − Disabled (and Disabled − Chance when given) per column, sorted by the first, descending.

    ``intervals``: per series (Enabled − Disabled, then Disabled − Chance), a ``(low, high)`` (points) or
    None per column, drawn as error bars (the paired 95 % intervals).

    Returns:
        The written paths and the column order drawn.
    """
    on, off = np.array([number(v) for v in enabled]), np.array([number(v) for v in disabled])
    gap = on - off
    order = [int(i) for i in np.argsort(-np.nan_to_num(gap, nan=-np.inf), kind="stable")]
    series = [("Enabled − Disabled", gap)]
    if chance is not None:
        series.append(("Disabled − Chance (Freq.)", off - np.array([number(v) for v in chance])))
    x = np.arange(len(order), dtype=float)
    figure, axes = plt.subplots(figsize=(max(6.0, 1.0 * len(order) + 2), 4.0))
    width = 0.8 / len(series)
    for k, (name, values) in enumerate(series):
        where = x - 0.4 + width * (k + 0.5)
        axes.bar(where, np.nan_to_num(values[order]), width, label=name, color=PALETTE[k])
        if k < len(intervals):
            error_bars(axes, where, np.nan_to_num(values[order]), [intervals[k][i] for i in order])
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xticks(x, [columns[i] for i in order], rotation=20, ha="right")
    axes.set_ylabel("difference (points)")
    axes.set_title(title)
    axes.legend(fontsize=LABEL_POINTS)
    axes.grid(axis="y", alpha=0.3)
    return save(figure, stem), [columns[i] for i in order]
