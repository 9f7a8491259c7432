"""The generic commands work for the image benchmarks of issue 24 through their specs alone: baseline
(random and frequency, values by hand) and serve (an item page shows the question)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_blink import write_release as write_blink
from test_cvbench import write_release as write_cvbench
from test_embspatial import write_release as write_embspatial
from test_mindcube import write_tsv_release as write_mindcube
from test_mmsi_bench import _write_both as write_mmsi
from test_site import write_release as write_site
from test_threedsr import _kit_rows as threedsr_rows
from test_viewspatial import write_release as write_viewspatial
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.web import ServeConfig, create_app
from support.image_tables import write_tsv


def _data(name: str, folder: Path) -> Path:
    if name == "mmsi-bench":
        return write_mmsi(folder)[1]  # the TSV
    if name == "embspatial":
        return write_embspatial(folder)
    if name == "3dsrbench":
        return write_tsv(threedsr_rows(), folder / "3dsrbench_v1_vlmevalkit_circular.tsv")
    if name == "mindcube":
        return write_mindcube(folder)
    if name == "site":
        return write_site(folder)
    if name == "blink":
        return write_blink(folder)
    return write_cvbench(folder) if name == "cvbench" else write_viewspatial(folder)


# by hand: random = mean of 1/n options (MMSI and ViewSpatial 4, CV-Bench 3); frequency = the most frequent
# answer of each task: MMSI 1/2 + 1/3 + 1/1 tasks -> 3 of 6; ViewSpatial 1 of 3 per type -> 2 of 6; CV-Bench
# card formula, ties to the first letter: Count A (ADE right, COCO wrong), Relation B, Depth A, Distance A:
# ADE 2/2, COCO 0/1 -> 2D 1/2; Omni3D 2/4 -> 3D 1/2; overall 50. MindCube (translation out of the overall):
# random 1/4; frequency per setting, ties to the first letter: rotation A of A,B; among C of C,D; around A
# of B,A -> 3 of 6. SITE: the random guess scores 1/n per item, so its chance-adjusted accuracy is 0.
# BLINK (mean of the subtasks): random 1/2 each; frequency Relative_Depth B 2/3, Jigsaw B 1/1,
# Multi-view_Reasoning A of A,B 1/2.
EXPECTED = {
    ("mmsi-bench", "chance-random"): 25.0, ("mmsi-bench", "chance-frequency"): 50.0,
    ("cvbench", "chance-random"): 100 / 3, ("cvbench", "chance-frequency"): 50.0,
    ("viewspatial", "chance-random"): 25.0, ("viewspatial", "chance-frequency"): 100 / 3,
    # 3DSRBench, flip-circular: a question is right when all its variants are, so chance is the product of
    # 1/n over its variants: height (1/2)^2, location (1/2)^2, orientation (1/2)^4, multi-object (1/3)^3
    ("3dsrbench", "chance-random"): 100 * (1 / 4 + 1 / 4 + 1 / 16 + 1 / 27) / 4,
    # EmbSpatial: 4 options each; frequency per relation: every relation has one question but "close"
    # (answers C and D, the tie to the first: C), so 6 of 7
    ("embspatial", "chance-random"): 25.0, ("embspatial", "chance-frequency"): 600 / 7,
    ("mindcube", "chance-random"): 25.0, ("mindcube", "chance-frequency"): 50.0,
    ("site", "chance-random"): 0.0,
    ("blink", "chance-random"): 50.0, ("blink", "chance-frequency"): 100 * (2 / 3 + 1 + 1 / 2) / 3,
}


@pytest.mark.parametrize(("name", "model"), sorted(EXPECTED))
def test_baselines_score(tmp_path: Path, name: str, model: str) -> None:
    data = _data(name, tmp_path / "data")
    result = CliRunner().invoke(app, ["baseline", "-b", name, "-a", str(data), "-m", model,
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    scores = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert scores["overall"] == pytest.approx(EXPECTED[name, model])


@pytest.mark.parametrize("name", ["mmsi-bench", "cvbench", "viewspatial", "3dsrbench", "embspatial",
                                  "mindcube", "site", "blink"])
def test_serve_shows_an_item(tmp_path: Path, name: str) -> None:
    data = _data(name, tmp_path / "data")
    config = ServeConfig(data=data, workdir=tmp_path / "work", token="t", benchmark=name)
    client = TestClient(create_app(config), headers={"X-Spatialbench-Token": "t"})
    first = get_benchmark(name).load_items(data)[0]
    page = client.get(f"/item/{first.id}")
    assert page.status_code == 200 and first.question.split("?")[0] in page.text


@pytest.mark.parametrize("name", ["3dsrbench", "embspatial", "revsi", "mmsi-bench"])
def test_list_shows_the_benchmark_with_its_description(name: str) -> None:
    result = CliRunner().invoke(app, ["list", "benchmarks"])
    assert result.exit_code == 0, result.output
    rows = [row.split() for row in result.output.splitlines()]
    assert [name, *get_benchmark(name).description.split()] in rows
