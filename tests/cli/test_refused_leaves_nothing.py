"""Refused commands (issue 26): one line naming the path, exit 2, no traceback, no folder left behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


def _invoke(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stderr.splitlines()


@pytest.fixture(scope="module")
def scored_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("run")
    make_vsibench(root / "data", n_videos=1, per_video=2)
    out = root / "chance"
    code, _ = _invoke(
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(root / "data"),
        "--model",
        "chance-random",
        "--out",
        str(out),
        "--no-progress",
    )
    assert code == 0
    return out


def test_report_of_a_missing_run_leaves_no_report_folder(tmp_path: Path) -> None:
    code, lines = _invoke("report", str(tmp_path / "nowhere"), "-o", str(tmp_path / "R"))
    assert (code, lines) == (2, [f"error: {tmp_path / 'nowhere'}: not a run folder (no config.json)"])
    assert sorted(tmp_path.iterdir()) == []


def test_report_into_an_existing_folder_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "R").mkdir()
    code, _ = _invoke("report", str(tmp_path / "nowhere"), "-o", str(tmp_path / "R"))
    assert code == 2 and (tmp_path / "R").is_dir()


def test_compare_of_a_missing_run_creates_no_analysis_folder(tmp_path: Path) -> None:
    code, lines = _invoke("compare", str(tmp_path / "nowhere"), str(tmp_path / "S"))
    assert (code, lines) == (2, [f"error: {tmp_path / 'nowhere'}: not a scored run folder (no config.json)"])
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("flags", "why"), [("folder", "Is a directory"), ("below", "Not a directory")])
def test_report_exclude_that_is_no_file_is_one_line(
    tmp_path: Path, scored_run: Path, flags: str, why: str
) -> None:
    (tmp_path / "file.txt").write_text("x\n")
    path = tmp_path / ("folder" if flags == "folder" else "file.txt/flags.jsonl")
    path.mkdir(exist_ok=True) if flags == "folder" else None
    code, lines = _invoke("report", str(scored_run), "-o", str(tmp_path / "R"), "--exclude", str(path))
    assert (code, lines) == (2, [f"error: {path}: not a readable flags file ({why})"])
    assert not (tmp_path / "R").exists()


def test_score_exclude_that_is_a_folder_is_one_line(tmp_path: Path, scored_run: Path) -> None:
    code, lines = _invoke("score", "--run", str(scored_run), "--exclude", str(tmp_path))
    assert (code, lines) == (
        2,
        [f"error: --exclude {tmp_path}: {tmp_path}: not a readable flags file (Is a directory)"],
    )


def test_frames_as_outside_its_words_is_refused_before_the_run(tmp_path: Path) -> None:
    """``-M frames_as=audio`` was a ValueError traceback after ``--out`` was made."""
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}")
    out = tmp_path / "runs" / "hf"
    code, lines = _invoke(
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(tmp_path / "data"),
        "--model",
        f"hf:{tmp_path / 'model'}",
        "-M",
        "frames_as=audio",
        "--out",
        str(out),
        "--no-progress",
    )
    assert (code, lines) == (
        2,
        ["error: --model-option: model option 'frames_as': expected one of 'images', 'video', got 'audio'"],
    )
    assert not (tmp_path / "runs").exists()


def test_frames_as_in_a_run_file_names_the_file_and_field(tmp_path: Path) -> None:
    make_vsibench(tmp_path / "data", n_videos=1, per_video=2)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}")
    run_file = tmp_path / "run.yaml"
    run_file.write_text(
        f"data: {{benchmark: vsibench, path: {tmp_path / 'data'}}}\n"
        f"model: {{name: 'hf:{tmp_path / 'model'}', options: {{frames_as: audio}}}}\n"
        f"out: {tmp_path / 'runs' / 'hf'}\n"
    )
    code, lines = _invoke("run", "--config", str(run_file), "--no-progress")
    assert (code, lines) == (
        2,
        [
            f"error: {run_file}: model.options: model option 'frames_as': expected one "
            "of 'images', 'video', got 'audio'"
        ],
    )
    assert not (tmp_path / "runs").exists()


def test_baseline_of_missing_annotations_leaves_no_out_folder(tmp_path: Path) -> None:
    code, lines = _invoke(
        "baseline",
        "-a",
        str(tmp_path / "none.jsonl"),
        "-m",
        "chance-random",
        "-o",
        str(tmp_path / "new" / "scores"),
    )
    assert (code, lines) == (2, [f"error: annotation path not found: {tmp_path / 'none.jsonl'}"])
    assert sorted(tmp_path.iterdir()) == []


def test_compare_of_one_run_is_refused_and_writes_nothing(tmp_path) -> None:
    # issue 21 (newcomer round): `compare RUN` exited 0 and wrote compare_<run>.* with nothing compared
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    run = tmp_path / "only"
    run.mkdir()
    result = CliRunner().invoke(app, ["compare", str(run)])
    assert result.exit_code == 2 and "compare needs two or more runs, got 1" in result.output
    assert list(run.iterdir()) == []
