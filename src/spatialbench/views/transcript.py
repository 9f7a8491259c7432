"""An item's dialogue as one HTML fragment: each turn as sent and received, images as thumbnails, maps drawn.

The one renderer of :class:`~spatialbench.runs.transcript.Transcript` for the static report and the UI
(``data/transcript.html.j2``, autoescaped; ``data/transcript.css`` its style). Each turn shows the system
text, the images it sent (thumbnails labelled by frame name or time), its text, the reply, status, token
counts, latency and the raw request (redacted, folded); a map strategy's predicted map is drawn beside the
ground truth (VSI-Bench Fig. 9, inline SVG); the requests an analysis sent about the item (judge,
self-consistency check) follow with their verdicts. Where an image lives is the caller's: a ``ThumbOf``
gives its :class:`Thumb`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import jinja2
from markupsafe import Markup, escape

from spatialbench.charts import map_colour, map_names, row_from_top
from spatialbench.runs.transcript import SentImage, Transcript, TranscriptTurn


@dataclass(frozen=True)
class Thumb:
    """Where one sent image is shown.

    ``url`` (None: not available), ``video`` (the URL is a video to show at its ``#t=`` time, else an
    image), ``label`` (frame name or time) and ``time_s`` (seconds, or None).
    """

    url: str | None
    video: bool
    label: str
    time_s: float | None = None


ThumbOf = Callable[[SentImage], Thumb]
"""Return the :class:`Thumb` of a sent image (the UI: a ``/media`` URL; the report: a thumbnail file)."""


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("spatialbench.views", "data"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def stylesheet() -> str:
    """Return the CSS of the transcript fragment (``data/transcript.css``)."""
    return files("spatialbench.views").joinpath("data/transcript.css").read_text(encoding="utf-8")


def map_svg(points: dict[str, list[list[float]]], grid: int, names: list[str], title: str) -> Markup:
    """Return an SVG of a cognitive map: a ``grid`` x ``grid`` board, each category's cells as dots.

    ``points``: category → ``[x, y]`` grid cells; ``names`` fixes each category's colour across the two
    maps of a pair (one :func:`map_legend` below the pair names them). Drawn as the cognitive-map figure
    draws it (:mod:`spatialbench.charts.palette`): y upwards, cell (0, 0) at the bottom left, the same
    colour per category.
    """
    cell, size = 14, 14 * grid
    dots = []
    for name, cells in points.items():
        colour = map_colour(names.index(name)) if name in names else "#555"
        for p in cells:
            if len(p) == 2:
                cx, cy = (float(p[0]) + 0.5) * cell, (row_from_top(float(p[1]), grid) + 0.5) * cell
                dots.append(
                    f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{colour}">'
                    f"<title>{escape(name)} ({_cell(p[0])}, {_cell(p[1])})</title></circle>"
                )
    width = size + 2
    return Markup(
        f'<svg class="cogmap" width="{width}" height="{size + 24}" viewBox="-1 -22 {width} {size + 24}">'
        f'<text x="0" y="-8" font-size="12">{escape(title)}</text>'
        f'<rect x="0" y="0" width="{size}" height="{size}" fill="#fafafa" stroke="#999"/>'
        f'<path d="{_grid_lines(grid, cell)}" stroke="#e5e5e5"/>{"".join(dots)}</svg>'
    )


def map_legend(names: list[str]) -> Markup:
    """Return an SVG line naming each category in its :func:`map_svg` colour (one legend for a map pair)."""
    legend = "".join(
        f'<tspan fill="{map_colour(k)}">● {escape(n)} </tspan>' for k, n in enumerate(names)
    )
    width = 62 * len(names)  # the legend fits on one line
    return Markup(
        f'<svg class="cogmap-legend" width="{width}" height="16" viewBox="0 0 {width} 16">'
        f'<text x="0" y="12" font-size="11">{legend}</text></svg>'
    )


def _cell(value: float) -> str:
    """Write a map coordinate: a cell index as an integer (``3``), a continuous one with one decimal."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _grid_lines(grid: int, cell: int) -> str:
    return " ".join(f"M{k * cell} 0V{grid * cell}M0 {k * cell}H{grid * cell}" for k in range(1, grid))


def _maps(found: Transcript) -> tuple[list[Markup], Markup] | None:
    if found.predicted_map is None and found.truth_map is None:
        return None
    names = map_names(found.truth_map or {}, found.predicted_map or {})
    pair = [
        map_svg(found.predicted_map or {}, found.grid, names, "predicted map"),
        map_svg(found.truth_map or {}, found.grid, names, "ground truth"),
    ]
    return pair, map_legend(names)


def _turns(turns: list[TranscriptTurn], thumb: ThumbOf) -> list[dict[str, object]]:
    return [{"turn": t, "thumbs": [thumb(i) for i in t.images]} for t in turns]


def transcript_html(found: Transcript, thumb: ThumbOf) -> Markup:
    """Return the HTML fragment of ``found`` (module docstring); ``thumb`` places each image sent.

    Model text is escaped as text (never interpreted); nothing raises on it.
    """
    side = [{"d": d, "turns": _turns(d.turns, thumb)} for d in found.side]
    html = (
        _environment()
        .get_template("transcript.html.j2")
        .render(t=found, turns=_turns(found.turns, thumb), maps=_maps(found), side=side)
    )
    return Markup(html)
