"""The view graph of one sample: the ground truth reasoning is judged against (ReMindView-Bench App. D.1).

Nodes: the viewpoints (``frame<k>``: position, heading) and the question objects (name, centre). Edges:

- ``visible``: which objects each frame shows (ratio above the threshold) and the ratio;
- ``frame_relations``: for every ordered pair of frames, the direction of the second camera from the first
  camera's view and their distance (metres);
- ``frame_triplets``: in each frame's view, ``<subject, direction, reference>`` for every ordered pair of
  objects that frame shows (the direction of the subject from the reference, the frame's heading);
- ``object_triplets``: for every object with a front, ``<object, direction, other>``: the direction of each
  other object from it, facing its front.

Vertical pairs (overlapping footprints) get no direction.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

import numpy as np

from spatialbench.generate.remindview.frameset import FrameSet
from spatialbench.generate.remindview.relations import Viewer, bearing, distance, footprints_overlap


def view_graph(frames: FrameSet) -> dict[str, Any]:
    """Return the view graph of ``frames`` as JSON-ready data (module docstring)."""
    objects = frames.objects
    nodes = {
        "frames": [
            {
                "id": f"frame{f}",
                "position": np.round(frames.camera(f).position, 6).tolist(),
                "heading_deg": round(float(np.degrees(frames.camera(f).heading)) % 360.0, 3),
            }
            for f in range(frames.frame_count)
        ],
        "objects": [
            {"id": o.instance_id, "name": o.name, "center": np.round(o.center, 6).tolist()}
            for _, o in sorted(objects.items())
        ],
    }
    return {"nodes": nodes, "edges": _edges(frames)}


def _edges(frames: FrameSet) -> dict[str, list[dict[str, Any]]]:
    objects = frames.objects
    visible = [
        {"frame": f"frame{f}", "object": i, "ratio": round(frames.ratios[f][i], 6)}
        for f in range(frames.frame_count)
        for i in sorted(frames.visible(f))
    ]
    relations = [
        {
            "from": f"frame{a}",
            "to": f"frame{b}",
            "direction": bearing(frames.camera(a), frames.camera(b).position).direction,
            "distance_m": round(distance(frames.camera(a).position, frames.camera(b).position), 6),
        }
        for a, b in permutations(range(frames.frame_count), 2)
    ]
    frame_triplets = [
        {"frame": f"frame{f}", **triplet}
        for f in range(frames.frame_count)
        for triplet in _triplets(frames, sorted(frames.visible(f)), frames.camera(f).heading)
    ]
    object_triplets = [
        {"perspective": i, **triplet}
        for i, obj in sorted(objects.items())
        if obj.heading is not None
        for triplet in _triplets(frames, sorted(objects), obj.heading, reference=i)
    ]
    return {
        "visible": visible,
        "frame_relations": relations,
        "frame_triplets": frame_triplets,
        "object_triplets": object_triplets,
    }


def _triplets(
    frames: FrameSet, ids: list[int], heading: float, reference: int | None = None
) -> list[dict[str, Any]]:
    """``<subject, direction, reference>`` of ordered pairs of ``ids`` (only ``reference`` if given)."""
    objects = frames.objects
    out = []
    for subject, ref in permutations(ids, 2):
        if reference is not None and ref != reference:
            continue
        if footprints_overlap(objects[subject].footprint, objects[ref].footprint):
            continue
        viewer = Viewer(objects[ref].center, heading)
        out.append(
            {
                "subject": subject,
                "direction": bearing(viewer, objects[subject].center).direction,
                "reference": ref,
            }
        )
    return out
