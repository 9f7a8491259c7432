"""Writes racing each other on the real server (threads, httpx), and answer times the server measures.

Issue 14: 40 parallel annotations once corrupted ``errors.json`` for good (one shared ``.part`` name, an
unlocked read-modify-write); 20 parallel human answers gave HTTP 500 (``scores.json.part`` renamed twice);
the answer time trusted a hidden ``shown_at`` form field (``-inf`` → latency inf, ``nan`` → NULL).
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest


def _client(served: Any) -> httpx.Client:
    return httpx.Client(base_url=served.url, headers={"X-Spatialbench-Token": served.token}, timeout=60)


def test_forty_parallel_annotations_keep_errors_json_valid_and_every_save(wrong_served: Any) -> None:
    with _client(wrong_served) as client:
        assert client.post("/errors/sample", data={"run": "wrong"}).status_code == 303
        path = wrong_served.runs / "wrong" / "analysis" / "errors.json"
        ids = [item["id"] for item in json.loads(path.read_text())["items"]]
        assert len(ids) >= 4

        def annotate(k: int) -> int:
            item_id = ids[k % len(ids)]
            return client.post("/errors/annotate", data={
                "run": "wrong", "item_id": item_id, "note": f"note-{item_id}",
                "categories": ["visual_perception"]}).status_code

        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(annotate, range(40)))
        assert codes == [303] * 40
        doc = json.loads(path.read_text())  # still one valid JSON document
        assert {e["id"]: e["note"] for e in doc["items"]} == {i: f"note-{i}" for i in ids}
        assert all(e["errors"] == ["visual_perception"] for e in doc["items"])
        assert client.get("/errors", params={"run": "wrong"}).status_code == 200
        assert not list(path.parent.glob("*.part")) and not list(path.parent.glob("*.tmp"))


def _shown(client: httpx.Client, name: str) -> str:
    page = client.get(f"/human/{name}").text
    item_id = re.search(r'name="item_id" value="([^"]+)"', page)
    assert item_id is not None, page
    return item_id.group(1)


def test_twenty_parallel_human_answers_all_stored_and_scored(wrong_served: Any) -> None:
    with _client(wrong_served) as client:
        client.post("/human/start", data={"name": "race", "size": "8", "seed": "0"})
        config = json.loads((wrong_served.workdir / "human-race" / "config.json").read_text())["config"]
        ids = config["data"]["ids"]
        assert len(ids) == 8

        rows = [json.loads(line) for line in (wrong_served.data / "test.jsonl").read_text().splitlines()]
        typed = {str(r["id"]): "A" if r["options"] else "3" for r in rows}  # answers of each item's kind

        def answer(k: int) -> int:
            item = ids[k % len(ids)]
            return client.post("/human/race/answer", data={
                "item_id": item, "answer": typed[item], "shown_at": "0"}).status_code

        with ThreadPoolExecutor(20) as pool:
            codes = list(pool.map(answer, range(20)))
        assert codes == [303] * 20
        json.loads((wrong_served.workdir / "human-race" / "scores.json").read_text())
        rows = (wrong_served.workdir / "human-race" / "items.csv").read_text().splitlines()
        assert len(rows) == 1 + 8
        with sqlite3.connect(wrong_served.workdir / "human-race" / "run.sqlite") as conn:
            assert conn.execute("SELECT COUNT(*) FROM results WHERE status = 'ok'").fetchone()[0] == 8


@pytest.mark.parametrize("forged", ["-inf", "nan", str(time.time() + 3600), "1e308", "not-a-number", ""])
def test_answer_time_is_measured_by_the_server_not_the_form(wrong_served: Any, forged: str) -> None:
    name = "t" + str(abs(hash(forged)) % 10**8)
    with _client(wrong_served) as client:
        client.post("/human/start", data={"name": name, "size": "1", "seed": "3"})
        item_id = _shown(client, name)
        before = time.monotonic()
        time.sleep(0.3)
        rows = [json.loads(line) for line in (wrong_served.data / "test.jsonl").read_text().splitlines()]
        kind = next("A" if r["options"] else "3" for r in rows if str(r["id"]) == item_id)
        data: dict[str, Any] = {"item_id": item_id, "answer": kind, "shown_at": forged}
        assert client.post(f"/human/{name}/answer", data=data).status_code == 303
        waited = time.monotonic() - before
    with sqlite3.connect(wrong_served.workdir / f"human-{name}" / "run.sqlite") as conn:
        (latency,) = conn.execute("SELECT latency_s FROM results WHERE status = 'ok'").fetchone()
    assert latency is not None and math.isfinite(latency)
    assert 0.3 <= latency <= waited + 1.0
