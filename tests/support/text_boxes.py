"""What a saved chart's text looks like: every drawn label's box (matplotlib's renderer), its size, overlaps.

:func:`capture` wraps ``save`` of :mod:`spatialbench.charts` (and of the modules given, which import it by
name) so that each figure's texts are measured at its saved size, just before it is written and closed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from matplotlib.text import Text

import spatialbench.charts.draw as draw


@dataclass(frozen=True)
class Label:
    """One drawn text: its string, size (pt) and box in display pixels ``(x0, y0, x1, y1)``."""

    text: str
    points: float
    box: tuple[float, float, float, float]


def labels(figure: Any) -> list[Label]:
    """Every visible, non-empty text of ``figure`` (titles, ticks, legend, annotations), measured drawn."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    found = []
    hidden = {id(t) for axes in figure.axes for t in _undrawn_ticks(axes)}
    for text in figure.findobj(Text):
        if text.get_visible() and text.get_text().strip() and id(text) not in hidden:
            box = tuple(text.get_window_extent(renderer).extents)
            found.append(Label(text.get_text(), text.get_fontsize(), box))
    return found


def _undrawn_ticks(axes: Any) -> list[Text]:
    """Tick labels matplotlib keeps beyond an axis's limits (never drawn)."""
    out = []
    for axis in (axes.xaxis, axes.yaxis):
        low, high = sorted(axis.get_view_interval())
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                out += [tick.label1, tick.label2]
    return out


def overlaps(found: list[Label], slack: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes share more than ``slack`` pixels in both directions."""
    pairs = []
    for i, a in enumerate(found):
        for b in found[i + 1 :]:
            wide = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
            tall = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
            if wide > slack and tall > slack:
                pairs.append((a.text, b.text))
    return pairs


@dataclass(frozen=True)
class Drawn:
    """A saved chart: its labels (measured before saving) and the figure (closed, its transforms kept)."""

    labels: list[Label]
    figure: Any


@contextmanager
def capture(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> Iterator[dict[str, Drawn]]:
    """Yield ``{file stem: Drawn}``, filled as each chart is saved (by ``draw.save`` or a module's)."""
    measured: dict[str, Drawn] = {}
    original = draw.save

    def measuring(figure: Any, stem: Path) -> list[Path]:
        measured[stem.name] = Drawn(labels(figure), figure)
        return original(figure, stem)

    for module in (draw, *modules):
        monkeypatch.setattr(module, "save", measuring)
    yield measured


def line_boxes(figure: Any, label: str) -> list[tuple[float, float, float, float]]:
    """Display boxes of every segment of the line collections named ``label`` (or ``_label``, no legend).

    Each segment's ends through its axes' data transform, widened by half its line width on every side.
    """
    boxes = []
    for axes in figure.axes:
        for lines in (c for c in axes.collections if c.get_label().lstrip("_") == label):
            half = max(lines.get_linewidths()) * figure.dpi / 72 / 2
            for segment in (s for s in lines.get_segments() if len(s) >= 2):  # a missing value: none
                (x0, y0), (x1, y1) = axes.transData.transform(segment[[0, -1]])
                boxes.append((min(x0, x1) - half, min(y0, y1) - half, max(x0, x1) + half, max(y0, y1) + half))
    return boxes


def struck(found: list[Label], boxes: list[tuple[float, float, float, float]]) -> list[str]:
    """The labels that one of ``boxes`` crosses (shares more than a pixel with, both ways)."""
    def crossed(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1

    return [t.text for t in found for b in boxes if crossed(t.box, b)]
