"""A human-level run in progress scores only the answered items and says how many (issue 21)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx


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
