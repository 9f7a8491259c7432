"""A one-room VSI-Bench folder (a real video and its meta-info) and strategy runs on it, for transcript views.

``strategy_runs(root)`` writes ``root/data`` and the runs ``root/runs/cot`` (zero-shot CoT) and
``root/runs/map`` (map-then-answer), both answered by the scripted reasoning model of ``cot_server``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from spatialbench.api import run
from spatialbench.runs import RunConfig
from spatialbench.scene.box import OrientedBox
from spatialbench.scene.metainfo import write_meta_info
from spatialbench.scene.model import ObjectInstance, Scene
from support.cot_server import CoTModel, CoTServer
from support.videos import encode_indexed_video

CENTRES = {"sofa": (0.5, 0.5), "chair": (9.5, 0.5), "table": (0.5, 9.5), "lamp": (9.5, 9.5),
           "bed": (5.0, 5.0)}
QUESTION = ("[q0] Measuring from the closest point of each object, which of these objects (chair, table, "
            "lamp, bed) is the closest to the sofa?")


def _scene() -> Scene:
    objects = {name: (ObjectInstance(name, 0, OrientedBox(np.array([x, y, 0.5]), np.eye(3), np.ones(3))),)
               for name, (x, y) in CENTRES.items()}
    return Scene("room0", "arkitscenes", 100.0, np.array([5.0, 5.0, 1.0]), objects, dict.fromkeys(CENTRES, 1))


def room_data(root: Path) -> Path:
    """Write the one-room benchmark (2 items: a relative distance and a count) under ``root``."""
    (root / "arkitscenes").mkdir(parents=True)
    encode_indexed_video(root / "arkitscenes" / "room0.mp4", 8, 64, 64)
    (root / "meta_info").mkdir()
    write_meta_info([_scene()], root / "meta_info" / "room0.json")
    base = {"dataset": "arkitscenes", "scene_name": "room0"}
    records = [
        {**base, "id": 0, "question_type": "object_rel_distance", "question": QUESTION,
         "options": ["A. chair", "B. table", "C. lamp", "D. bed"], "ground_truth": "D"},
        {**base, "id": 1, "question_type": "object_counting", "question": "[q1] How many chair(s) are there?",
         "options": None, "ground_truth": "1"},
    ]
    (root / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root


def strategy_runs(root: Path) -> dict[str, Path]:
    """Write ``root/data`` and run zero-shot CoT (``cot``) and map-then-answer (``map``) on it."""
    data = room_data(root / "data")
    model = CoTModel(lambda tag, phase, i: {"q0": "D", "q1": "1"}[tag])
    out = {}
    with CoTServer(model) as server:
        for name, strategy in (("cot", "zero-shot-cot"), ("map", "map-then-answer")):
            out[name] = root / "runs" / name
            config = RunConfig.model_validate({
                "data": {"benchmark": "vsibench", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#cot-vlm", "concurrency": 2,
                          "timeout_s": 10},
                "media": {"frames": "uniform:4"},
                "strategy": {"name": strategy},
                "out": str(out[name]),
            })
            run(config, progress=False)
    return {"data": data, **out}
