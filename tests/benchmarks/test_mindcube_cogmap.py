"""MindCube's cognitive-map scores: the official metrics on fixture maps, and a loopback run scored by them.

The expected numbers were computed once, outside the repository, by the official code (github
mll-lab-nu/MindCube, commit 6d8fd9acdf5b80769373a21cdbfcf068ab356e0f): ``calculate_cogmap_similarity``
(``src/evaluation/cogmap/cogmap_metrics.py``) on ``extract_json_from_text`` (``src/evaluation/core/
extractors.py``) of each response below, and ``CogMapEvaluator.evaluate`` (``src/evaluation/cogmap/
cogmap_evaluator.py``) on a JSONL of these rows (``id``, ``gt_answer``, ``answer``: the response,
``grounded_cogmap``: the JSON text). They are written here; spatialbench's values equal them (Δ 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mindcube.cogmap import map_similarity, read_map
from spatialbench.cli.main import app
from support.image_tables import png
from support.scripted_runs import scripted_run

G1 = {
    "objects": [
        {"name": "sofa", "position": [5, 5]},
        {"name": "table", "position": [5, 7], "facing": "up"},
        {"name": "lamp", "position": [7, 5]},
    ],
    "views": [
        {"name": "View 1", "position": [5, 9], "facing": "up"},
        {"name": "View 2", "position": [9, 5], "facing": "left"},
    ],
}
G2 = {
    "cup": {"position": [3, 3], "facing": "inner"},
    "plate": {"position": [3, 3.3]},
    "box": {"position": [6, 3]},
}
G3 = {
    "objects": [
        {"name": "bed", "position": [2, 2], "facing": "down"},
        {"name": "desk", "position": [8, 2]},
        {"name": "chair", "position": [8, 8], "facing": "left"},
        {"name": "rug", "position": [2, 8]},
    ],
    "views": [{"name": "View 1", "position": [5, 9], "facing": "up"}],
}
PLAIN = {
    "sofa": {"position": [5, 5]},
    "table": {"position": [5, 7], "facing": "up"},
    "lamp": {"position": [7, 5]},
}
TURNED = {
    "sofa": {"position": [5, -5]},
    "table": {"position": [7, -5], "facing": "left"},  # G1 turned -90°
    "lamp": {"position": [5, -7]},
}
MIXED = {
    "sofa": {"position": [5, 5]},
    "table": {"position": [5, 7], "facing": "right"},
    "lamp": {"position": [3, 5]},
}
SKEW = {
    "objects": [
        {"name": "bed", "position": [2, 2], "facing": "down"},
        {"name": "desk", "position": [8, 2]},
        {"name": "chair", "position": [2, 9], "facing": "up"},
        {"name": "rug", "position": [8, 8]},
    ],
    "views": [{"name": "View 1", "position": [5, 9], "facing": "up"}],
}
CUPS = (
    '{"cup": {"position": [3, 3], "facing": "front"}, "plate": {"position": [3, 3.2]}, '
    '"box": {"position": [3, 6]}}'
)


def wrap(cogmap: str, letter: str) -> str:
    """The response format the cognitive-map prompts ask for (official templates.py)."""
    opening = "Based on my observation, the answer is:\n"
    return f"{opening}<cogmap>```json\n{cogmap}\n```</cogmap><answer>{letter}</answer>"


# (id, gt_answer, grounded map, response)
CASES = [
    ("rotation_a_1", "A", G1, wrap(json.dumps(G1), "A. Above")),
    ("rotation_a_2", "A", G1, wrap(json.dumps(PLAIN), "B. Under")),
    ("among_b_1", "C", G1, wrap(json.dumps(TURNED), "C. Front")),
    ("among_b_2", "A", G1, wrap(json.dumps(MIXED), "A. Above")),
    ("around_c_1", "D", G1, wrap('{"sofa": {"position": [5, 5], "facing": "diagonal"}}', "D. Behind")),
    ("around_c_2", "B", G1, "no map here <answer>B</answer>"),
    ("around_c_3", "A", G1, wrap("{sofa: {position: [5, 5]}, lamp: {position: [7, 5]},}", "A")),  # cleaned
    ("among_d_1", "A", G2, wrap(CUPS, "B")),
    ("translation_e_1", "A", G2, wrap(json.dumps(G2), "A")),
    ("rotation_f_1", "C", G3, wrap(json.dumps(SKEW), "C")),
    (
        "around_f_2",
        "D",
        G3,
        wrap(json.dumps({"bed": {"position": [2, 2], "facing": "left"}, "desk": {"position": [8, 2]}}), "D"),
    ),
]
# official calculate_cogmap_similarity per item: (valid_format, valid_graph, coverage, isomorphic,
# directional, facing, overall, best rotation); None: not compared (no JSON in the response)
OFFICIAL = {
    "rotation_a_1": (True, True, 1.0, True, 1.0, 1.0, 1.0, "identity"),
    "rotation_a_2": (True, True, 1.0, True, 1.0, 1.0, 1.0, "identity"),  # plain vs augmented: objects only
    "among_b_1": (True, True, 1.0, True, 1.0, 1.0, 1.0, "z_rot_90"),
    "among_b_2": (True, True, 1.0, False, 0.6666666666666666, 0.0, 0.4666666666666666, "identity"),
    "around_c_1": (False, False, 0.0, False, 0.0, 0.0, 0.0, None),  # "diagonal" is no facing
    "around_c_2": None,
    "around_c_3": (True, True, 0.6666666666666666, False, 1.0, 1.0, 1.0, "identity"),
    "among_d_1": (True, True, 1.0, True, 1.0, 1.0, 1.0, "z_rot_270"),  # front -> inner, close -> inner
    "translation_e_1": (True, True, 1.0, True, 1.0, 1.0, 1.0, "identity"),
    "rotation_f_1": (True, True, 1.0, False, 0.7, 0.6666666666666666, 0.69, "identity"),
    "around_f_2": (True, True, 0.5, False, 1.0, 0.0, 0.7, "identity"),
}
# official CogMapEvaluator (translation out of the overall): 10 questions, 9 parsable, 8 valid, 4 isomorphic;
# means over the 8 valid maps: overall 6.85666.../8, directional 7.36666.../8, facing 5.66666.../8
EVALUATOR = {
    "total": 10,
    "parsable": 9,
    "valid": 8,
    "isomorphic": 4,
    "overall": 0.8570833333333333,
    "directional": 0.9208333333333334,
    "facing": 0.7083333333333334,
}
ROTATIONS = {"identity": 6, "z_rot_90": 1, "z_rot_270": 1}  # official rotation_distribution
# per setting: (total, parsable, valid, isomorphic, avg overall, avg directional, avg facing)
SETTINGS = {
    "around": (4, 3, 2, 0, 0.85, 1.0, 0.5),
    "rotation": (3, 3, 3, 2, 0.8966666666666666, 0.9, 0.8888888888888888),
    "translation": (1, 1, 1, 1, 1.0, 1.0, 1.0),
    "among": (3, 3, 3, 2, 0.8222222222222223, 0.8888888888888888, 0.6666666666666666),
}


def test_similarity_is_the_official_one() -> None:
    for item_id, _, grounded, response in CASES:
        generated, truth = read_map(response), read_map(json.dumps(grounded))
        expected = OFFICIAL[item_id]
        if expected is None:
            assert generated is None
            continue
        s = map_similarity(generated, truth)
        got = (
            s.valid_format,
            s.valid_graph,
            s.coverage,
            s.isomorphic,
            s.directional,
            s.facing,
            s.overall,
            s.rotation,
        )
        assert s.parsable and got == pytest.approx(expected), item_id  # Δ 0 (floats as the official's)


def test_odd_maps_never_raise() -> None:
    assert map_similarity({"sofa": []}, G1).valid_format is False  # the official raises IndexError here
    assert map_similarity({"objects": [{"name": ["x"], "position": [1, 2]}]}, G1).valid_graph is False
    assert map_similarity([1, 2], G1).parsable is False and read_map("{not json at all") is None


def write_prompt_file(folder: Path) -> Path:
    """Write ``data/prompts/general/MindCube_tinybench_plain_cgmap_out.jsonl`` and its images."""
    data = folder / "data"
    lines = []
    for k, (item_id, answer, grounded, _) in enumerate(CASES):
        image = Path("other_all_image") / item_id.split("_")[0] / f"{item_id}.png"
        (data / image).parent.mkdir(parents=True, exist_ok=True)
        (data / image).write_bytes(png(k))
        question = (
            f"Question {k}: from view 2, what is next to the sofa? A. Above B. Under C. Front D. Behind"
        )
        lines.append(
            json.dumps(
                {
                    "id": item_id,
                    "question": question,
                    "images": [str(image)],
                    "gt_answer": answer,
                    "input_prompt": f"[Task] map prompt of {item_id}\n[Question]\n{question}",
                    "grounded_cogmap": json.dumps(grounded),
                }
            )
        )
    table = data / "prompts" / "general" / "MindCube_tinybench_plain_cgmap_out.jsonl"
    table.parent.mkdir(parents=True)
    table.write_text("\n".join(lines) + "\n")
    return table


def test_prompt_file_loads_with_its_prompt_and_map(tmp_path: Path) -> None:
    write_prompt_file(tmp_path)
    items = get_benchmark("mindcube").load_items(tmp_path / "data", subset="tiny", prompt="plain_cgmap_out")
    assert not items.errors and len(items) == len(CASES)
    assert (
        Path(items[0].media[0].path)
        == tmp_path / "data" / "other_all_image" / "rotation" / "rotation_a_1.png"
    )
    assert json.loads(items[0].metadata["grounded_cogmap"]) == G1
    request = get_benchmark("mindcube").prompt_builder  # the prompt is the file's input_prompt
    assert request.text(items[0]).startswith("[Task] map prompt of rotation_a_1\n[Question]\nQuestion 0:")


@pytest.mark.slow
def test_loopback_run_maps_scored_the_official_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    write_prompt_file(tmp_path)
    out = tmp_path / "run"
    scripted_run(
        "mindcube",
        tmp_path / "data",
        out,
        {f"map prompt of {c[0]}\n": c[3] for c in CASES},
        "--subset",
        "tiny",
        "--option",
        "prompt=plain_cgmap_out",
    )
    scores = json.loads((out / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(80.0)  # official: answer accuracy 8/10 (translation out)
    mapped = CliRunner().invoke(app, ["cogmap", str(out)])
    assert mapped.exit_code == 0, mapped.output
    doc = json.loads((out / "analysis" / "mindcube_cogmap.json").read_text())
    overall = doc["overall"]
    assert {k: overall[k] for k in EVALUATOR} == pytest.approx(EVALUATOR) and overall[
        "rotations"
    ] == ROTATIONS
    assert (overall["parsable_share"], overall["valid_share"], overall["isomorphic_share"]) == (0.9, 0.8, 0.4)
    for setting, expected in SETTINGS.items():
        got = doc["settings"][setting]
        fields = ("total", "parsable", "valid", "isomorphic", "overall", "directional", "facing")
        assert tuple(got[f] for f in fields) == pytest.approx(expected), setting
    # locality of the same maps, by hand: 36 object pairs, 2 closer than one cell (cup-plate, G2), 34 binned;
    # 10 with an object the map lacks (c_1: 3, c_3: 2, f_2: 5); within one cell: 3+3+3+3+0+1+2+2+2+1 = 20
    assert (sum(doc["locality"]["total"]), sum(doc["locality"]["correct"])) == (34, 20)
    assert doc["locality"]["missing_pairs"] == 10
    assert "| overall (no translation) | 10 | 90.0 | 80.0 | 40.0 | 85.7 | 92.1 | 70.8 |" in mapped.output
    assert "20 of 34 within 1 cell" in mapped.output
    report = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    pages = "".join(p.read_text() for p in (tmp_path / "report").rglob("*.html"))
    assert "MindCube cognitive maps" in pages and "<td>overall (no translation)</td>" in pages
