"""Set-up errors found before anything is sent: missing, empty or linked-out media, a start past every
video, an image limit."""

import json
import shutil
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
    assert not (tmp_path / "out").exists()  # nothing written, no lock left, no empty folder


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


def _point_item_at(root: Path, scene: str) -> None:
    """Point the first item of ``root/test.jsonl`` at ``arkitscenes/<scene>.mp4``."""
    lines = (root / "test.jsonl").read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "scene_name": scene})
    (root / "test.jsonl").write_text("\n".join(lines) + "\n")


def test_symlink_out_of_the_data_folder_is_a_setup_error_naming_the_file(data: Path, tmp_path: Path) -> None:
    # newcomer, issue 10: a link in the data folder pulled a file from outside it into the run
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(data / "arkitscenes" / "scene0.mp4", outside / "x.mp4")
    (data / "arkitscenes" / "linked.mp4").symlink_to(outside / "x.mp4")
    _point_item_at(data, "linked")
    code, output, requests = _run(data, tmp_path / "out", "--frames", "uniform:4")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        f"error: 1 media file(s) lead outside the data folder {data.resolve()} through a symbolic link "
        f"(1 of 6 items use them): {data / 'arkitscenes' / 'linked.mp4'} -> {outside / 'x.mp4'}; "
        "nothing was sent"
    )
    assert not (tmp_path / "out").exists()


def test_symlinks_inside_the_data_folder_and_a_linked_data_folder_run(data: Path, tmp_path: Path) -> None:
    (data / "arkitscenes" / "alias.mp4").symlink_to(data / "arkitscenes" / "scene0.mp4")
    _point_item_at(data, "alias")
    (tmp_path / "link").symlink_to(data)
    code, output, requests = _run(tmp_path / "link", tmp_path / "out", "--frames", "uniform:4")
    assert (code, requests) == (0, 6), output


def test_empty_video_is_a_setup_error(data: Path, tmp_path: Path) -> None:
    # newcomer, issue 10: a 0-byte video failed its items one by one after sending the others;
    # a present but undecodable video stays a per-item error (test_runner_http.py), decoded once
    (data / "arkitscenes" / "scene1.mp4").write_bytes(b"")
    code, output, requests = _run(data, tmp_path / "out", "--frames", "uniform:4")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        f"error: 1 media file(s) cannot be used under {data} (2 of 6 items use them): "
        f"{data / 'arkitscenes' / 'scene1.mp4'}: empty file (0 bytes); nothing was sent"
    )
    assert not (tmp_path / "out").exists()


def test_a_rotated_video_is_refused_before_the_run(data: Path, tmp_path: Path) -> None:
    """Issue 26: a phone video with a 90-degree display matrix failed each of its items mid-run."""
    from support.videos import encode_indexed_video

    rotated = encode_indexed_video(data / "arkitscenes" / "scene1.mp4", 12, 64, 64, rotation=90)
    code, output, requests = _run(data, tmp_path / "out", "--frames", "uniform:4")
    assert (code, requests) == (2, 0)
    assert output.strip() == (
        f"error: 1 video(s) are rotated by their display matrix (2 of 6 items use them): {rotated} (90 "
        "degrees); the frames would be sent turned: re-encode them upright (ffmpeg -i IN.mp4 OUT.mp4 applies "
        "the rotation); nothing was sent"
    )
    assert not (tmp_path / "out").exists()
