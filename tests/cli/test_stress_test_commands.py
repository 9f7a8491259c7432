"""``stress-test`` and ``debias`` on a small planted benchmark file: documents written, exit codes."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from support.planted_shortcuts import planted_choices


def _data(tmp_path):
    items, _ = planted_choices(120, planted=True)
    folder = tmp_path / "planted"
    folder.mkdir()
    get_benchmark("vsibench").write(items, folder)
    return folder


def test_stress_test_writes_the_document_table_and_figure(tmp_path):
    out = tmp_path / "st"
    result = CliRunner().invoke(app, ["stress-test", "--data", str(_data(tmp_path)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads((out / "stress_test.json").read_text())
    task = doc["tasks"]["object_rel_distance"]
    assert task["n"] == 120 and task["chance"] == 25.0 and task["score"] > 45.0
    assert len(doc["items"]) == 120 and "object_rel_distance" in doc["grouped"]["tasks"]
    assert {p.name for p in out.iterdir()} >= {"stress_test.md", "stress_test.csv", "stress_test.png"}
    assert "object_rel_distance | 120 | 25.0" in result.output


def test_debias_writes_ids_in_order_and_the_control(tmp_path):
    out = tmp_path / "db"
    args = [
        "debias",
        "--data",
        str(_data(tmp_path)),
        "--out",
        str(out),
        "--budget",
        "40",
        "--batch-size",
        "20",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    removed = (out / "removed_ids.txt").read_text().split()
    kept = (out / "kept_ids.txt").read_text().split()
    summary = json.loads((out / "summary.json").read_text())
    assert len(removed) == 40 and len(kept) == 80 and summary["n_removed"] == 40
    assert len(summary["tst_random_removal"]) == 10 and len(summary["iterations"]) == 2
