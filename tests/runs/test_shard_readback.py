"""A shard folder read back is the shard: ``score --run``, ``breakdown``, ``report``, ``serve`` and ``merge``.

40 VSI-Bench items without media (ids 1..40; 1-20 Obj. Count, 21-40 Rel. Dist.). Shard 1/4 holds ids 1, 9,
11, 15 (counting, truths 2, 2, 2, 5) and 31, 38, 40 (Rel. Dist., truths A, A, B); every other counting
item is 7 and every other Rel. Dist. item B. chance-frequency on the shard: best constant 2 (MRA 1, 1, 1
and 0 for 5: relative error 0.6) = 75.0; most frequent letter A = 2 of 3 = 66.7; Avg. 70.8. Read back as
the whole benchmark (the bug) it was 40 items at 85.8 (81.5 and 90.0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.runs.folder import open_run
from spatialbench.runs.shard import Shard
from spatialbench.web import ServeConfig, create_app
from support.openai_server import OpenAIServer, ServerScript

SHARD_IDS = ["1", "9", "11", "15", "31", "38", "40"]
AVG = 70.8  # (75.0 + 66.7) / 2, printed to one decimal
TOKEN = "t0k3n-for-shard-readback"


def _truth(k: int) -> str:
    if k <= 20:
        return {1: "2", 9: "2", 11: "2", 15: "5"}.get(k, "7")
    return {31: "A", 38: "A", 40: "B"}.get(k, "B")


OPTIONS = ["A. chair", "B. table", "C. lamp", "D. bed"]


def _annotations(path: Path) -> Path:
    records = [{"id": k, "dataset": "scannet", "scene_name": f"s{k % 3}",
                "question_type": "object_counting" if k <= 20 else "object_rel_distance",
                "question": f"q{k}?", "options": None if k <= 20 else OPTIONS,
                "ground_truth": _truth(k)} for k in range(1, 41)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _invoke(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(annotations, the folder of ``run --model chance-frequency --shard 1/4``)."""
    root = tmp_path_factory.mktemp("shard")
    data = _annotations(root / "test.jsonl")
    assert sorted(str(k) for k in range(1, 41) if Shard(1, 4).holds(str(k))) == sorted(SHARD_IDS)
    code, output = _invoke("run", "--benchmark", "vsibench", "--data", data, "--model", "chance-frequency",
                           "--shard", "1/4", "--out", root / "S", "--no-progress")
    assert code == 0, output
    return data, root / "S"


def test_the_shard_run_scores_its_seven_items(shard: tuple[Path, Path]) -> None:
    _, folder = shard
    own = json.loads((folder / "scores.json").read_text())
    assert own["n_items"] == 7 and own["counts"] == {"object_counting": 4, "object_rel_distance": 3}
    assert own["object_counting"] == 75.0 and own["object_rel_distance"] == pytest.approx(200 / 3)
    assert own["overall"] == pytest.approx(70.8333, abs=1e-4)
    assert sorted(pd.read_csv(folder / "items.csv", dtype={"id": str})["id"]) == sorted(SHARD_IDS)


def test_score_run_of_a_shard_is_the_shard(shard: tuple[Path, Path], tmp_path: Path) -> None:
    _, folder = shard
    code, output = _invoke("score", "--run", folder, "--out", tmp_path / "s")
    assert code == 0, output
    assert "items: 7 " in output and f"| all | {AVG} | 75.0 |" in output, output
    assert (tmp_path / "s" / "scores.json").read_text() == (folder / "scores.json").read_text()
    assert (tmp_path / "s" / "items.csv").read_text() == (folder / "items.csv").read_text()


def test_breakdown_run_of_a_shard_is_the_shard(shard: tuple[Path, Path]) -> None:
    _, folder = shard
    code, output = _invoke("breakdown", "--run", folder)
    assert code == 0, output
    assert "items: 7\n" in output, output
    overall = output.split("**vsibench: all items**")[1]
    # counting is scored by MRA, direction by accuracy: the row says both (issue 24)
    assert f"| accuracy / MRA | {AVG} | 75.0 | - | - | - | 66.7 |" in overall, output


def test_report_of_a_shard_is_the_shard(shard: tuple[Path, Path], tmp_path: Path) -> None:
    _, folder = shard
    code, output = _invoke("report", folder, "--out", tmp_path / "r")
    assert code == 0, output
    pages = sorted(p.stem for p in (tmp_path / "r" / "items").glob("*.html") if p.name != "index.html")
    assert pages == sorted(SHARD_IDS)
    board = (tmp_path / "r" / "tables" / "leaderboard.md").read_text()
    assert f"| Chance Level (Frequency) | - | {AVG} | 75.0 |" in board, board


