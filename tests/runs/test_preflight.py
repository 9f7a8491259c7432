"""Set-up errors found before anything is sent: missing media, a start past every video, an image limit."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.cli.main import app
from support.openai_server import OpenAIServer, ServerScript
from support.vsi_data import make_vsibench


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    make_vsibench(root, n_videos=3, per_video=2, n_frames=12)
    return root


def _run(root: Path, out: Path, *extra: str) -> tuple[int, str, int]:
    """Run the CLI against a loopback server; return exit code, output and requests received."""
    script = ServerScript(answer=lambda text: "A")
    with OpenAIServer(script) as server:
        args = ["run", "--benchmark", "vsibench", "--data", str(root), "--out", str(out), "--no-progress",
                "--model", f"openai-compatible:{server.url}#m", *extra]
        result = CliRunner().invoke(app, args)
    return result.exit_code, result.output, len(script.log)


def test_missing_videos_are_one_setup_error_naming_files_and_layout(data: Path, tmp_path: Path) -> None:
    for v in (0, 2):
        (data / "arkitscenes" / f"scene{v}.mp4").unlink()
    code, output, requests = _run(data, tmp_path / "out", "--frames", "uniform:4")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        f"error: 2 media file(s) or frame folder(s) missing under {data} (4 of 6 items use them): "
        f"{data}/arkitscenes/scene0.mp4, {data}/arkitscenes/scene2.mp4; "
        "expected layout <data>/<dataset>/<scene_name>.mp4; nothing was sent"
    )
    assert list((tmp_path / "out").iterdir()) == []  # nothing written, no lock left


def test_blind_run_needs_no_media(data: Path, tmp_path: Path) -> None:
    for video in (data / "arkitscenes").iterdir():
        video.unlink()
    code, output, requests = _run(data, tmp_path / "out", "--blind")
    assert (code, requests) == (0, 6), output


def test_consecutive_start_past_every_video(data: Path, tmp_path: Path) -> None:
    code, output, requests = _run(data, tmp_path / "out", "--frames", "consecutive:4@12")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        "error: --frames consecutive:4@12 starts past the end of every video (3 media; the longest has 12 "
        "frames): choose an earlier start; nothing was sent"
    )
    code, _, requests = _run(data, tmp_path / "fits", "--frames", "consecutive:4@8")  # frames 8-11 exist
    assert (code, requests) == (0, 6)


def test_image_limit_below_the_frames(data: Path, tmp_path: Path) -> None:
    code, output, requests = _run(data, tmp_path / "out", "--frames", "uniform:8", "--max-images", "4")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        "error: the requests hold 8 images but --max-images is 4: send fewer frames (--frames), raise "
        "--max-images or use --image-overflow subsample; nothing was sent"
    )
    code, _, requests = _run(data, tmp_path / "sub", "--frames", "uniform:8", "--max-images", "4",
                             "--image-overflow", "subsample")
    assert (code, requests) == (0, 6)
