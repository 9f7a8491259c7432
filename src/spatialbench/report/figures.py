"""The report's figures (matplotlib, Agg back end), each written as PNG and SVG.

* :func:`grouped_bars` and :func:`curves` — the generic charts of :mod:`spatialbench.analysis.charts`
  (per-task bars, VSI-Bench Fig. 1 right / Fig. 6; per-dataset and per-difficulty breakdowns; curves);
* :func:`radar` — one run's column scores on a polar chart (Fig. 1 left), the frequency chance level
  dashed behind it when given;
* :func:`gap_bars` — enabled − disabled and disabled − chance per task, tasks sorted by the first
  (VSI-Bench Fig. 13).

Scores are percentages (0–100). Missing values (None) draw nothing. SVGs carry no date, so the same
inputs give the same files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: no display is ever opened
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from spatialbench.analysis.charts import PALETTE, curves, grouped_bars, number, save  # noqa: E402
from spatialbench.scoring.render import Value  # noqa: E402

__all__ = ["curves", "gap_bars", "grouped_bars", "map_pair", "radar", "stacked_bars"]


def radar(columns: Sequence[str], values: Sequence[Value], title: str, stem: Path,
          reference: tuple[str, Sequence[Value]] | None = None) -> list[Path]:
    """One run's scores on a radar chart (0–100), ``reference`` (e.g. frequency chance) dashed behind it."""
    angles = np.linspace(0, 2 * np.pi, len(columns), endpoint=False)
    closed = np.append(angles, angles[0])
    figure, axes = plt.subplots(figsize=(4.8, 4.8), subplot_kw={"projection": "polar"})
    if reference is not None:
        ref = np.nan_to_num([number(v) for v in reference[1]])
        axes.plot(closed, np.append(ref, ref[0]), "k--", linewidth=1, label=reference[0])
    scores = np.nan_to_num([number(v) for v in values])
    axes.plot(closed, np.append(scores, scores[0]), color=PALETTE[0], linewidth=2, label=title)
    axes.fill(closed, np.append(scores, scores[0]), color=PALETTE[0], alpha=0.25)
    axes.set_xticks(angles, list(columns), fontsize=8)
    axes.set_ylim(0, 100)
    axes.set_yticks([25, 50, 75, 100], ["25", "50", "75", "100"], fontsize=6)
    axes.set_title(title, pad=18)
    axes.legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.25, -0.12))
    return save(figure, stem)


def gap_bars(columns: Sequence[str], enabled: Sequence[Value], disabled: Sequence[Value],
             chance: Sequence[Value] | None, title: str, stem: Path) -> tuple[list[Path], list[str]]:
    """Draw Enabled − Disabled (and Disabled − Chance when given) per column, sorted by the first, descending.

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
        axes.bar(x - 0.4 + width * (k + 0.5), np.nan_to_num(values[order]), width, label=name,
                 color=PALETTE[k])
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xticks(x, [columns[i] for i in order], rotation=20, ha="right")
    axes.set_ylabel("difference (points)")
    axes.set_title(title)
    axes.legend(fontsize=7)
    axes.grid(axis="y", alpha=0.3)
    return save(figure, stem), [columns[i] for i in order]


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


def map_pair(predicted: dict[str, NDArray[np.float64]], truth: dict[str, NDArray[np.float64]], grid: int,
             title: str, stem: Path) -> list[Path]:
    """Two grid maps side by side: the model's points and the ground truth, ``(n, 2)`` cells per category.

    A category keeps its colour in both panels; each point is labelled with its category (Fig. 10).
    """
    names = list(dict.fromkeys([*truth, *predicted]))
    palette = plt.get_cmap("tab20")
    colours = {name: palette(k % 20) for k, name in enumerate(names)}
    figure, panels = plt.subplots(1, 2, figsize=(9.0, 4.6))
    for axes, points, label in ((panels[0], predicted, "predicted"), (panels[1], truth, "ground truth")):
        for name, xy in points.items():
            xy = np.asarray(xy, dtype=float).reshape(-1, 2)
            axes.scatter(xy[:, 0], xy[:, 1], s=40, color=colours[name], label=name)
            for x, y in xy:
                axes.annotate(name, (x, y), fontsize=6, xytext=(3, 3), textcoords="offset points")
        axes.set_xlim(-0.5, grid - 0.5)
        axes.set_ylim(-0.5, grid - 0.5)
        axes.set_xticks(range(grid))
        axes.set_yticks(range(grid))
        axes.grid(alpha=0.3)
        axes.set_aspect("equal")
        axes.set_title(label)
    figure.suptitle(title)
    return save(figure, stem)
