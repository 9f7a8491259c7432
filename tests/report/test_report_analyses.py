"""Analyses in the report: drawn when their JSON exists (written here by the real commands or by hand in
their documented schema), skipped when absent; each document is drawn by its registered analysis."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from spatialbench.api import run
from spatialbench.cli.main import app
from spatialbench.report import build_report
from spatialbench.report.analyses import draw_document
from spatialbench.runs import RunConfig
from support.openai_server import OpenAIServer, ServerScript


def _png_ok(path: Path) -> None:
    with Image.open(path) as image:
        assert image.width > 400 and image.height > 300


@pytest.mark.slow
def test_compare_and_error_table_are_drawn_when_written(demo_runs, tmp_path) -> None:
    names = ("vision", "blind", "frequency")
    runs = {name: shutil.copytree(demo_runs[name], tmp_path / name) for name in names}
    runner = CliRunner()
    compared = runner.invoke(app, ["compare", *(str(p) for p in runs.values())])
    assert compared.exit_code == 0, compared.output
    assert runner.invoke(app, ["errors", "sample", str(runs["vision"])]).exit_code == 0
    annotations = runs["vision"] / "analysis" / "errors.json"
    doc = json.loads(annotations.read_text())
    for item in doc["items"]:
        item["errors"] = ["visual_perception"]
    annotations.write_text(json.dumps(doc))
    assert runner.invoke(app, ["errors", "table", str(annotations)]).exit_code == 0
    out = tmp_path / "report"
    build_report(list(runs.values()), out)
    index = (out / "index.html").read_text()
    assert "<h3>Comparison of runs</h3>" in index and "<h3>Error taxonomy</h3>" in index
    assert "Enabled−Disabled (vision − blind)" in index
    # issue 21: beside the values, each difference's interval, p-value, n, MDD and the legend of †
    assert "Paired 95 % intervals, p-values, n and minimum detectable difference." in index
    assert "p ≥ 0.05, or too few items/scenes (under 30 shared items or under 5 scenes)" in index
    cell = r"\[[+-]\d+\.\d, [+-]\d+\.\d\] p=\d\.\d{3} n=\d+ from 1 scene†"  # the demo: one scene
    assert re.search(cell, index)
    assert "MDD (points, 80 % power)" in index
    compare = "analysis-1-compare-vision-vs-blind-vs-frequency"  # figures named by the runs compared
    for name in (f"{compare}/differences", "analysis-3-errors-table/error-types"):
        _png_ok(out / "figures" / f"{name}.png")
    # every annotated error is visual perception: its share is 100 % in the table's "all" column
    assert "<td>Visual perception</td>" in index


@pytest.mark.slow
def test_no_analysis_files_no_analysis_section(demo_runs, tmp_path) -> None:
    build_report([demo_runs["vision"]], tmp_path / "r")
    assert 'id="analyses"' not in (tmp_path / "r" / "index.html").read_text()


def test_locality_curve_from_its_schema(tmp_path: Path) -> None:
    edges = [1.0 + 9.0 * k / 8 for k in range(9)]  # numpy.linspace(1, 10, 9), the paper's 8 bins
    bins = [{"low": edges[k], "high": edges[k + 1], "correct": k, "total": 8, "accuracy": k / 8}
            for k in range(8)]
    doc = {"analysis": "cogmap-locality", "schema": "spatialbench.cogmap-locality", "version": 1,
           "bins": bins,
           "reference": {"Gemini-1.5 Pro (Table 4)": [0.64, 0.48, 0.35, 0.35, 0.28, 0.12, 0.06, 0.0]}}
    drawn = draw_document(tmp_path, doc, "loc")
    _png_ok(tmp_path / "figures" / "loc" / "locality.png")
    assert drawn is not None
    assert drawn.grids[0].header[0] == "1.0-2.1" and drawn.grids[0].rows[1] == ("pairs", (8,) * 8)


def test_sweep_over_frames_is_a_curve_and_without_scores_not_drawn(tmp_path: Path) -> None:
    runs = [{"value": f"uniform:{n}", "path": f"/x/frames-uniform_{n}", "exit_code": 0} for n in (8, 16, 32)]
    scores = [{"name": f"frames-uniform_{n}", "scores": {"overall": s}} for n, s in ((8, 30.0), (16, 35.0),
                                                                                      (32, 37.5))]
    doc = {"analysis": "sweep", "schema": "spatialbench.sweep", "version": 1, "setting": "frames",
           "values": ["uniform:8", "uniform:16", "uniform:32"], "runs": runs, "comparison": {"runs": scores}}
    drawn = draw_document(tmp_path, doc, "sweep")
    assert drawn is not None and drawn.grids[0].rows == (("Avg.", (30.0, 35.0, 37.5)),)
    _png_ok(tmp_path / "figures" / "sweep" / "sweep.png")
    assert draw_document(tmp_path, {**doc, "comparison": None}, "none") is None


def map_answer(text: str) -> str:
    """A cognitive map putting the k-th category asked for at cell (k, k); any other turn: "A"."""
    match = re.search(r"categories to care about in this scene: \[(.*?)\]\. Focus", text)
    if "10x10 grid" not in text or match is None:
        return "A"
    names = re.findall(r"'([^']*)'", match.group(1))
    return json.dumps({name: [[k, k]] for k, name in enumerate(names)})


@pytest.mark.slow
def test_cognitive_maps_drawn_beside_their_ground_truth(demo_runs, tmp_path) -> None:
    data, out = demo_runs["benchmark"], tmp_path / "cogmap"
    with OpenAIServer(ServerScript(answer=map_answer)) as server:
        run(RunConfig.model_validate({
            "data": {"benchmark": "vsibench", "path": str(data), "limit": 4},
            "model": {"name": f"openai-compatible:{server.url}#m"}, "media": {"frames": "uniform:2"},
            "strategy": {"name": "cognitive-map"}, "out": str(out)}), progress=False)
    assert CliRunner().invoke(app, ["cogmap", str(out)]).exit_code == 0
    result = build_report([out], tmp_path / "report")
    folder = "figures/analysis-1-cogmap-locality/"
    maps = sorted(f.png for f in result.figures if f.png.startswith(folder + "map-"))
    assert len(maps) == 3  # the first 3 of the 4 stored maps (analysis.cogmap.MAPS)
    _png_ok(tmp_path / "report" / maps[0])
    assert "predicted vs ground truth (Fig. 10)" in (tmp_path / "report" / "index.html").read_text()
