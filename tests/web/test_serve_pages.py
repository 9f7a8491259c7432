"""The UI's pages and writes over HTTP: browse filters, item page, human run, flags, error annotations."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from spatialbench.records.flags import FlagFileError, latest_flags
from spatialbench.report import build_report, load_run
from spatialbench.web import excluded_ids


@pytest.fixture
def client(tiny_served: Any):  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=tiny_served.url, headers={"X-Spatialbench-Token": tiny_served.token},
                      follow_redirects=True) as client:
        yield client


def items(served: Any) -> list[dict]:
    return [json.loads(line) for line in (served.data / "test.jsonl").read_text().splitlines()]


def test_browse_filters_by_task_and_scene(client, tiny_served) -> None:
    records = items(tiny_served)
    page = client.get("/", params={"task": "object_rel_distance", "scene": "scene1"}).text
    links = re.findall(r'href="/item/([^"?]+)([^"]*)"', page)
    expected = {str(r["id"]) for r in records if r["question_type"] == "object_rel_distance"
                and r["scene_name"] == "scene1"}
    assert {i for i, _ in links} == expected and f"{len(expected)} item(s)" in page
    # each item link carries the filters, so the item page walks this list (issue 22)
    assert {q for _, q in links} == {"?task=object_rel_distance&amp;scene=scene1"}


def test_item_page_shows_video_frames_sent_and_the_answer(client, tiny_served) -> None:
    record = next(r for r in items(tiny_served) if r["options"])
    page = client.get(f"/item/{record['id']}").text
    assert f'src="/media/arkitscenes/{record["scene_name"]}.mp4"' in page
    # uniform:4 of 48 frames at 30 fps: linspace(0, 47, 4) truncated = frames 0, 15, 31, 47 (official)
    seeks = re.findall(r'data-seek="([0-9.]+)"', page)
    assert [round(float(s) * 30) for s in seeks] == [0, 15, 31, 47]
    assert f"extracted: <b>{record['ground_truth']}</b>" in page and "100.0 %" in page


def test_human_run_is_stored_like_a_model_run(client, tiny_served) -> None:
    started = client.post("/human/start", data={"name": "ana", "size": "3", "seed": "1"})
    assert started.url.path == "/human/ana"
    truths = {str(r["id"]): r for r in items(tiny_served)}
    seen = []
    for _ in range(3):
        page = client.get("/human/ana").text
        item_id = re.search(r'name="item_id" value="([^"]+)"', page).group(1)
        record = truths[item_id]
        wrong = next(o[0] for o in record["options"] if o[0] != record["ground_truth"]) if record["options"] \
            else "1000000"  # answers of the item's kind: a letter, a number
        answer = record["ground_truth"] if not seen else wrong  # first right, the others wrong
        client.post("/human/ana/answer", data={"item_id": item_id, "answer": answer})
        seen.append(item_id)
    assert "Done: 3 answer(s) from ana" in client.get("/human/ana").text
    folder = tiny_served.workdir / "human-ana"
    run = load_run(folder)
    assert run.config.model.name == "human:ana" and sorted(run.config.data.ids) == sorted(seen)
    assert sorted(run.result.rows["score"].tolist()) == [0.0, 0.0, 1.0]
    assert all(a.latency_s is not None and a.latency_s >= 0 for a in run.answers.values())
    row = r"<td>human-ana</td><td>human:ana</td><td class=\"num\">3</td>"
    assert re.search(row, client.get("/scores").text) is not None
    # the report treats it as a run: a "Human Level" row (VSI-Bench Fig. 6), not ranked
    build_report([tiny_served.runs / "vision", folder], tiny_served.workdir.parent / "report-human")
    board = (tiny_served.workdir.parent / "report-human" / "tables" / "leaderboard.md").read_text()
    assert "| Human Level | | |" in board and "| Human Level (ana) | - |" in board


def test_flags_are_appended_and_excluded(client, tiny_served) -> None:
    client.post("/flag", data={"item_id": "1", "flag": "wrong", "note": "two sofas"})
    client.post("/flag", data={"item_id": "2", "flag": "ambiguous"})
    client.post("/flag", data={"item_id": "3", "flag": "wrong"})
    client.post("/flag", data={"item_id": "3", "flag": "fine", "note": "checked again"})
    path = tiny_served.workdir / "flags.jsonl"
    assert len(path.read_text().splitlines()) == 4
    assert excluded_ids(path) == {"1", "2"} and latest_flags(path)["3"]["note"] == "checked again"
    scores = client.get("/scores", params={"exclude": "1"}).text
    assert "left out (2: 1, 2)" in scores
    assert client.post("/flag", data={"item_id": "1", "flag": "maybe"}).status_code == 400


def test_a_bad_flags_line_names_file_and_line(tmp_path) -> None:
    path = tmp_path / "flags.jsonl"
    path.write_text('{"id": "1", "flag": "wrong"}\n{"id": "2", "flag": "bogus"}\n')
    with pytest.raises(FlagFileError, match=r"flags.jsonl:2: field 'flag': 'bogus'"):
        excluded_ids(path)


def test_error_sample_created_and_annotated_in_the_analysis_file(client, tiny_served) -> None:
    path = tiny_served.runs / "vision" / "analysis" / "errors.json"
    assert "Sample this run's errors" in client.get("/errors", params={"run": "vision"}).text
    client.post("/errors/sample", data={"run": "vision"})
    doc = json.loads(path.read_text())
    # the scripted model answers every item right: counting MRA is 1 too, so the App. B.2 sample holds only
    # the worse half of the numerical task (3 counting items -> 3 // 2 = 1) and no multiple-choice item
    assert doc["schema"] == "spatialbench.error-annotations" and len(doc["items"]) == 1
    item_id = doc["items"][0]["id"]
    client.post("/errors/annotate", data={"run": "vision", "item_id": item_id, "note": "n",
                                          "categories": ["visual_perception", "relational_reasoning"]})
    entry = json.loads(path.read_text())["items"][0]
    assert entry["errors"] == ["visual_perception", "relational_reasoning"] and entry["note"] == "n"
    bad = client.post("/errors/annotate", data={"run": "vision", "item_id": item_id, "categories": ["typo"]})
    assert bad.status_code == 400 and "typo" in bad.text
    assert json.loads(path.read_text())["items"][0]["errors"] == ["visual_perception", "relational_reasoning"]


def test_item_page_of_an_item_a_run_never_answered(client, tiny_served) -> None:
    client.post("/human/start", data={"name": "cy", "size": "1", "seed": "0"})  # cy answers nothing yet
    page = client.get("/item/5")
    assert page.status_code == 200
    card = page.text.split('id="run-human-cy"')[1].split('<div class="run"')[0]
    assert "not scored" in card and "nothing stored for this item" in card


def test_two_runs_side_by_side(client, tiny_served) -> None:
    client.post("/human/start", data={"name": "fay", "ids": "0"})
    both = client.get("/item/0", params=[("runs", "vision"), ("runs", "human-fay")]).text
    assert 'id="run-vision"' in both and 'id="run-human-fay"' in both
    one = client.get("/item/0", params={"runs": "vision"}).text
    assert 'id="run-vision"' in one and 'id="run-human-fay"' not in one
