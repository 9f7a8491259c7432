"""The transcript of an item on its page: each turn as sent and received, images as thumbnails, maps drawn.

Built on :func:`spatialbench.runs.transcript.transcript` (read through the run folder). A frame file is
shown as itself; a video frame as the video at that time (``#t=SECONDS`` media fragment, no decoding on
the server). Maps are inline SVG grids: the model's map beside the ground truth (VSI-Bench Fig. 9).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from spatialbench.runs.transcript import SentImage, Transcript, transcript
from spatialbench.web.runs import ServedRun

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def source_url(root: Path, source: str) -> str | None:
    """Return the ``/media`` URL of a stored media path (None when outside the data folder ``root``)."""
    path = Path(source)
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(root.resolve())
        except ValueError:
            return None
    return "/media/" + quote(path.as_posix())


def thumbnail(root: Path, image: SentImage) -> dict[str, Any]:
    """Return a thumbnail's ``url`` (a video's with ``#t=``), ``video`` (bool), ``label`` and ``time_s``."""
    url = source_url(root, image.source)
    if url is not None and not image.is_file and image.time_s is not None:
        url = f"{url}#t={image.time_s:.3f}"
    return {"url": url, "video": not image.is_file, "label": image.label, "time_s": image.time_s}


def map_svg(points: dict[str, list[list[float]]], grid: int, names: list[str], title: str) -> Markup:
    """Return an SVG of a cognitive map: a ``grid`` x ``grid`` board, each category's cells as dots.

    ``names`` fixes each category's colour across the two maps of a pair.
    """
    cell, size = 14, 14 * grid
    dots = []
    for name, cells in points.items():
        colour = _COLOURS[names.index(name) % len(_COLOURS)] if name in names else "#555"
        for p in cells:
            if len(p) == 2:
                cx, cy = (float(p[0]) + 0.5) * cell, (float(p[1]) + 0.5) * cell
                dots.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="{colour}">'
                            f"<title>{escape(name)} ({p[0]:g}, {p[1]:g})</title></circle>")
    legend = "".join(f'<tspan fill="{_COLOURS[k % len(_COLOURS)]}">● {escape(n)} </tspan>'
                     for k, n in enumerate(names))
    width = max(size + 2, 62 * len(names))  # the legend fits on one line
    return Markup(
        f'<svg class="cogmap" width="{width}" height="{size + 40}" viewBox="-1 -22 {width} {size + 40}">'
        f'<text x="0" y="-8" font-size="12">{escape(title)}</text>'
        f'<rect x="0" y="0" width="{size}" height="{size}" fill="#fafafa" stroke="#999"/>'
        f'<path d="{_grid_lines(grid, cell)}" stroke="#e5e5e5"/>{"".join(dots)}'
        f'<text x="0" y="{size + 13}" font-size="10">{legend}</text></svg>')


def _grid_lines(grid: int, cell: int) -> str:
    return " ".join(f"M{k * cell} 0V{grid * cell}M0 {k * cell}H{grid * cell}" for k in range(1, grid))


def transcript_view(root: Path, run: ServedRun, item_id: str) -> dict[str, Any] | None:
    """Return what the item page shows of ``run``'s dialogue for the item (None when it stored nothing)."""
    found: Transcript | None = transcript(run.folder, item_id)
    if found is None:
        return None
    turns = [{"turn": t, "thumbs": [thumbnail(root, i) for i in t.images]} for t in found.turns]
    maps = None
    if found.predicted_map is not None or found.truth_map is not None:
        names = list(dict.fromkeys([*(found.truth_map or {}), *(found.predicted_map or {})]))
        maps = [map_svg(found.predicted_map or {}, found.grid, names, "predicted map"),
                map_svg(found.truth_map or {}, found.grid, names, "ground truth")]
    return {"t": found, "turns": turns, "maps": maps}
