"""What the UI's and the static report's item tables share: score colours, the sort / filter script.

``data/tables.js`` sorts a table by a clicked ``th.sortable`` (``aria-sort`` set, the arrow drawn by
``data/tables.css``) and hides rows that lack the words typed in a ``data-filter`` box; the UI serves both
files, the report inlines them. :func:`score_class` colours a score cell the same way in both.
"""

from __future__ import annotations

from importlib.resources import files

HIGH, MIDDLE = 0.75, 0.25
"""Score thresholds (scores in [0, 1]): at least HIGH is green, at least MIDDLE yellow, else red."""


def score_class(score: float | None) -> str:
    """Return the CSS class of a score cell: ``s-hi``, ``s-mid``, ``s-lo`` ("" for no score)."""
    if score is None or score != score:  # NaN: not scored
        return ""
    return "s-hi" if score >= HIGH else "s-mid" if score >= MIDDLE else "s-lo"


def table_script() -> str:
    """Return the sort / filter script (``data/tables.js``)."""
    return files("spatialbench.views").joinpath("data/tables.js").read_text(encoding="utf-8")


def table_css() -> str:
    """Return the style of score colours and sort arrows (``data/tables.css``)."""
    return files("spatialbench.views").joinpath("data/tables.css").read_text(encoding="utf-8")
