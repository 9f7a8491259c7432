"""Charts (layer 1, beside ``scoring`` and ``media``): generic matplotlib figures, written as PNG and SVG.

Analyses and the report draw them; each is written by :func:`save`.

Public: :func:`grouped_bars`, :func:`stacked_bars`, :func:`curves`, :func:`map_pair`, :func:`save`,
:func:`number`, :data:`PALETTE`, :data:`LABEL_POINTS` (the smallest text, pt), :data:`Value`.
"""

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

__all__ = ["FORMATS", "LABEL_POINTS", "PALETTE", "Value", "curves", "grouped_bars", "map_pair", "number",
           "save", "stacked_bars"]
