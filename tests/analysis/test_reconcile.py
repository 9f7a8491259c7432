"""reconcile: the gap between two scored folders, attributed to causes that sum exactly to it."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

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
