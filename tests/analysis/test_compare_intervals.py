"""``compare`` deltas carry their paired interval and p-value; --relative reads "% of baseline" (issue 21)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
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


def _two_scene_rows(scores: list[float]) -> pd.DataFrame:
    # a hand-made 2-scene case: 40 questions of one task, 20 per scene
    return pd.DataFrame({"id": [f"q{i}" for i in range(40)], "task": "object_counting",
                         "question_type": "object_counting", "dataset": "scannet",
                         "scene_id": [f"s{i // 20}" for i in range(40)], "score": scores, "answered": True})


def test_two_scenes_are_too_few_to_call_significant() -> None:
    from spatialbench.analysis import compare_stats
    from spatialbench.analysis.compare import Difference
    from spatialbench.benchmarks import get_benchmark

    a, b = _two_scene_rows([1.0] * 40), _two_scene_rows([1.0] * 10 + [0.0] * 10 + [1.0] * 5 + [0.0] * 15)
    table = get_benchmark("vsibench").scoring.table
    diff = Difference("against", "a − b", "a", "b", (), (), (0, 0), {"overall": 62.5})
    (done,) = compare_stats.with_intervals([diff], {"a": a, "b": b}, table, relative=False)
    # both scenes gain (+50 and +75 points): every resample is > 0, so p is small, yet 2 scenes are too few
    assert done.p_value["overall"] < 0.05 and "overall" not in done.includes_zero
    assert done.n["overall"] == 40 and done.scenes["overall"] == 2
    assert "overall" in done.too_few and "object_counting" in done.too_few
    doc = {"benchmark": "vsibench", "relative": False, "columns": [{"key": "overall", "label": "Avg."}],
           "runs": [], "differences": [{**done.__dict__, "flagged": False}], "notes": []}
    printed = compare_render.render(doc, "markdown")
    assert "| a − b | +62.5† |" in printed
    assert "a − b: too few to call significant: Avg. (n=40, 2 scenes)" in printed
    assert "or too few items/scenes (under 30 shared items or under 5 scenes)" in printed


def test_relative_and_absolute_comparisons_keep_their_own_files(twins: Path, tmp_path: Path) -> None:
    # issue 21 newcomer check: `compare a b --against a --relative`, then without, overwrote compare_a_vs_b.*
    out = tmp_path / "out"
    runs = (str(twins / "a"), str(twins / "b"), "--against", "a")
    relative = compare_render.write_all(_doc(*runs, "--relative"), out)["json"]
    absolute = compare_render.write_all(_doc(*runs), out)["json"]
    assert relative == out / "compare_a_vs_b_relative.json"
    assert absolute == out / "compare_a_vs_b.json"
    assert json.loads(relative.read_text())["relative"] is True
    assert json.loads(absolute.read_text())["relative"] is False
    assert sorted(p.name for p in out.glob("*.md")) == ["compare_a_vs_b.md", "compare_a_vs_b_relative.md"]
