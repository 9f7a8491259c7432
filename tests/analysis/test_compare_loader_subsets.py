"""``compare --subset`` takes every subset the benchmark declares, as ``run``/``score``/``baseline`` do:
BLINK's ``spatial`` and MindCube's ``tiny`` are chosen by their loaders from the run's data (compare said
"subset 'spatial': BLINK has none")."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from benchmarks.test_blink import write_release
from spatialbench.cli.main import app


def _baselines(data: Path, root: Path, benchmark: str) -> list[str]:
    outs = []
    for model in ("chance-random", "chance-frequency"):
        out = root / model
        args = ["run", "--benchmark", benchmark, "--data", str(data), "--model", model, "--out", str(out)]
        result = CliRunner().invoke(app, [*args, "--no-progress"])
        assert result.exit_code == 0, result.output
        outs.append(str(out))
    return outs


def test_blink_spatial_subset(tmp_path: Path) -> None:
    data = write_release(tmp_path / "hf")
    runs = _baselines(data, tmp_path / "runs", "blink")
    whole = CliRunner().invoke(app, ["compare", *runs, "--format", "json"])
    spatial = CliRunner().invoke(app, ["compare", *runs, "--subset", "spatial", "--format", "json"])
    assert whole.exit_code == 0 and spatial.exit_code == 0, spatial.output
    assert '"n_items": 6' in whole.output  # Relative_Depth ×3, Jigsaw, Multi-view_Reasoning ×2
    assert '"n_items": 5' in spatial.output and '"n_items": 6' not in spatial.output  # Jigsaw: not spatial


def test_an_undeclared_subset_names_the_declared_ones(tmp_path: Path) -> None:
    data = write_release(tmp_path / "hf")
    runs = _baselines(data, tmp_path / "runs", "blink")
    result = CliRunner().invoke(app, ["compare", *runs, "--subset", "tiny"])
    assert result.exit_code == 2
    assert "blink has no subset 'tiny'; its subsets: spatial" in result.output
