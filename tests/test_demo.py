"""The built-in demo: contact sheets (fast) and the whole pipeline through the CLI (slow)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import av
import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from spatialbench.benchmarks import load_items
from spatialbench.cli.main import app
from spatialbench.demo import contact_sheet
from spatialbench.demo.pipeline import DEMO_FILES, claim_demo_folder, write_contact_sheets
from spatialbench.media import load_media, parse_strategy
from spatialbench.media.errors import MediaError

runner = CliRunner()


def write_video(path: Path, frames: int = 48, fps: int = 24) -> None:
    """A 64x48 video whose frame k is uniformly grey at level 5k."""
    with av.open(str(path), mode="w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for k in range(frames):
            pixels = np.full((48, 64, 3), 5 * k, np.uint8)
            container.mux(stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")))
        container.mux(stream.encode())


def test_contact_sheet_tiles_uniform_samples(tmp_path: Path) -> None:
    write_video(tmp_path / "v.mp4")
    sheet = contact_sheet(tmp_path / "v.mp4", tmp_path / "sheet.jpg", frames=6, columns=3, thumb_width=32)
    image = np.asarray(Image.open(sheet).convert("L"), dtype=float)
    assert image.shape == (2 * 24, 3 * 32)  # 2 rows x 3 columns of 32x24 thumbnails
    # Tiles are uniformly sampled frames: their brightness rises left to right, top to bottom.
    tiles = [
        image[r * 24 + 12 : r * 24 + 24, c * 32 + 16 : c * 32 + 32].mean() for r in range(2) for c in range(3)
    ]
    assert tiles == sorted(tiles) and tiles[-1] - tiles[0] > 150


def _rendered(video: Path, *scene_ids: str) -> list:  # type: ignore[type-arg]
    """Stand-ins for RenderedScene: what write_contact_sheets reads (scene id, video path)."""
    return [SimpleNamespace(scene=SimpleNamespace(scene_id=s), video=video) for s in scene_ids]


def test_rerun_removes_only_the_sheets_the_demo_wrote(tmp_path: Path) -> None:
    write_video(tmp_path / "v.mp4")
    out = tmp_path / "out"
    claim_demo_folder(out, 2, 0)
    write_contact_sheets(_rendered(tmp_path / "v.mp4", "synth_0000_000", "synth_0000_001"), out)
    sheets = out / "contact_sheets"
    (sheets / "my_notes.jpg").write_bytes(b"a user's own picture")
    (sheets / "synth_0000_007.jpg").write_bytes(b"named like ours, but not written by the demo")
    claim_demo_folder(out, 1, 0)
    write_contact_sheets(_rendered(tmp_path / "v.mp4", "synth_0000_000"), out)
    kept = sorted(p.name for p in sheets.iterdir())
    assert kept == ["my_notes.jpg", "synth_0000_000.jpg", "synth_0000_007.jpg"]
    assert (sheets / "my_notes.jpg").read_bytes() == b"a user's own picture"
    assert sorted(n for n in DEMO_FILES.existing(out) if n.startswith("contact_sheets/")) == [
        "contact_sheets/synth_0000_000.jpg"
    ]


def test_unreadable_video_leaves_no_partial_sheet(tmp_path: Path) -> None:
    (tmp_path / "bad.mp4").write_bytes(b"not a video")
    with pytest.raises(MediaError):
        contact_sheet(tmp_path / "bad.mp4", tmp_path / "sheet.jpg")
    assert list(tmp_path.iterdir()) == [tmp_path / "bad.mp4"]


ROUTE = re.compile(
    r"You are a robot beginning at the .+ facing the .+\. You want to navigate to the .+\. "
    r"You will perform the "
    r"following actions \(Note: for each \[please fill in\], choose either 'turn back,' 'turn left,' or "
    r"'turn right\.'\): 1\. .+\. You have reached the final destination\."
)


@pytest.mark.slow
def test_demo_writes_a_benchmark_the_loader_and_runner_accept(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "--out", str(out), "--scenes", "2", "--seconds", "8", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "| Chance (random) |" in result.output and "| Chance (frequency) |" in result.output
    items = load_items("vsibench", out / "benchmark")
    assert not items.errors
    summary = json.loads((out / "summary.json").read_text())
    assert len(items) == sum(summary["questions"].values())
    assert {"route_planning", "object_counting", "object_rel_direction_hard"} <= {i.task for i in items}
    # The walk starts facing few objects (synth.camera.quiet_heading), so first appearances spread out.
    assert "obj_appearance_order" in {i.task for i in items}
    for item in items:
        assert item.dataset == "synthetic" and item.media[0].path == f"synthetic/{item.scene_id}.mp4"
    for item in (i for i in items if i.task == "route_planning"):
        assert ROUTE.fullmatch(item.question), item.question
    frames = load_media(items[0].media[0], out / "benchmark", parse_strategy("uniform:8"), None)
    assert len(frames.pixels) == 8 and frames.pixels[0].shape == (480, 640, 3)
    assert len(list((out / "contact_sheets").glob("*.jpg"))) == 2
    run = runner.invoke(
        app,
        [
            "run",
            "--benchmark",
            "vsibench",
            "--data",
            str(out / "benchmark"),
            "--model",
            "chance-random:demo",
            "--out",
            str(tmp_path / "run"),
            "--no-progress",
        ],
    )
    assert run.exit_code == 0, run.output
    assert f"{len(items)} items: 0 already answered" in run.output  # chance-random scores MC items only


@pytest.mark.slow
def test_demo_is_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        result = runner.invoke(
            app, ["demo", "--out", str(tmp_path / name), "--scenes", "1", "--seconds", "2"]
        )
        assert result.exit_code == 0, result.output
    for file in ("benchmark/test.jsonl", "routes.jsonl", "benchmark/meta_info/synthetic_meta_info.json"):
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes()
