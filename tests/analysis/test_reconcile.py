"""reconcile: the gap between two scored folders, attributed to causes that sum exactly to it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from spatialbench.analysis.reconcile import COLUMNS as READ_COLUMNS
from spatialbench.analysis.reconcile import reconcile_folders
from spatialbench.cli.main import app
from support.shared_data import require_file

COLUMNS = ["id", "task", "prediction", "extracted", "score", "rule", "ground_truth", "dataset", "pruned"]


def _folder(path: Path, overall: float, rows: list[tuple[str, str, str, str, float, str]]) -> Path:
    path.mkdir()
    (path / "scores.json").write_text(json.dumps({"benchmark": "vsibench", "overall": overall,
                                                  "modes": {"extract": "official"}}))
    table = [(i, t, p, e, s, "r", g, "synthetic", "") for i, t, p, e, s, g in rows]
    frame = pd.DataFrame(table, columns=COLUMNS)
    frame.to_csv(path / "items.csv", index=False)
    return path


def test_planted_revision_missing_item_and_micro_average_are_each_attributed(tmp_path):
    # B: counting items 1 (right) and 2 (wrong), route items 3 and 4 (right); macro Avg. = (50 + 100) / 2
    b = _folder(tmp_path / "b", 75.0, [("1", "object_counting", "3", "3.0", 1.0, "3"),
                                       ("2", "object_counting", "9", "9.0", 0.0, "3"),
                                       ("3", "route_planning", "A", "A", 1.0, "A"),
                                       ("4", "route_planning", "B", "B", 1.0, "B")])
    # A: item 2 missing, item 1's answer revised to 4 (same response now scores 0), overall a micro mean
    a = _folder(tmp_path / "a", 200 / 3, [("1", "object_counting", "3", "3.0", 0.0, "4"),
                                          ("3", "route_planning", "A", "A", 1.0, "A"),
                                          ("4", "route_planning", "B", "B", 1.0, "B")])
    document = reconcile_folders(a, b, tmp_path / "out")
    causes = {c["cause"]: c for c in document["causes"]}
    assert document["total"] == pytest.approx(200 / 3 - 75, abs=1e-9)
    assert causes["items only in one side"]["items"] == ["2"]
    assert causes["items only in one side"]["points"] == pytest.approx(25.0)  # counting 50 -> 100
    assert causes["dataset revision"]["items"] == ["1"]
    assert causes["dataset revision"]["points"] == pytest.approx(-50.0)  # counting 100 -> 0
    assert causes["aggregation"]["points"] == pytest.approx(200 / 3 - 50)  # micro 66.7 vs macro 50
    for name in ("response text", "extraction rule", "MRA rule"):
        assert causes[name] == {"cause": name, "points": 0.0, "items": []}
    written = json.loads((tmp_path / "out" / "reconcile.json").read_text())
    assert written["total"] == pytest.approx(sum(c["points"] for c in written["causes"]), abs=1e-9)


def test_lmms_eval_073_against_official_is_the_five_number_readings(shared_data, tmp_path):
    root = shared_data / "lmms_eval"
    annotations = require_file(root / "demo_seed3_annotations.jsonl")
    log = require_file(root / "lmms_eval_0.7.3_samples_vsibench.jsonl")
    for name, mode in (("a", "lmms-eval-0.7.3"), ("b", "official")):
        args = ["score", "-a", str(annotations), "-p", str(log), "-b", "vsibench", "--extract", mode,
                "--mra", "official", "--out", str(tmp_path / name)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
    document = reconcile_folders(tmp_path / "a", tmp_path / "b", tmp_path / "out")
    total = sum(c["points"] for c in document["causes"])
    assert document["total"] == pytest.approx(74.4672619047619 - 63.51488095238095, abs=1e-9)
    assert total == pytest.approx(document["total"], abs=1e-6)
    causes = {c["cause"]: c for c in document["causes"]}
    assert causes["extraction rule"]["items"] == ["0", "14", "17", "30", "35"]
    assert causes["extraction rule"]["points"] == pytest.approx(document["total"], abs=1e-9)
    # lines 21 and 51 of the log keep resps "<think>…</think> 219" / "… A" beside filtered_resps "219" / "A":
    # both sides scored the filtered text, so the two items are named and carry no points
    assert causes["response text"]["items"] == ["20", "50"]
    assert causes["response text"]["points"] == 0.0
    assert json.loads((tmp_path / "a" / "scores.json").read_text())["filtered_responses"] == ["20", "50"]
    assert document["interval"]["within_noise"] is True
    assert "response text: 20, 50" in (tmp_path / "out" / "reconcile.md").read_text()


def _generation_pair(tmp_path: Path, flipped: int) -> dict:
    """Two runs of 40 counting items in 10 scenes (4 each); A's response differs on ``flipped`` items.

    B answers items 0–19 right (score 1) and 20–39 wrong; A answers the first ``flipped`` wrong ones right.
    """
    sides = {}
    for name, right in (("b", 20), ("a", 20 + flipped)):
        rows = [(str(i), "object_counting", "3" if i < right else "9", "3.0" if i < right else "9.0",
                 1.0 if i < right else 0.0, "3") for i in range(40)]
        folder = _folder(tmp_path / name, 100.0 * right / 40, rows)
        table = pd.read_csv(folder / "items.csv").assign(scene_id=[f"s{i // 4}" for i in range(40)])
        table.to_csv(folder / "items.csv", index=False)
        sides[name] = folder
    return reconcile_folders(sides["a"], sides["b"], tmp_path / "out")


def test_a_one_item_generation_gap_is_within_noise(tmp_path):
    document = _generation_pair(tmp_path, flipped=1)
    causes = {c["cause"]: c for c in document["causes"]}
    assert causes["response text"]["items"] == ["20"]
    assert causes["response text"]["points"] == pytest.approx(2.5)  # 1 of 40 items
    interval = document["interval"]
    assert interval["points"] == pytest.approx(2.5)
    # the only changed item lies in scene s5: a resample that misses s5 (p ≈ (9/10)^10 ≈ 0.35) gives 0
    assert interval["ci95"][0] == 0.0 and interval["within_noise"] is True


def test_a_twenty_item_generation_gap_is_beyond_noise(tmp_path):
    document = _generation_pair(tmp_path, flipped=20)
    interval = document["interval"]
    assert interval["points"] == pytest.approx(50.0)
    # every scene of items 20–39 (s5–s9) gains: a resample without any of them has p = (1/2)^10 ≈ 0.001
    assert interval["ci95"][0] > 0 and interval["within_noise"] is False
    assert "beyond sampling noise" in (tmp_path / "out" / "reconcile.md").read_text()


@pytest.mark.parametrize(("damage", "said"), [
    (lambda f: (f / "items.csv").write_text("a,b\n1,2\n"), "items.csv: no column id, task"),
    (lambda f: (f / "items.csv").write_text(""), "items.csv: not a readable items table"),
    (lambda f: (f / "items.csv").write_text(",".join(READ_COLUMNS) + "\n"), "items.csv: no items"),
    (lambda f: (f / "scores.json").write_text('{"overall": 7'), "scores.json: not JSON"),
])
def test_a_damaged_folder_is_one_line_and_exit_2(tmp_path, damage, said):
    # issue 27 (newcomer round): each of these was a traceback with exit 1 (a header-only table: NaN parts)
    rows = [("1", "object_counting", "3", "3.0", 1.0, "3")]
    a, b = _folder(tmp_path / "a", 100.0, rows), _folder(tmp_path / "b", 100.0, rows)
    damage(a)
    result = CliRunner().invoke(app, ["reconcile", str(a), str(b), "--out", str(tmp_path / "out")])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and said in lines[0], result.output
    assert not (tmp_path / "out").exists()


def test_other_annotation_files_and_an_unwritable_out_are_refused(tmp_path):
    a = _folder(tmp_path / "a", 50.0, [(str(i), "route_planning", "A", "A", 1.0, "A") for i in range(4)])
    b = _folder(tmp_path / "b", 50.0, [(str(i), "route_planning", "A", "A", 0.0, "B") for i in range(4)])
    result = CliRunner().invoke(app, ["reconcile", str(a), str(b), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and "4 of 4 shared ids have other ground truths" in result.output
    (tmp_path / "file").write_text("x")
    result = CliRunner().invoke(app, ["reconcile", str(a), str(a), "--out", str(tmp_path / "file" / "o")])
    assert result.exit_code == 2 and "not a writable folder" in result.output, result.output
