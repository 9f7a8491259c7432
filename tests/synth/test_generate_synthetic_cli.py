"""``spatialbench generate synthetic`` writes the demo's complete VSI-Bench folder (issue 5, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.benchmarks import load_items
from spatialbench.cli.main import app

runner = CliRunner()
TEN_TASKS = {
    "object_counting",
    "object_abs_distance",
    "object_size_estimation",
    "room_size_estimation",
    "object_rel_distance",
    "object_rel_direction_easy",
    "object_rel_direction_medium",
    "object_rel_direction_hard",
    "obj_appearance_order",
    "route_planning",
}
# 12 s: at 8 s the one appearance-order question of these rooms was ambiguous at first pixels (removed).
TINY = ["--scenes", "2", "--seed", "0", "--seconds", "12", "--fps", "8", "--width", "160", "--height", "120"]


def test_generate_synthetic_writes_a_benchmark_that_run_accepts(tmp_path: Path) -> None:
    out, routes = tmp_path / "bench", tmp_path / "routes.jsonl"
    result = runner.invoke(app, ["generate", "synthetic", "--out", str(out), "--routes", str(routes), *TINY])
    assert result.exit_code == 0, result.output
    items = load_items("vsibench", out)
    assert not items.errors
    manifest = json.loads((out / "manifest.json").read_text())
    assert set(manifest["tasks"]) == TEN_TASKS  # every type asked; a type may find no question
    asked = {task for task, entry in manifest["tasks"].items() if entry["count"]}
    assert {item.task for item in items} == asked
    assert asked == TEN_TASKS  # these two rooms allow them all
    assert len(items) == sum(entry["count"] for entry in manifest["tasks"].values())
    for item in items:
        assert item.dataset == "synthetic" and (out / item.media[0].path).is_file()
    meta = json.loads((out / "meta_info" / "synthetic_meta_info.json").read_text())
    assert sorted(meta) == ["synth_0000_000", "synth_0000_001"]
    assert all("first_appearance" in entry for entry in meta.values())
    assert len(routes.read_text().splitlines()) >= manifest["tasks"]["route_planning"]["count"]
    run_out = tmp_path / "run"
    run = runner.invoke(
        app,
        ["run", "--benchmark", "vsibench", "--data", str(out), "--model", "chance-random:x"]
        + ["--out", str(run_out), "--no-progress"],
    )
    assert run.exit_code == 0, run.output
    assert f"{len(items)} items: 0 already answered" in run.output


def test_render_only_writes_no_questions(tmp_path: Path) -> None:
    args = ["generate", "synthetic", "--out", str(tmp_path), "--render-only", "--scenes", "1", *TINY[2:]]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "meta_info" / "synthetic_meta_info.json").is_file()
    assert (tmp_path / "synthetic" / "synth_0000_000.mp4").is_file()
    assert not (tmp_path / "test.jsonl").exists() and not (tmp_path / "manifest.json").exists()


def test_routes_file_inside_the_benchmark_is_refused_before_rendering(tmp_path: Path) -> None:
    routes = tmp_path / "routes.jsonl"
    result = runner.invoke(app, ["generate", "synthetic", "--out", str(tmp_path), "--routes", str(routes)])
    assert result.exit_code == 2
    assert "must lie outside the benchmark folder" in result.output
    assert not (tmp_path / "synthetic").exists()
