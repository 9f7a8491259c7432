"""Charts (layer 1, beside ``scoring`` and ``media``): generic matplotlib figures, written as PNG and SVG.

Analyses and the report draw them; each is written by :func:`save`.

Public: :func:`grouped_bars`, :func:`stacked_bars`, :func:`curves`, :func:`map_pair`, :func:`save`,
:func:`number`, :data:`PALETTE`, :data:`LABEL_POINTS` (the smallest text, pt), :data:`Value`; how a
cognitive map is drawn anywhere (:mod:`spatialbench.charts.palette`): :func:`map_colour`,
:func:`map_names`, :func:`row_from_top`, :data:`MAP_COLOURS`.

The drawing names load matplotlib on first use: the HTML map of the UI takes its colours from here
without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spatialbench.charts.palette import MAP_COLOURS, map_colour, map_names, row_from_top

if TYPE_CHECKING:
    from spatialbench.charts.draw import (
        FORMATS,
        LABEL_POINTS,
        PALETTE,
        Value,
        curves,
        grouped_bars,
        map_pair,
        number,
        save,
        stacked_bars,
    )

_DRAWN = ("FORMATS", "LABEL_POINTS", "PALETTE", "Value", "curves", "grouped_bars", "map_pair", "number",
          "save", "stacked_bars")

__all__ = ["FORMATS", "LABEL_POINTS", "MAP_COLOURS", "PALETTE", "Value", "curves", "grouped_bars",
           "map_colour", "map_names", "map_pair", "number", "row_from_top", "save", "stacked_bars"]


def __getattr__(name: str) -> Any:
    """Load a drawing name (and matplotlib) from :mod:`spatialbench.charts.draw` when first asked for."""
    if name in _DRAWN:
        from spatialbench.charts import draw

        return getattr(draw, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
