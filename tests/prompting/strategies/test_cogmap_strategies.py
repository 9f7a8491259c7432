"""cognitive-map and map-then-answer end to end: the official client, the scripted model, a hand-made scene.

Scene ``room0``: five 1 m cubes, centres (x, y) sofa (0.5, 0.5), chair (9.5, 0.5), table (0.5, 9.5), lamp
(9.5, 9.5), bed (5, 5). Object extent x, y ∈ [0, 10] m, isotropic: a 10 × 10 grid has 1 m cells, cell =
floor(x): sofa (0, 0), chair (9, 0), table (0, 9), lamp (9, 9), bed (5, 5); on 20 × 20, floor(2x): sofa
(1, 1), chair (19, 1), table (1, 19), lamp (19, 19), bed (10, 10).

q0 is a relative-distance question in the official wording (truth D, the bed); q1 counts chairs (truth 1;
the counting task has no categories-of-interest rule).
"""

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from spatialbench.api import run
from spatialbench.prompting.cogmap import map_then_answer_prefix
from spatialbench.runs import STORE_NAME, RunConfig
from spatialbench.scene.box import OrientedBox
from spatialbench.scene.metainfo import write_meta_info
from spatialbench.scene.model import ObjectInstance, Scene
from support.cot_server import CoTModel, CoTServer
from support.openai_server import LoggedRequest
from support.videos import encode_indexed_video

CENTRES = {
    "sofa": (0.5, 0.5),
    "chair": (9.5, 0.5),
    "table": (0.5, 9.5),
    "lamp": (9.5, 9.5),
    "bed": (5.0, 5.0),
}
QUESTION = (
    "[q0] Measuring from the closest point of each object, which of these objects (chair, table, lamp, bed) "
    "is the closest to the sofa?"
)
GT_10 = '{"chair": [(9, 0)], "table": [(0, 9)], "lamp": [(9, 9)], "bed": [(5, 5)], "sofa": [(0, 0)]}'
GT_20 = '{"chair": [(19, 1)], "table": [(1, 19)], "lamp": [(19, 19)], "bed": [(10, 10)], "sofa": [(1, 1)]}'


def _scene() -> Scene:
    objects = {
        name: (ObjectInstance(name, 0, OrientedBox(np.array([x, y, 0.5]), np.eye(3), np.ones(3))),)
        for name, (x, y) in CENTRES.items()
    }
    return Scene("room0", "arkitscenes", 100.0, np.array([5.0, 5.0, 1.0]), objects, dict.fromkeys(CENTRES, 1))


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cogmap")
    (root / "arkitscenes").mkdir()
    encode_indexed_video(root / "arkitscenes" / "room0.mp4", 8, 64, 64)
    (root / "meta_info").mkdir()
    write_meta_info([_scene()], root / "meta_info" / "room0.json")
    base = {"dataset": "arkitscenes", "scene_name": "room0"}
    records = [
        {**base, "id": 0, "question_type": "object_rel_distance", "question": QUESTION,
         "options": ["A. chair", "B. table", "C. lamp", "D. bed"], "ground_truth": "D"},
        {**base, "id": 1, "question_type": "object_counting", "question": "[q1] How many chair(s) are there?",
         "options": None, "ground_truth": "1"},
    ]  # fmt: skip
    (root / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return root


def _run(root: Path, out: Path, strategy: str, **params) -> tuple[list[LoggedRequest], dict, object]:
    # the map asked with every scene category (q1's, in meta-info order) comes back truncated
    model = CoTModel(lambda tag, phase, i: {"q0": "D", "q1": "1"}[tag], malformed_maps=("scene: ['sofa',",))
    with CoTServer(model) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(root)},
                "model": {
                    "name": f"openai-compatible:{server.url}#cot-vlm",
                    "concurrency": 2,
                    "timeout_s": 10,
                },
                "media": {"frames": "uniform:4"},
                "strategy": {"name": strategy, "params": params},
                "out": str(out),
            }
        )
        summary = run(config, progress=False)
    with sqlite3.connect(out / STORE_NAME) as conn:
        rows = conn.execute("SELECT item_id, status, response, error, raw FROM results").fetchall()
    return server.script.log, {r[0]: r for r in rows}, summary


