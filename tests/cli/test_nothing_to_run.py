"""Issue 26: a run that would select nothing, or contradicts itself, is refused before any folder is made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


def _run(data: Path, out: Path, *extra: str) -> list[str]:
    return ["run", "--benchmark", "vsibench", "--data", str(data), "--out", str(out), "--no-progress",
            "--model", "chance-random", *extra]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    return tmp_path / "data"


def test_limit_zero_is_refused(data: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _run(data, tmp_path / "o", "--limit", "0"))
    assert (result.exit_code, result.stderr.splitlines()) == (
        2, ["Error: Invalid value for --limit: 0 selects no item: nothing to run"])
    assert not (tmp_path / "o").exists()


def test_an_ids_file_listing_nothing_is_refused(data: Path, tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("# only a comment\n\n")
    result = CliRunner().invoke(app, _run(data, tmp_path / "o", "--ids", str(ids)))
    assert (result.exit_code, result.stderr.splitlines()) == (
        2, [f"Error: Invalid value for --ids: {ids} lists no item id: nothing to run"])
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(("field", "line"), [("limit: 0", "data.limit: 0 selects no item: nothing to run"),
                                              ("ids: []", "data.ids: lists no item id: nothing to run")])
def test_a_run_file_selecting_nothing_names_its_field(
    data: Path, tmp_path: Path, field: str, line: str
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(f"data:\n  benchmark: vsibench\n  path: {data}\n  {field}\n"
                      f"model:\n  name: chance-random\nout: {tmp_path / 'o'}\n")
    result = CliRunner().invoke(app, ["run", "--config", str(config)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [f"Error: {config}: Invalid value for {line}"]
    assert not (tmp_path / "o").exists()


def test_blind_with_frames_is_refused(data: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, _run(data, tmp_path / "o", "--blind", "--frames", "uniform:8"))
    assert (result.exit_code, result.stderr.splitlines()) == (
        2, ["Error: Invalid value for --frames: uniform:8 given for a blind run, which sends no frames; "
            "give frames or blind, not both"])
    assert not (tmp_path / "o").exists()


def test_baseline_refuses_an_unknown_mra_mode_listing_the_modes(data: Path) -> None:
    """chance-random never reads the mode where no item is numerical: it printed "MRA: banana" and exit 0."""
    result = CliRunner().invoke(app, ["baseline", "-a", str(data), "-m", "chance-random", "--mra", "banana"])
    assert (result.exit_code, result.stderr.splitlines()) == (
        2, ["error: unknown MRA mode 'banana'; Known: official, paper"])
    assert result.stdout == ""
