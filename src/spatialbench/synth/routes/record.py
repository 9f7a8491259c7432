"""A planned route as one line of the route file of :mod:`spatialbench.generate.vsi.route`."""

from __future__ import annotations

from typing import Any

from spatialbench.synth.routes.model import Route, Turn


def route_record(route: Route, scene_id: str, dataset: str) -> dict[str, Any]:
    """Return the route in the route-file format of :mod:`spatialbench.generate.vsi.route` (one JSON line).

    Landmarks are named with "the" as the official questions do ("Go forward until the sofa"); the
    replay data (start pose, planner semantics) goes into ``metadata``.
    """
    steps: list[dict[str, str]] = [
        {"turn": a.name.lower()} if isinstance(a, Turn) else {"forward": f"the {a.landmark}"}
        for a in route.actions
    ]
    pose = route.start_pose
    return {
        "scene_id": scene_id,
        "dataset": dataset,
        "start": f"the {route.start}",
        "facing": f"the {route.facing}",
        "goal": f"the {route.goal}",
        "steps": steps,
        "metadata": {
            "start_pose": [pose.row, pose.col, pose.heading],
            "planner": "spatialbench.synth.routes",
        },
    }
