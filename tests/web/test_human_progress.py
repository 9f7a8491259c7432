"""A human-level run in progress scores only the answered items and says how many (issue 21)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from spatialbench.api.scoring import score
from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.report.runs import load_run
from spatialbench.report.tables import leaderboard, row_label
from spatialbench.web import human
from support.vsi_data import make_vsibench


def test_in_progress_human_run_scores_answered_items_only(wrong_served: Any) -> None:
    with httpx.Client(base_url=wrong_served.url, headers={"X-Spatialbench-Token": wrong_served.token},
                      timeout=60) as client:
        client.post("/human/start", data={"name": "partial", "size": "8", "seed": "0"})
        folder = wrong_served.workdir / "human-partial"
        ids = json.loads((folder / "config.json").read_text())["config"]["data"]["ids"]
        for item_id in ids[:3]:  # make_vsibench: odd ids are multiple choice, even ones counting
            answer = "A" if int(item_id) % 2 else "3"
            assert client.post("/human/partial/answer", data={
                "item_id": item_id, "answer": answer, "shown_at": "0"}).status_code == 303
    scores = json.loads((folder / "scores.json").read_text())
    assert scores["n_scored"] == 3 and scores["missing_predictions"] == 0
    assert scores["warnings"][0] == "in progress: 3 of 8 items answered; only the answered ones are scored"
    assert "WARNING: in progress: 3 of 8 items answered" in (folder / "scores.md").read_text()


def test_scores_page_shows_interval_and_n(wrong_served: Any) -> None:
    with httpx.Client(base_url=wrong_served.url, headers={"X-Spatialbench-Token": wrong_served.token},
                      timeout=60) as client:
        page = client.get("/scores").text
    assert re.search(r'<small class="ci">\[\d+\.\d, \d+\.\d\] n=\d+\*?</small>', page), page
    assert "95 % interval (scene-clustered bootstrap" in page


def test_score_run_and_report_score_a_human_run_in_progress_as_serve_does(tmp_path: Path) -> None:
    # the newcomer check of issue 21: 2 of 10 answered read "Avg. 12.0 n=10" in score --run and report
    answers = make_vsibench(tmp_path / "data", n_videos=2, per_video=4)
    truths = {tag.removeprefix("q"): truth for tag, truth in answers.items()}
    spec = get_benchmark("vsibench")
    items = list(spec.load_items(tmp_path / "data"))
    config = human.start(tmp_path / "work", "alice", spec, tmp_path / "data", sorted(truths, key=int))
    by_id = {item.id: item for item in items}
    human.record(config, spec, items, by_id["1"], truths["1"], 3.0)  # relative distance: right (100)
    human.record(config, spec, items, by_id["0"], str(int(truths["0"]) * 10), 3.0)  # counting: MRA 0
    folder = tmp_path / "work" / "human-alice"
    # hand computation: Avg. = mean of the two answered tasks = (100 + 0) / 2
    note = "in progress: 2 of 8 items answered; only the answered ones are scored"
    served = json.loads((folder / "scores.json").read_text())
    outcome = score(run=folder)
    assert len(outcome.result.rows) == 2 and outcome.result.missing_predictions == []
    assert outcome.result.table.average == pytest.approx(served["overall"]) == pytest.approx(50.0)
    assert outcome.result.warnings[0] == note
    printed = CliRunner().invoke(app, ["score", "--run", str(folder)]).output
    assert "WARNING: in progress: 2 of 8" in printed
    assert "items: 2 · no answer: 0 · missing predictions: 0" in printed
    run = load_run(folder)
    assert row_label(run) == "Human Level (alice, in progress: 2 of 8)"
    assert leaderboard([run]).sections[0][1][0][2][0] == pytest.approx(50.0)