def _texts(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


def _trace(rows: dict, item: str) -> dict:
    return json.loads(rows[item][4])["trace"]


def test_map_then_answer_asks_the_map_then_the_question_in_one_dialogue(data, tmp_path) -> None:
    log, rows, summary = _run(data, tmp_path / "own", "map-then-answer")
    assert summary.counts["ok"] == 2 and len(log) == 4
    first = [r for r in log if len(r.body["messages"]) == 1]
    second = [r for r in log if len(r.body["messages"]) == 3]
    assert len(first) == len(second) == 2 and all(r.n_images == 4 for r in log)
    prompts = sorted(_texts(r.body["messages"][0]) for r in first)
    assert all(
        p.startswith("[Task]\nThis video captures an indoor scene.") and "10x10 grid" in p for p in prompts
    )
    # q0: the question's categories (choices, then the reference); q1 (counting, no rule): the scene's
    assert "care about in this scene: ['chair', 'table', 'lamp', 'bed', 'sofa']." in "".join(prompts)
    assert "to care about in this scene: ['sofa', 'chair', 'table', 'lamp', 'bed']." in "".join(prompts)
    for request in second:  # its own map, as it wrote it
        assert request.body["messages"][1]["content"].startswith(
            ('```json\n{"chair": [(3, 4)', "Here is my map")
        )
        turn = _texts(request.body["messages"][2])
        assert turn.startswith("According to the original video and the predicted objects' center locations")
    # turn 2 as the official cogmap branch sends it: its sentence is the pre-prompt (no "These are frames")
    turns = sorted(_texts(r.body["messages"][2]) for r in second)
    assert turns == [
        "According to the original video and the predicted objects' center locations, answer the following "
        f"question:\n{QUESTION}\nOptions:\nA. chair\nB. table\nC. lamp\nD. bed\n"
        "Answer with the option's letter from the given choices directly.",
        "According to the original video and the predicted objects' center locations, answer the following "
        "question:\n[q1] How many chair(s) are there?\n"
        "Please answer the question using a single word or phrase.",
    ]
    trace = _trace(rows, "0")
    assert trace["map"] == {"chair": [[3, 4], [5, 6]], "table": [[4, 4]]}
    assert trace["missing"] == ["lamp", "bed", "sofa"] and trace["map_source"] == "own"
    gt_10 = {"chair": [[9, 0]], "table": [[0, 9]], "lamp": [[9, 9]], "bed": [[5, 5]], "sofa": [[0, 0]]}
    assert trace["ground_truth"] == gt_10  # as GT_10
    broken = _trace(rows, "1")
    assert broken["problems"] and broken["missing"]  # the truncated map: reported, and q1 still answered
    assert rows["0"][2] == "D" and rows["1"][2] == "1"
    assert json.loads((tmp_path / "own" / "scores.json").read_text())["overall"] == 100.0


def test_map_then_answer_with_the_ground_truth_map_sends_only_the_question(data, tmp_path) -> None:
    log, rows, summary = _run(
        data, tmp_path / "gt", "map-then-answer", map_source="ground_truth", grid_size=20
    )
    assert summary.counts["ok"] == 2 and len(log) == 2
    given = {r.body["messages"][1]["content"] for r in log}
    all_20 = (
        '{"sofa": [(1, 1)], "chair": [(19, 1)], "table": [(1, 19)], "lamp": [(19, 19)], "bed": [(10, 10)]}'
    )
    assert given == {GT_20, all_20}  # q0: its categories; q1: every category, meta-info order
    assert all("20x20 grid" in _texts(r.body["messages"][0]) for r in log)
    assert _trace(rows, "0")["map"]["bed"] == [[10.0, 10.0]]


def test_cognitive_map_alone_keeps_the_parsed_map_beside_the_ground_truth(data, tmp_path) -> None:
    log, rows, summary = _run(data, tmp_path / "map", "cognitive-map")
    assert summary.counts["ok"] == 2 and len(log) == 2 and all(len(r.body["messages"]) == 1 for r in log)
    trace = _trace(rows, "0")
    assert trace["categories"] == ["sofa", "chair", "table", "lamp", "bed"]  # every scene category
    assert trace["map"] == {} and trace["problems"]  # the truncated map: nothing readable, said so
    assert trace["missing"] == trace["categories"]
    assert trace["ground_truth"]["lamp"] == [[9.0, 9.0]] and trace["ground_truth"]["sofa"] == [[0.0, 0.0]]
    _, rows, _ = _run(data, tmp_path / "question", "cognitive-map", categories="question")
    assert _trace(rows, "0")["map"] == {"chair": [[3, 4], [5, 6]], "table": [[4, 4]]}  # q0's categories
    raw = json.loads(rows["0"][4])
    assert raw["strategy"] == "cognitive-map" and raw["requests"] == 1


def test_without_scenes_a_task_without_rule_fails_clearly(data, tmp_path) -> None:
    bare = tmp_path / "bare"
    (bare / "arkitscenes").mkdir(parents=True)
    (bare / "arkitscenes" / "room0.mp4").write_bytes((data / "arkitscenes" / "room0.mp4").read_bytes())
    (bare / "test.jsonl").write_text((data / "test.jsonl").read_text())
    log, rows, summary = _run(bare, tmp_path / "run", "map-then-answer")
    assert summary.counts == {"ok": 1, "empty": 0, "failed": 1} and len(log) == 2  # q0 only
    assert "task object_counting has no categories-of-interest rule: give -S meta_info=PATH" in rows["1"][3]


def test_unreadable_meta_info_is_a_set_up_error(data, tmp_path) -> None:
    from spatialbench.runs import RunSetupError

    with pytest.raises(RunSetupError, match="meta_info .*missing"):
        _run(data, tmp_path / "run", "cognitive-map", meta_info=str(tmp_path / "missing"))


def test_map_then_answer_records_its_pre_prompt_and_keeps_a_users(data) -> None:
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.runs.prepare import resolve_config

    def config(**prompt) -> RunConfig:
        return RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": str(data)}, "model": {"name": "openai-compatible:x#m"},
            "strategy": {"name": "map-then-answer"}, "prompt": prompt, "out": "unused"})  # fmt: skip

    spec = get_benchmark("vsibench")
    resolved, _ = resolve_config(config(), spec)
    assert resolved.prompt.overrides == {"pre_prompt": map_then_answer_prefix()}
    assert resolve_config(resolved, spec)[0] == resolved  # idempotent
    mine = resolve_config(config(overrides={"pre_prompt": "Mine."}), spec)[0]
    assert mine.prompt.overrides == {"pre_prompt": "Mine."}
