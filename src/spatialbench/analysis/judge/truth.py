"""The ground truth a judge reads: a sample's view graph, written beside its frames (App. D.1).

``spatialbench generate remindview`` writes ``view_graph.json`` in every frame-set folder
(:mod:`spatialbench.generate.remindview.viewgraph`): frames, objects, which objects each frame shows,
frame-to-frame directions, and ``<subject, direction, reference>`` triplets per frame view and per
object perspective. The official ReMindView-Bench release has no such file (only frames and QA tables),
so its items have no ground truth to judge against and are counted ``no_ground_truth``, not guessed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialbench.records.item import Item, MediaKind

VIEW_GRAPH = "view_graph.json"


def frame_folder(item: Item, data_root: Path) -> Path | None:
    """Return the folder holding the item's frames (relative media paths are under ``data_root``)."""
    if not item.media:
        return None
    path = Path(item.media[0].path)
    path = path if path.is_absolute() else data_root / path
    return path if item.media[0].kind is MediaKind.FRAMES else path.parent


def load_view_graph(item: Item, data_root: Path) -> dict[str, Any] | None:
    """Return the item's view graph, or None when its folder has none or it is not a JSON object."""
    folder = frame_folder(item, data_root)
    if folder is None or not (folder / VIEW_GRAPH).is_file():
        return None
    try:
        graph = json.loads((folder / VIEW_GRAPH).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return graph if isinstance(graph, dict) else None


def _lines(rows: list[str]) -> str:
    return "\n".join(rows) if rows else "(none)"


def metadata_sections(graph: dict[str, Any]) -> dict[str, str]:
    """Return the ``visible``, ``frame_relations`` and ``triplets`` texts of a view graph, a fact a line.

    Raises:
        ValueError, TypeError, AttributeError: a view graph whose fields are not as written by the generator.
    """
    nodes, edges = graph.get("nodes") or {}, graph.get("edges") or {}
    names = {o.get("id"): str(o.get("name")) for o in nodes.get("objects") or []}
    visible: dict[str, list[str]] = {str(f.get("id")): [] for f in nodes.get("frames") or []}
    for row in edges.get("visible") or []:
        shown = row.get("object")
        visible.setdefault(str(row.get("frame")), []).append(names.get(shown, str(shown)))
    relations = [
        f"{r.get('to')} is {r.get('direction')} of {r.get('from')} ({float(r.get('distance_m', 0)):.2f} m)"
        for r in edges.get("frame_relations") or []
    ]

    def triplet(row: dict[str, Any], view: str) -> str:
        subject, reference = names.get(row.get("subject")), names.get(row.get("reference"))
        return f"{view}: <{subject}, {row.get('direction')}, {reference}>"

    triplets = [triplet(r, f"in {r.get('frame')}") for r in edges.get("frame_triplets") or []]
    triplets += [
        triplet(r, f"facing the front of {names.get(r.get('perspective'))}")
        for r in edges.get("object_triplets") or []
    ]
    return {
        "visible": _lines([f"{frame}: {', '.join(objs) or '(nothing)'}" for frame, objs in visible.items()]),
        "frame_relations": _lines(relations),
        "triplets": _lines(triplets),
    }
