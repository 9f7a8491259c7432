"""``spatialbench list benchmarks``: the thirteen benchmarks of issue 24 (VSI-SUPER as its two tasks), each on
one line with its one-line description, in name order."""

from __future__ import annotations

from typer.testing import CliRunner

from spatialbench.cli.main import app

EXPECTED = [
    ("3dsrbench", "3DSRBench: height/location/orientation/multi-object 3D reasoning, flip + circular eval"),
    ("blink", "BLINK: 14 visual perception tasks (depth, correspondence, multi-view...), val split"),
    ("cvbench", "CV-Bench (Cambrian-1): 2D relation/count on ADE20K+COCO, 3D depth/distance on Omni3D"),
    ("embspatial", "EmbSpatial-Bench: egocentric spatial relations in MP3D, AI2-THOR and ScanNet scenes"),
    ("mindcube", "MindCube: spatial mental models from limited views (rotation / among / around)"),
    ("mmsi-bench", "MMSI-Bench: 1,000 multi-image spatial reasoning multiple-choice questions"),
    ("mmsi-video", "MMSI-Video-Bench: 1,106 human-written multiple-choice questions over 1-N videos"),
    ("remindview", "ReMindView-Bench: multi-view spatial reasoning in procedurally generated indoor scenes"),
    ("revsi", "ReVSI: VSI-Bench tasks rebuilt per frame budget (16 ... all), each its own ground truth"),
    ("site", "SITE: spatial intelligence over images and videos, chance-adjusted accuracy pooled"),
    ("viewspatial", "ViewSpatial-Bench: camera vs person perspective spatial localisation questions"),
    ("vsi-super-count",
     "VSI-SUPER-Count (Cambrian-S): count objects across 10-240 min videos, MRA per duration"),
    ("vsi-super-recall",
     "VSI-SUPER-Recall (Cambrian-S): recall objects in 10-240 min videos, accuracy per duration"),
    ("vsibench", "VSI-Bench (Thinking in Space): 8 tasks over ARKitScenes, ScanNet, ScanNet++ videos"),
]


def test_every_benchmark_has_one_line() -> None:
    result = CliRunner().invoke(app, ["list", "benchmarks"])
    assert result.exit_code == 0, result.output
    rows = [line.split(None, 1) for line in result.output.splitlines() if line.strip()]
    shipped = [(name, text) for name, text in rows if name in dict(EXPECTED)]
    assert shipped == EXPECTED  # one line each, name order, the description whole
    assert all(len(f"{name:18}{text}") <= 120 for name, text in EXPECTED)  # one terminal line each
