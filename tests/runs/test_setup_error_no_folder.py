"""A run that fails while setting up (before its first request) leaves no folder it created behind."""

from pathlib import Path

from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.vsi_data import make_vsibench


def _run(data: Path, out: Path) -> tuple[int, str]:
    args = ["run", "--benchmark", "vsibench", "--data", str(data), "--model",
            "openai-compatible:http://127.0.0.1:9/v1#m", "--out", str(out), "--no-progress",
            "--strategy", "with-3d-cues", "-S", "meta_info=/missing"]
    result = CliRunner().invoke(app, args)
    return result.exit_code, result.output


def test_missing_meta_info_creates_no_out_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    code, output = _run(data, tmp_path / "runs" / "new")
    assert code == 2 and "no meta-info JSON at /missing" in output
    assert not (tmp_path / "runs").exists()  # its new parent is gone too


def test_an_existing_folder_is_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_vsibench(data, n_videos=1, per_video=2)
    out = tmp_path / "mine"
    out.mkdir()
    code, _ = _run(data, out)
    assert code == 2 and out.is_dir()
