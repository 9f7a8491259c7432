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
    assert len(summary["tst_random_removal"]) == 10 and len(summary["groups"][0]["iterations"]) == 2
    # no official IBP code exists: the summary says the loop follows the paper's Algorithm 1 / Sec. 4.1
    assert "Sec. 4.1" in summary["procedure"] and "no official IBP code" in summary["procedure"]
    assert summary["scorer"] == "tst_rf"


def test_debias_per_format_budgets_are_recorded_and_bad_budgets_refused(tmp_path):
    data = _data(tmp_path)
    out = tmp_path / "pf"
    args = ["debias", "--data", str(data), "--out", str(out), "--alloc", "per_format", "--budgets", "mc=15",
            "--batch-size", "10", "--early-stop", "0.0"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["alloc"] == "per_format" and summary["budgets"] == {"mc": 15}
    assert summary["stop_below"] == 0.0 and summary["groups"][0]["removed"] == 15
    assert [it["removed"] for it in summary["groups"][0]["iterations"]] == [10, 5]
    for bad, words in ((["--budgets", "mc"], "--budgets 'mc': expected NAME=COUNT"),
                       (["--budgets", "mc=5", "--budget", "10"],
                        "takes exactly one of --budget / --budgets; got --budget and --budgets")):
        refused = CliRunner().invoke(app, [*args[:7], *bad, "--out", str(tmp_path / "bad")])
        assert refused.exit_code == 2 and words in refused.output, refused.output
        assert not (tmp_path / "bad").exists()
