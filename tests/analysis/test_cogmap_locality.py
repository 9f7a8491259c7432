"""``spatialbench cogmap RUN``: locality of the maps a cognitive-map run stored, by hand."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from spatialbench.scene import write_meta_info
from support.analysis_runs import run, scene_of
from support.cot_server import CoTModel, CoTServer
from support.vsi_data import make_vsibench

# scene0 (x 0..4 m, y 0..2 m; side 4 m, cell 0.4 m, low y -1): ground-truth cells
#   bed (0.5, 0.5) -> (1, 3); lamp (3.5, 1.5) -> (8, 6); chair (2.1, 0.9) -> (5, 4), (0.5, 1.75) -> (1, 6);
#   table (2.5, 1.3) -> (6.25, 5.75) -> (6, 5)
BOXES = {
    "bed": [((0.5, 0.5, 0.3), (1.0, 1.0, 0.6))],
    "lamp": [((3.5, 1.5, 1.0), (1.0, 1.0, 2.0))],
    "chair": [((2.1, 0.9, 0.4), (0.5, 0.5, 0.8)), ((0.5, 1.75, 0.4), (0.5, 0.5, 0.8))],
    "table": [((2.5, 1.3, 0.4), (0.4, 0.4, 0.8))],
}


@pytest.fixture(scope="module")
def map_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("cogmap")
    make_vsibench(base / "data", n_videos=1, per_video=2)  # q0, q1 about scene0
    (base / "data" / "meta_info").mkdir()
    write_meta_info([scene_of("scene0", "arkitscenes", BOXES)], base / "data" / "meta_info" / "meta.json")
    # the scripted model maps {"chair": [(3, 4), (5, 6)], "table": [(4, 4)]} for both questions (the map
    # prompt of the locality study does not carry the question)
    with CoTServer(CoTModel(lambda tag, phase, i: "A")) as server:
        strategy = ["--strategy", "cognitive-map", "-S", f"meta_info={base / 'data' / 'meta_info'}"]
        model = f"openai-compatible:{server.url}#m"
        run(base / "data", base / "run", model, "--frames", "uniform:4", *strategy)
    return base / "run"


def test_locality_by_hand(map_run):
    result = CliRunner().invoke(app, ["cogmap", str(map_run)])
    assert result.exit_code == 0, result.output
    doc = json.loads((map_run / "analysis" / "cogmap_locality.json").read_text())
    assert (doc["schema"], doc["version"], doc["categories"]) == ("spatialbench.cogmap-locality", 1, "scene")
    # pairs of q0's map (scene order bed, lamp, chair, table), ground truth -> bin:
    #   bed-lamp sqrt 58 = 7.62 -> 5; bed-chair 3 -> 1; bed-table sqrt 29 = 5.39 -> 3;
    #   lamp-chair sqrt 13 = 3.61 -> 2; lamp-table sqrt 5 = 2.24 -> 1  (bed, lamp not predicted: wrong)
    #   chair-table sqrt 2 = 1.41 -> 0, predicted min(|(3,4)-(4,4)|, ...) = 1: |1 - 1.41| <= 1, right.
    # q1's map is the same: every pair counts twice.
    assert [b["total"] for b in doc["bins"]] == [2, 4, 2, 2, 0, 2, 0, 0]
    assert [b["correct"] for b in doc["bins"]] == [2, 0, 0, 0, 0, 0, 0, 0]
    assert doc["bins"][0]["accuracy"] == 1.0 and doc["bins"][4]["accuracy"] is None
    assert doc["missing_pairs"] == 10 and (doc["below"], doc["above"]) == (0, 0)
    assert doc["maps"] == {"stored": 2, "read": 2, "no_point": 0, "with_problems": 0, "no_scene": 0,
                           "outside_grid": 0, "points_outside_grid": 0}
    q0 = next(i for i in doc["items"] if i["id"] == "0")
    assert q0["categories"] == ["bed", "lamp", "chair", "table"] and q0["missing"] == ["bed", "lamp"]
    assert (q0["pairs"], q0["correct"]) == (6, 1) and q0["outside_grid"] == 0
    assert "outside the 10 x 10 grid" not in result.output
    assert doc["reference"]["Gemini-1.5 Pro"] == [0.64, 0.48, 0.35, 0.35, 0.28, 0.12, 0.06, 0.0]
    assert "| [1.0, 2.1] | (2.1, 3.3] | (3.3, 4.4] |" in result.output
    assert "| run | 1.00 | 0.00 | 0.00 | 0.00 | - | 0.00 | - | - |" in result.output


def test_no_meta_info_is_one_line(map_run, tmp_path):
    (tmp_path / "run").mkdir()
    config = json.loads((map_run / "config.json").read_text())
    config["config"]["strategy"]["params"]["meta_info"] = ""
    config["config"]["data"]["path"] = str(tmp_path / "nowhere")
    (tmp_path / "run" / "config.json").write_text(json.dumps(config))
    (tmp_path / "run" / "items.csv").write_text((map_run / "items.csv").read_text())
    result = CliRunner().invoke(app, ["cogmap", str(tmp_path / "run")])
    assert result.exit_code == 2 and "no meta-info found" in result.output


def test_a_run_with_no_stored_maps_is_one_line_and_writes_nothing(map_run, tmp_path):
    # issue 11: a direct run gave exit 0, a table of "-" and a cogmap_locality.json
    with CoTServer(CoTModel(lambda tag, phase, i: "A")) as server:
        run(
            map_run.parent / "data",
            tmp_path / "direct",
            f"openai-compatible:{server.url}#m",
            "--frames",
            "uniform:4",
        )
    result = CliRunner().invoke(app, ["cogmap", str(tmp_path / "direct")])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1 and "no cognitive maps stored" in result.output
    assert not (tmp_path / "direct" / "analysis").exists()


def test_points_outside_the_grid_are_counted_per_item_and_noted(tmp_path):
    from spatialbench.analysis.cogmap import locality_text, read_map
    from spatialbench.benchmarks import get_benchmark
    from spatialbench.scene.cogmap import GridSpec

    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    item = next(iter(get_benchmark("vsibench").load_items(tmp_path / "data")))
    scene = scene_of("scene0", "arkitscenes", BOXES)
    # a 10 x 10 grid holds cells 0..9: (12, 6) and (-1, 4) lie outside, (9, 9) and (0, 0) inside
    text = '{"chair": [(3, 4), (12, 6), (9, 9)], "table": [(-1, 4)], "bed": [(0, 0)]}'
    result = read_map(item, text, scene, GridSpec(10), "scene")
    assert result.outside_grid == 2
    shifted = read_map(item, text, scene, GridSpec(10, origin=1), "scene")  # cells 1..10: (0, 0) too
    assert shifted.outside_grid == 3
    doc = {"bins": [], "reference": {}, "grid": {"grid_size": 10}, "categories": "scene", "below": 0,
           "above": 0, "missing_pairs": 0,
           "maps": {"stored": 2, "read": 2, "no_point": 0, "with_problems": 0, "no_scene": 0,
                    "outside_grid": 1, "points_outside_grid": 2}}
    assert ("2 predicted point(s) outside the 10 x 10 grid in 1 map(s): kept as given (per item: "
            "outside_grid)") in locality_text(doc, "run")
