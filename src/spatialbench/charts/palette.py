"""How a cognitive map is drawn, in the figure and on an item page alike (no matplotlib here).

The figure is :func:`spatialbench.charts.map_pair` (matplotlib), the item page's map
``spatialbench.views.transcript.map_svg`` (SVG).

* Orientation: grid x to the right, grid y upwards, cell ``(0, 0)`` at the bottom left — the map is the
  scene seen from above with world z up (:mod:`spatialbench.scene.cogmap`: grid x follows world x, grid y
  world y), on Cartesian axes as the cognitive maps of VSI-Bench Fig. 10; the official prompt (App. B.4)
  asks for ``(x, y)`` centres on the grid and fixes no other frame. An SVG counts rows from the top, so its
  rows are :func:`row_from_top`.
* Colours: the ``k``-th category of a map pair in alphabetical order (:func:`map_names`) is drawn in
  :func:`map_colour` of ``k`` in both renderings — matplotlib's ``tab10`` colours, then the light
  ``tab20`` ones — so a room's figure and its item pages give a category one colour.
"""

from __future__ import annotations

from collections.abc import Iterable

#: tab10, then the light halves of tab20: the first ten categories get the strong colours
MAP_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7",
    "#dbdb8d", "#9edae5",
)


def map_colour(index: int) -> str:
    """Return the colour of the ``index``-th category of a map pair (cycling after 20)."""
    return MAP_COLOURS[index % len(MAP_COLOURS)]


def row_from_top(y: float, grid: int) -> float:
    """Return grid ``y`` as a row counted from the top of a ``grid``-row map (y grows upwards).

    ``y = grid − 1`` (the top row) is row 0, ``y = 0`` row ``grid − 1``.
    """
    return grid - 1 - y


def map_names(*maps: Iterable[str]) -> list[str]:
    """Return the categories of the maps of a pair, each once, in alphabetical order (their colour order)."""
    return sorted({name for found in maps for name in found})
