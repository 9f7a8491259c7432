"""Which runs ``serve`` shows: two ``--runs`` parents holding the same folder name are both reachable, and
runs of another benchmark are named in a notice when the server starts (issue 14: dropped silently)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spatialbench.benchmarks import get_benchmark
from spatialbench.web import ServeConfig, create_app, human
from support.serve_stderr import serve_start_text
from support.vsi_data import make_vsibench

TOKEN = "t0k3n-for-run-folders"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``data``; ``a/human-x`` (sample: item 1) and ``b/human-x`` (item 2); ``c/human-y`` of mmsi-video."""
    root = tmp_path_factory.mktemp("run-folders")
    make_vsibench(root / "data", n_videos=2, per_video=3, n_frames=12)
    spec = get_benchmark("vsibench")
    human.start(root / "a", "x", spec, root / "data", ["1"])
    human.start(root / "b", "x", spec, root / "data", ["2"])
    human.start(root / "c", "y", spec, root / "data", ["3"])
    path = root / "c" / "human-y" / "config.json"
    record = json.loads(path.read_text())
    record["config"]["data"]["benchmark"] = "mmsi-video"
    path.write_text(json.dumps(record))
    return root


def test_same_folder_name_under_two_parents_both_reachable(folders: Path, tmp_path: Path) -> None:
    app = create_app(ServeConfig(data=folders / "data", workdir=tmp_path / "work", token=TOKEN,
                                 runs=(folders / "a", folders / "b", folders / "c")))
    client = TestClient(app, headers={"X-Spatialbench-Token": TOKEN})
    names = [r.name for r in app.state.serve.runs()]
    assert names == ["a/human-x", "b/human-x"]
    page = client.get("/item/1").text
    assert 'id="run-a/human-x"' in page and 'id="run-b/human-x"' in page
    assert client.get("/errors", params={"run": "b/human-x"}).status_code == 200
    assert [r.name for r in app.state.serve.other_runs()] == ["human-y"]


def test_serve_names_the_runs_of_another_benchmark(folders: Path, tmp_path: Path) -> None:
    text = serve_start_text("--data", str(folders / "data"),
               "--runs", str(folders / "a"), "--runs", str(folders / "c"), "--workdir", str(tmp_path / "w"),
               "--port", "0")
    notice = f"notice: 1 run(s) of other benchmarks not shown: {folders / 'c' / 'human-y'} (mmsi-video)"
    assert notice in text, text
