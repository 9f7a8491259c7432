"""Scripted judges and view graphs for the phase-analysis tests (judge, consistency).

``add_view_graphs`` writes a small hand-made view graph (generator layout,
spatialbench.generate.remindview.viewgraph) into frame-set folders of the ReMindView fixture;
``judge_reply`` writes a valid judge JSON for given phase percentages (multiples of 10: stated 10,
correct percent / 10; None: the phase states nothing); ``question_of`` reads the item's question out of
a judge request's text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

FOUR_PHASES = (
    "**(1)** In frame0: the lamp is to the left of the bed. In frame1: the chair is in front of the desk.\n"
    "**(2)** frame1 is taken from the front-right of frame0.\n"
    "**(3)** From frame1, the lamp is to my left.\n"
    "**(4)** A. left"
)

VIEW_GRAPH = {
    "nodes": {
        "frames": [
            {"id": "frame0", "position": [0.0, 0.0, 1.5], "heading_deg": 0.0},
            {"id": "frame1", "position": [1.0, 1.0, 1.5], "heading_deg": 90.0},
        ],
        "objects": [
            {"id": 1, "name": "bed", "center": [2.0, 0.0, 0.3]},
            {"id": 2, "name": "lamp", "center": [2.0, 1.0, 0.8]},
        ],
    },
    "edges": {
        "visible": [
            {"frame": "frame0", "object": 1, "ratio": 0.8},
            {"frame": "frame0", "object": 2, "ratio": 0.4},
            {"frame": "frame1", "object": 2, "ratio": 0.9},
        ],
        "frame_relations": [
            {"from": "frame0", "to": "frame1", "direction": "front-left", "distance_m": 1.414214},
            {"from": "frame1", "to": "frame0", "direction": "back-left", "distance_m": 1.414214},
        ],
        "frame_triplets": [{"frame": "frame0", "subject": 2, "direction": "left", "reference": 1}],
        "object_triplets": [{"perspective": 1, "subject": 2, "direction": "front-left", "reference": 1}],
    },
}


def add_view_graphs(data: Path, skip: tuple[str, ...] = ()) -> list[str]:
    """Write ``view_graph.json`` into every fixture frame-set folder except those ending in ``skip``."""
    folders = json.loads((data / "frame_sets.json").read_text())
    written = []
    for folder in folders:
        if folder.endswith(skip) and skip:
            continue
        (data / folder / "view_graph.json").write_text(json.dumps(VIEW_GRAPH))
        written.append(folder)
    return written


def judge_reply(percents: tuple[int | None, int | None, int | None]) -> str:
    """Return a valid judge reply for phase percentages (module docstring), in a Markdown fence."""
    phases = {
        f"phase{k}": {"stated": 0, "correct": 0, "percent": None}
        if p is None
        else {"stated": 10, "correct": p // 10, "percent": p}
        for k, p in enumerate(percents, start=1)
    }
    return "```json\n" + json.dumps(phases) + "\n```"


def question_of(text: str) -> str:
    """Return the question a judge request names (the line after ``### Question ###``)."""
    match = re.search(r"### Question ###\n(.*)\n", text)
    return match.group(1) if match else ""


def answered_run(root: Path, answer: str) -> Path:
    """Run the ReMindView fixture (all view graphs) into ``root/run``, each item answered ``answer``."""
    from benchmarks.mmsi_remindview_fixtures import build_remindview
    from spatialbench.api import run
    from spatialbench.runs import RunConfig
    from support.openai_server import OpenAIServer, ServerScript

    data = build_remindview(root / "data")
    add_view_graphs(data)
    with OpenAIServer(ServerScript(answer=lambda text: answer)) as server:
        model = {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10}
        data_part = {"benchmark": "remindview", "path": str(data)}
        config = {"data": data_part, "model": model, "out": str(root / "run")}
        run(RunConfig.model_validate(config), progress=False)
    return root / "run"