def test_serve_shows_the_shards_items_and_avg(shard: tuple[Path, Path], tmp_path: Path) -> None:
    data, folder = shard
    application = create_app(ServeConfig(data=data, workdir=tmp_path / "work", token=TOKEN, runs=(folder,)))
    client = TestClient(application, headers={"X-Spatialbench-Token": TOKEN})
    (served,) = application.state.serve.runs()
    assert sorted(served.scores) == sorted(SHARD_IDS)
    page = client.get("/scores").text
    row = re.search(r"<td>S</td><td>chance-frequency</td><td class=\"num\">(\d+)</td>\s*<td class=\"num\">"
                    r"([\d.]+)<", page)  # the interval follows the value
    assert row is not None and row.groups() == ("7", str(AVG)), page
    assert "(ok)" in client.get("/item/9").text and "(ok)" not in client.get("/item/2").text


def test_open_run_selects_the_shards_items(shard: tuple[Path, Path]) -> None:
    _, folder = shard
    run = open_run(folder)
    assert [i.id for i in run.items()] == sorted(SHARD_IDS, key=int)
    assert run.score().table.average == pytest.approx(70.8333, abs=1e-4)


def _model_answer(text: str) -> str:
    k = int(re.search(r"q(\d+)\?", text).group(1))  # type: ignore[union-attr]
    return _truth(k) if k % 3 else ("1" if k <= 20 else "C")  # every third one wrong


def test_four_shards_merged_equal_the_unsharded_run(tmp_path: Path) -> None:
    data = _annotations(tmp_path / "test.jsonl")
    with OpenAIServer(ServerScript(answer=_model_answer)) as server:
        common = ("--benchmark", "vsibench", "--data", data, "--model", f"openai-compatible:{server.url}#m",
                  "--blind", "--no-progress")
        assert _invoke("run", *common, "--out", tmp_path / "whole")[0] == 0
        for k in range(1, 5):
            code, output = _invoke("run", *common, "--shard", f"{k}/4", "--out", tmp_path / f"s{k}")
            assert code == 0, output
    shards = [tmp_path / f"s{k}" for k in (3, 1, 4, 2)]
    code, output = _invoke("merge", *shards, "--out", tmp_path / "merged")
    assert code == 0, output
    whole, merged = tmp_path / "whole", tmp_path / "merged"
    # byte-equal: nothing in scores.json or items.csv depends on how the run was split
    assert (merged / "scores.json").read_text() == (whole / "scores.json").read_text()
    assert (merged / "items.csv").read_text() == (whole / "items.csv").read_text()
    assert json.loads((whole / "scores.json").read_text())["n_items"] == 40
    # the merged folder read back is what merge scored
    code, output = _invoke("score", "--run", merged, "--out", tmp_path / "again")
    assert code == 0, output
    assert (tmp_path / "again" / "scores.json").read_text() == (merged / "scores.json").read_text()


def test_a_shard_holding_none_of_the_ids_adds_no_items_to_the_merge(tmp_path: Path) -> None:
    data = _annotations(tmp_path / "test.jsonl")
    ids = tmp_path / "ids.txt"
    ids.write_text("1\n9\n2\n")  # 1, 9: shard 1; 2: shard 2; none in shards 3 and 4
    with OpenAIServer(ServerScript(answer=_model_answer)) as server:
        common = ("--benchmark", "vsibench", "--data", data, "--model", f"openai-compatible:{server.url}#m",
                  "--blind", "--no-progress", "--ids", ids)
        for k in range(1, 5):
            code, output = _invoke("run", *common, "--shard", f"{k}/4", "--out", tmp_path / f"s{k}")
            assert code == 0, output
    assert json.loads((tmp_path / "s3" / "config.json").read_text())["config"]["data"]["ids"] == []
    code, output = _invoke("merge", *(tmp_path / f"s{k}" for k in range(1, 5)), "--out", tmp_path / "m")
    assert code == 0, output  # no item without an answer (exit 1 when shards 3 and 4 counted all theirs)
    merged = json.loads((tmp_path / "m" / "scores.json").read_text())
    assert merged["n_items"] == 3 and merged["missing_predictions"] == 0
    assert [i.id for i in open_run(tmp_path / "m").items()] == ["1", "2", "9"]
