"""``compare`` deltas carry their paired interval and p-value; --relative reads "% of baseline" (issue 21)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.analysis import compare_render
from spatialbench.cli.main import app
from support.analysis_runs import run
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import answer_script, make_vsibench


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("twins")
    answers = make_vsibench(base / "data", n_videos=2, per_video=4)
    script = ServerScript()
    script.answer = answer_script(answers)
    with OpenAIServer(script) as server:
        run(base / "data", base / "a", f"openai-compatible:{server.url}#m", "--frames", "uniform:4",
            "--concurrency", "1")
    shutil.copytree(base / "a", base / "b")
    return base


def _doc(*args: str) -> dict:
    result = CliRunner().invoke(app, ["compare", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_identical_runs_delta_zero_p_one_interval_includes_zero(twins: Path) -> None:
    doc = _doc(str(twins / "a"), str(twins / "b"), "--against", "a")
    (diff,) = doc["differences"]
    assert diff["scores"]["overall"] == 0.0
    assert diff["ci95"]["overall"] == [0.0, 0.0] and diff["p_value"]["overall"] == 1.0
    assert "overall" in diff["includes_zero"]
    assert diff["minimum_detectable"] == 0.0
    printed = compare_render.render(doc, "markdown")
    assert "| b − a | +0.0† |" in printed
    assert "b − a: Avg. +0.0 [+0.0, +0.0] p=1.000" in printed


def test_relative_differences_are_labelled_percent_of_baseline(twins: Path) -> None:
    doc = _doc(str(twins / "a"), str(twins / "b"), "--against", "a", "--relative")
    printed = compare_render.render(doc, "markdown")
    assert "differences in % of baseline" in printed
    assert "| b − a (% of baseline) |" in printed


def test_rerun_reuses_its_file_and_another_comparison_gets_its_own(twins: Path, tmp_path: Path) -> None:
    doc = _doc(str(twins / "a"), str(twins / "b"), "--against", "a")
    out = tmp_path / "out"
    first = compare_render.write_all(doc, out)["json"]
    again = compare_render.write_all(doc, out)["json"]
    assert first == again == out / "compare_a_vs_b.json"
    other = {**doc, "runs": [{**doc["runs"][0], "name": "a?"}, doc["runs"][1]]}  # same file-safe name
    assert compare_render.write_all(other, out)["json"] == out / "compare_a_vs_b-2.json"
    assert json.loads(first.read_text())["runs"][0]["name"] == "a"
