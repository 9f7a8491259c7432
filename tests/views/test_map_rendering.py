"""One cognitive map, two renderings: the figure (matplotlib, :func:`spatialbench.charts.map_pair`) and the
item page's SVG (:func:`spatialbench.views.map_svg`) put each cell in the same corner, in the same colour.

Both draw grid y upwards, cell (0, 0) at the bottom left (the scene seen from above, as VSI-Bench Fig. 10);
the SVG drew y downwards, so a map read upside down beside the figure.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from matplotlib.colors import to_hex

from spatialbench import charts
from spatialbench.views import map_svg
from support.text_boxes import capture

GRID = 10
# sofa in the top-left cell, lamp in the bottom-right one, bed in the bottom-left one (x right, y up)
TRUTH = {"sofa": [[0.0, 9.0]], "lamp": [[9.0, 0.0]], "bed": [[0.0, 0.0]]}
EXPECTED = {"sofa": ("left", "top"), "lamp": ("right", "bottom"), "bed": ("left", "bottom")}


def _corner(x: float, y_up: float, box: tuple[float, float, float, float]) -> tuple[str, str]:
    """The corner of a point in ``box`` = (left, bottom, right, top), y measured upwards."""
    left, bottom, right, top = box
    return ("left" if x < (left + right) / 2 else "right", "bottom" if y_up < (bottom + top) / 2 else "top")


def _figure_places(tmp_path, monkeypatch) -> dict[str, tuple[tuple[str, str], str]]:  # type: ignore[no-untyped-def]
    arrays = {name: np.array(cells) for name, cells in TRUTH.items()}
    with capture(monkeypatch) as drawn:
        charts.map_pair(arrays, arrays, GRID, "room0", tmp_path / "m")
    truth_axes = drawn["m"].figure.axes[1]
    (left, bottom), (right, top) = truth_axes.transData.transform([(-0.5, -0.5), (GRID - 0.5, GRID - 0.5)])
    assert right - left == pytest.approx(top - bottom)  # a square panel, as the SVG's
    places = {}
    for dots in truth_axes.collections:
        x, y = truth_axes.transData.transform(dots.get_offsets())[0]  # display pixels, y upwards
        colour = to_hex(dots.get_facecolor()[0])
        places[dots.get_label()] = (_corner(x, y, (left, bottom, right, top)), colour)
        assert bottom <= y <= top
    return places


def _svg_places() -> dict[str, tuple[tuple[str, str], str]]:
    names = charts.map_names(TRUTH)
    root = ET.fromstring(str(map_svg(TRUTH, GRID, names, "ground truth")))
    board = next(r for r in root.iter("rect"))
    size = float(board.get("height"))  # type: ignore[arg-type]
    places = {}
    for dot in root.iter("circle"):
        name = dot.find("title").text.split(" (")[0]  # type: ignore[union-attr]
        cx, cy = float(dot.get("cx")), float(dot.get("cy"))  # type: ignore[arg-type]
        # SVG y runs downwards (an inline SVG of HTML: no namespace)
        places[name] = (_corner(cx, size - cy, (0.0, 0.0, size, size)), dot.get("fill"))
    return places


def test_a_corner_cell_lands_in_the_same_corner_in_the_same_colour(tmp_path, monkeypatch) -> None:
    figure, svg = _figure_places(tmp_path, monkeypatch), _svg_places()
    assert {name: corner for name, (corner, _) in figure.items()} == EXPECTED
    assert {name: corner for name, (corner, _) in svg.items()} == EXPECTED
    assert {name: colour for name, (_, colour) in svg.items()} == {
        name: colour for name, (_, colour) in figure.items()}
    # the k-th category of the pair (a–z: bed, lamp, sofa) in the k-th colour of the one palette:
    # tab10 blue, orange, green
    assert [svg[name][1] for name in ("bed", "lamp", "sofa")] == ["#1f77b4", "#ff7f0e", "#2ca02c"]
    assert list(charts.MAP_COLOURS[:3]) == ["#1f77b4", "#ff7f0e", "#2ca02c"]


def test_the_svg_map_puts_cell_centres_on_its_grid_with_y_up() -> None:
    found = {"sofa": [[0, 9]], "lamp": [[9, 0]], "bed": [[4.25, 0.5]]}  # continuous: quantize off
    root = ET.fromstring(str(map_svg(found, GRID, ["sofa", "lamp", "bed"], "map")))
    # 14 px cells: cell (0, 9) is the top-left one (centre 7, 7), cell (9, 0) the bottom-right (133, 133);
    centres = [(c.get("cx"), c.get("cy")) for c in root.iter("circle")]
    # (4.25, 0.5): x (4.25 + 0.5) * 14 = 66.5, row 9 - 0.5 = 8.5 from the top: y (8.5 + 0.5) * 14 = 126
    assert centres == [("7.0", "7.0"), ("133.0", "133.0"), ("66.5", "126.0")]
    assert [c.find("title").text for c in root.iter("circle")] == [  # type: ignore[union-attr]
        "sofa (0, 9)", "lamp (9, 0)", "bed (4.2, 0.5)"]
