"""``report`` over runs of different or unknown benchmarks: one line naming each run and benchmark, exit 2.

Issue 14: a run of another benchmark gave "benchmark data ... cannot be read", and a run naming an
unregistered benchmark a traceback (UnknownNameError), exit 1.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app


def relabelled(run: Path, out: Path, benchmark: str) -> Path:
    """A copy of ``run`` whose config.json names ``benchmark``."""
    shutil.copytree(run, out)
    path = out / "config.json"
    record = json.loads(path.read_text())
    record["config"]["data"]["benchmark"] = benchmark
    path.write_text(json.dumps(record))
    return out


def test_runs_of_two_benchmarks_are_one_line_exit_2(demo_runs, tmp_path: Path) -> None:
    other = relabelled(demo_runs["vision"], tmp_path / "runs2" / "other", "mmsi-video")
    args = ["report", str(demo_runs["vision"]), str(other), "--out", str(tmp_path / "r")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    line = f"error: runs of different benchmarks: {demo_runs['vision']} (vsibench), {other} (mmsi-video)"
    assert line in result.output and "cannot be read" not in result.output


def test_a_run_of_an_unknown_benchmark_is_one_line_exit_2(demo_runs, tmp_path: Path) -> None:
    odd = relabelled(demo_runs["vision"], tmp_path / "odd", "vsi-bench-typo")
    result = CliRunner().invoke(app, ["report", str(odd), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2, result.output
    hint = "did you mean 'vsibench', 'mmsi-bench'?"
    assert f"error: {odd}: unknown benchmark 'vsi-bench-typo'; {hint}" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
