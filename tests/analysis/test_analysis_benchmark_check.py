"""An analysis of one paper refuses another benchmark's run before it sends or writes anything (issue 21)."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


@pytest.fixture(scope="module")
def vsi_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsi")
    make_vsibench(root / "data", n_videos=1, per_video=2)
    args = ["run", "--benchmark", "vsibench", "--data", str(root / "data"), "--model", "chance-random"]
    result = CliRunner().invoke(app, [*args, "--out", str(root / "run"), "--no-progress"])
    assert result.exit_code == 0, result.output
    return root / "run"


JUDGE = ["judge", "--judge", "openai-compatible:http://127.0.0.1:9/v1#j"]


@pytest.mark.parametrize(("command", "section"), [(["consistency"], "App. D.3"), (JUDGE, "App. D.1")])
def test_a_remindview_analysis_refuses_vsibench(vsi_run: Path, command: list[str], section: str) -> None:
    # the newcomer check: consistency on a VSI-Bench run printed a table of dashes ("no_phases 89"), exit 1
    result = CliRunner().invoke(app, [command[0], str(vsi_run), *command[1:]])
    assert result.exit_code == 2
    assert result.output.strip() == (
        f"error: {command[0]} applies to ReMindView-Bench runs ({section}); {vsi_run} is a vsibench run"
    )
    assert not (vsi_run / "analysis").exists()
