"""``run --strategy X`` with a baseline model (it sends no request) is refused before anything is written."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


@pytest.mark.parametrize("model", ["chance-random", "chance-frequency"])
def test_strategy_with_a_baseline_is_one_line_exit_2(tmp_path: Path, model: str) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    out = tmp_path / "run"
    args = ["run", "--benchmark", "vsibench", "--data", str(data), "--model", model, "--out", str(out),
            "--no-progress", "--strategy", "zero-shot-cot"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"error: strategy zero-shot-cot does not apply to the baseline {model} "
                                     "(it sends no request; its answers come from the items)")
    assert not out.exists()
    plain = CliRunner().invoke(app, [*args[:-2], "--strategy", "direct"])  # direct is what a baseline does
    assert plain.exit_code == 0, plain.output
