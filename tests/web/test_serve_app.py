"""The UI application in-process (Starlette's test client): chosen human samples, audit-first review,
valid HTML without network references, and the ``serve`` command's set-up errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import html5lib
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from spatialbench.cli.main import app as cli
from spatialbench.web import ServeConfig, create_app
from support.vsi_data import make_vsibench

TOKEN = "t0k3n-for-tests"


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("app-data")
    make_vsibench(root, n_videos=2, per_video=3, n_frames=12)
    return root


@pytest.fixture
def client(data: Path, tmp_path: Path) -> TestClient:
    audit = tmp_path / "audit.json"  # as spatialbench audit writes it: disagreements per task
    audit.write_text(json.dumps({"total": 6, "tasks": {"object_rel_distance": {"disagreements": [
        {"id": "5", "task": "object_rel_distance", "status": "disagree", "official": "A", "recomputed": "C",
         "reason": "C is closer by 0.3 m"}]}}}))
    app = create_app(ServeConfig(data=data, workdir=tmp_path / "work", token=TOKEN, audit=audit))
    return TestClient(app, headers={"X-Spatialbench-Token": TOKEN})


def test_human_run_on_chosen_ids_in_benchmark_order(client: TestClient, data: Path, tmp_path: Path) -> None:
    client.post("/human/start", data={"name": "dan", "ids": "4, 1 2"})
    config = json.loads((tmp_path / "work" / "human-dan" / "config.json").read_text())["config"]
    order = [json.loads(line)["id"] for line in (data / "test.jsonl").read_text().splitlines()]
    assert config["data"]["ids"] == [str(i) for i in order if i in (1, 2, 4)]
    assert config["model"]["name"] == "human:dan"
    bad = client.post("/human/start", data={"name": "eve", "ids": "1, 99"})
    assert bad.status_code == 400 and "1 id(s) not in the benchmark: 99" in bad.text
    assert client.post("/human/start", data={"name": "../x", "size": "2"}).status_code == 400


@pytest.mark.parametrize(("task", "named"), [("object_counting", " of task object_counting"), ("", "")])
def test_a_sample_of_no_item_names_its_task_and_the_least_size(client: TestClient, tmp_path: Path,
                                                               task: str, named: str) -> None:
    reply = client.post("/human/start", data={"name": "zoe", "size": "0", "task": task},
                        headers={"accept": "text/html"})
    assert reply.status_code == 400 and not (tmp_path / "work" / "human-zoe").exists()
    message = re.search(r'<p id="error">(.*?)</p>', reply.text, re.S)
    assert message is not None, reply.text
    assert message.group(1).strip() == (
        f"cannot start a human evaluation of 0 item(s){named}: the sample size must be ≥ 1")
    assert '<a id="back" href="/human">' in reply.text  # the way back to the form


def test_a_task_given_twice_samples_from_both(client: TestClient, data: Path, tmp_path: Path) -> None:
    # 6 items: ids 0, 2, 4 count chairs, 1, 3, 5 ask a relative distance (support.vsi_data)
    client.post("/human/start", data={"name": "two", "size": "6", "seed": "0",
                                      "task": ["object_counting", "object_rel_distance"]})
    config = json.loads((tmp_path / "work" / "human-two" / "config.json").read_text())["config"]
    assert sorted(config["data"]["ids"], key=int) == ["0", "1", "2", "3", "4", "5"]
    client.post("/human/start", data={"name": "one", "size": "6", "seed": "0", "task": "object_counting"})
    config = json.loads((tmp_path / "work" / "human-one" / "config.json").read_text())["config"]
    assert sorted(config["data"]["ids"], key=int) == ["0", "2", "4"]


def test_review_lists_audit_disagreements_first(client: TestClient) -> None:
    page = client.get("/review").text
    first = re.search(r"<tbody>\s*<tr[^>]*><td><a href=\"/item/([^\"]+)\"", page)
    assert first is not None and first.group(1) == "5"
    assert "disagrees: C is closer by 0.3 m" in page


@pytest.mark.parametrize("path", ["/", "/item/0", "/item/1", "/scores", "/human", "/review", "/errors"])
def test_pages_are_valid_html_without_network_references(client: TestClient, path: str) -> None:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    tree = parser.parse(client.get(path).text)
    for element in tree.iter():
        for attribute in ("src", "href", "action"):
            value = element.get(attribute)
            assert value is None or not re.match(r"^([a-z][a-z0-9+.-]*:|//)", value, re.I), (path, value)


def test_serve_refuses_unreadable_data_before_listening(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path / "missing"), "--workdir",
                                      str(tmp_path / "w")])
    assert result.exit_code == 2 and "missing" in result.output


def test_serve_refuses_an_unreadable_audit_file(data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "audit.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(cli, ["serve", "--data", str(data), "--workdir", str(tmp_path / "w"),
                                      "--audit", str(bad)])
    assert result.exit_code == 2 and f"{bad}: not an audit.json" in result.output


def test_typed_answers_are_shown_escaped(client: TestClient) -> None:
    client.post("/human/start", data={"name": "xss", "ids": "1"})
    client.get("/human/xss")
    typed = {"item_id": "1", "answer": "<img src=x onerror=alert(1)>"}
    refused = client.post("/human/xss/answer", data=typed, headers={"accept": "text/html"})
    assert refused.status_code == 422  # not an option letter: refused, the typed text shown escaped
    assert "<img src=x" not in refused.text and "&lt;img src=x onerror=alert(1)&gt;" in refused.text


def test_a_human_run_is_scored_by_score_run_like_a_model_run(client: TestClient, data: Path,
                                                               tmp_path: Path) -> None:
    records = {str(r["id"]): r for r in map(json.loads, (data / "test.jsonl").read_text().splitlines())}
    client.post("/human/start", data={"name": "gus", "ids": "1 3"})  # two multiple-choice items
    for _ in range(2):
        page = client.get("/human/gus").text
        item_id = re.search(r'name="item_id" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        truth = records[item_id]["ground_truth"]
        wrong = next(o[0] for o in records[item_id]["options"] if o[0] != truth)
        answer = truth if item_id == "1" else wrong  # one right, one wrong
        client.post("/human/gus/answer", data={"item_id": item_id, "answer": answer})
    result = CliRunner().invoke(cli, ["score", "--run", str(tmp_path / "work" / "human-gus")])
    assert result.exit_code == 0, result.output
    assert "| all | 50.0 |" in result.output  # Rel. Dist. only: 1 of 2 right
