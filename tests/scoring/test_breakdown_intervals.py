"""Breakdown tables carry n and a scene-clustered 95 % interval per cell (issue 21), hand-checked.

Scenes s1 and s2 hold two questions each: s1's both right, s2's both wrong (accuracy 50). A resample draws
scenes, so a cell over s1 and s2 takes the values 100 (s1 only), 0 (s2 only) or 50 (both); 0 and 100 each
come up in far more than 2.5 % of 1000 resamples, so the interval is [0, 100] exactly. A cell whose
questions all lie in one scene (s3: one right, one wrong) is 50 in every resample that draws it: [50, 50].
Over all three scenes, a resample of s2 alone (3 of 3 draws: 1/27 = 3.7 %) scores 0 and one of s1 alone
100: [0, 100] again.
"""

import json
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scoring.grouped import Group, grouped
from spatialbench.scoring.render import CI_ROW, breakdown_grid, cells_json
from support.openai_server import OpenAIServer, ServerScript


def _rows() -> pd.DataFrame:
    scenes = ["s1", "s1", "s2", "s2", "s3", "s3"]
    return pd.DataFrame({
        "id": [str(k) for k in range(6)], "scene_id": scenes, "task": ["a"] * 4 + ["b"] * 2,
        "score": [1.0, 1.0, 0.0, 0.0, 1.0, 0.0], "answered": [True] * 6, "chance": [0.5] * 6,
    })  # fmt: skip


def test_each_breakdown_cell_has_its_clustered_interval_and_n() -> None:
    table = grouped(_rows(), [Group.of("A", task="a"), Group.of("B", task="b"), Group.of("all")], title="t")
    doc = cells_json(table)
    assert [(c["group"], c["n"], c["accuracy"], c["ci95"]) for c in doc["cells"]] == [
        ("A", 4, 50.0, [0.0, 100.0]),
        ("B", 2, 50.0, None),  # its 2 questions from 1 scene (s3): no interval (was the 0-wide [50, 50])
        ("all", 6, 50.0, [0.0, 100.0]),  # s2 drawn 3 times (1/27 = 3.7 %): 0; s1 3 times: 100
    ]
    assert doc["small_cells"] == [{"group": "A", "n": 4}, {"group": "B", "n": 2}, {"group": "all", "n": 6}]
    rows = dict(breakdown_grid(table).rows)
    assert rows[CI_ROW][:2] == ("[0.0, 100.0]*", None) and rows["n"] == (4, 2, 6)
    assert cells_json(table) == doc  # seeded: the same table gives the same intervals


def test_breakdown_command_writes_intervals_in_markdown_and_json(tmp_path: Path) -> None:
    options = ["A. left", "B. right"]
    easy = "object_rel_direction_easy"
    records = [{"id": k, "dataset": "scannet", "scene_name": scene, "question_type": easy,
                "question": f"q{k}?", "options": options, "ground_truth": "B"}
               for k, scene in enumerate(["s1", "s1", "s2", "s2"], 1)]  # fmt: skip
    (tmp_path / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    answers = {"q1?": "B", "q2?": "B", "q3?": "A", "q4?": "A"}  # s1 right, s2 wrong
    script = ServerScript(answer=lambda text: next(a for q, a in answers.items() if q in text))
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "vsibench", "--data", str(tmp_path / "test.jsonl"), "--model",
                f"openai-compatible:{server.url}#m", "--out", str(tmp_path / "run"), "--no-progress",
                "--blind"]
        assert CliRunner().invoke(app, args).exit_code == 0
    args = ["breakdown", "--run", str(tmp_path / "run"), "--out", str(tmp_path / "b")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    # default breakdowns: all items (Avg. first, then the 8 tasks), scannet, per question type
    assert "| accuracy | 50.0 | - | - | - | - | - | 50.0 | - | - |" in result.output
    assert "| 95 % CI | [0.0, 100.0]* | - | - | - | - | - | [0.0, 100.0]* | - | - |" in result.output
    assert "* fewer than 30 items, too few to rank by." in result.output
    tables = json.loads((tmp_path / "b" / "breakdown.json").read_text())
    per_type = tables[-1]
    # chance: the rows carry each question's option count (issue 24), so 1/2 for these two-option questions
    assert per_type["cells"] == [{"group": easy, "n": 4, "accuracy": 50.0, "metric": "accuracy",
                                  "chance": 50.0, "failures": 0, "ci95": [0.0, 100.0]}]  # fmt: skip
    assert tables[0]["cells"][0]["group"] == "Avg." and tables[0]["cells"][0]["ci95"] == [0.0, 100.0]
    assert "95 % CI" in (tmp_path / "b" / "breakdown.md").read_text()
