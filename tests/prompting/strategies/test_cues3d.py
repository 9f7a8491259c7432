"""``with-3d-cues``: rendered views of the scene boxes travel with the frames (asserted server side).

Scene ``room0`` (hand-made): a 2 x 1 x 0.8 m table at (2, 1), a 0.5 m cube chair at (3.5, 1) and a
second chair at (0.5, 1), a 1 x 1 x 2 m shelf at (2, 3). The run sends 4 frames; the strategy adds the
instruction and 3 views after them (7 images), or 1 view before them.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from spatialbench.api import run
from spatialbench.prompting.strategies import StrategyConfig, build_strategy
from spatialbench.prompting.strategies.cues3d import labelled_boxes, render_view
from spatialbench.runs import RunConfig
from spatialbench.scene.box import OrientedBox
from spatialbench.scene.metainfo import load_meta_info, write_meta_info
from spatialbench.scene.model import ObjectInstance, Scene
from support.openai_server import OpenAIServer, ServerScript
from support.videos import encode_indexed_video

BOXES = {
    "table": [((2.0, 1.0, 0.4), (2.0, 1.0, 0.8))],
    "chair": [((3.5, 1.0, 0.25), (0.5, 0.5, 0.5)), ((0.5, 1.0, 0.25), (0.5, 0.5, 0.5))],
    "shelf": [((2.0, 3.0, 1.0), (1.0, 1.0, 2.0))],
}


def _scene() -> Scene:
    objects = {
        name: tuple(
            ObjectInstance(name, i, OrientedBox(np.array(c), np.eye(3), np.array(e)))
            for i, (c, e) in enumerate(boxes)
        )
        for name, boxes in BOXES.items()
    }
    counts = {name: len(boxes) for name, boxes in BOXES.items()}
    return Scene("room0", "arkitscenes", 12.0, np.array([2.0, 2.0, 1.0]), objects, counts)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cues")
    (root / "arkitscenes").mkdir()
    encode_indexed_video(root / "arkitscenes" / "room0.mp4", 8, 64, 64)
    (root / "meta_info").mkdir()
    write_meta_info([_scene()], root / "meta_info" / "room0.json")
    record = {
        "dataset": "arkitscenes",
        "scene_name": "room0",
        "id": 0,
        "question_type": "object_counting",
        "question": "How many chair(s) are in this room?",
        "options": None,
        "ground_truth": "2",
    }
    (root / "test.jsonl").write_text(json.dumps(record) + "\n")
    return root


def _run(data: Path, out: Path, **params) -> list:
    script = ServerScript(answer=lambda text: "2")
    with OpenAIServer(script) as server:
        config = RunConfig.model_validate(
            {
                "data": {"benchmark": "vsibench", "path": str(data)},
                "model": {"name": f"openai-compatible:{server.url}#vlm", "timeout_s": 10},
                "media": {"frames": "uniform:4"},
                "strategy": {"name": "with-3d-cues", "params": params},
                "out": str(out),
            }
        )
        summary = run(config, progress=False)
    assert summary.counts["ok"] == 1, summary.unanswered
    return script.answered()


def _content(logged) -> list[dict]:
    return logged.body["messages"][-1]["content"]


def test_cue_views_reach_the_server_after_the_frames(data: Path, tmp_path: Path) -> None:
    (request,) = _run(data, tmp_path / "run")
    assert request.n_images == 4 + 3
    kinds = [p["type"] for p in _content(request)]
    texts = [p.get("text", "") for p in _content(request)]
    first_cue = next(i for i, t in enumerate(texts) if "rendered views of this scene's 3D layout" in t)
    assert kinds[:first_cue].count("image_url") == 4  # the frames come first
    assert kinds[first_cue:].count("image_url") == 3
    assert (
        "(top-down view, side view from the front (x, height), side view from the side (y, height))"
        in texts[first_cue]
    )
    assert any("Top-down view:" in t for t in texts[first_cue:])


def test_one_view_before_the_frames(data: Path, tmp_path: Path) -> None:
    (request,) = _run(data, tmp_path / "run", views="top", placement="before")
    assert request.n_images == 5
    kinds = [p["type"] for p in _content(request)]
    texts = [p.get("text", "") for p in _content(request)]
    first_cue = next(i for i, t in enumerate(texts) if "rendered views" in t)
    assert kinds[:first_cue].count("image_url") == 0 and kinds[first_cue:].count("image_url") == 5


def test_rendered_top_view_draws_every_labelled_box() -> None:
    scene = _scene()
    assert [label for label, _ in labelled_boxes(scene)] == ["table", "chair 1", "chair 2", "shelf"]
    pixels = render_view(scene, "top", 300)
    assert pixels.shape == (300, 300, 3) and pixels.dtype == np.uint8
    assert (pixels.reshape(-1, 3).std(axis=0) > 10).all()  # boxes in colour on white, not a blank image
    with pytest.raises(ValueError, match="unknown view 'below'"):
        render_view(scene, "below")


def test_bad_parameters_are_named() -> None:
    with pytest.raises(ValueError, match="views: names from top, front, side"):
        build_strategy(StrategyConfig(name="with-3d-cues", params={"views": "top,under"}))
    with pytest.raises(ValueError, match="placement"):
        build_strategy(StrategyConfig(name="with-3d-cues", params={"placement": "middle"}))


def test_official_scene_renders(shared_data: Path) -> None:
    scenes = load_meta_info(shared_data / "vsibench" / "meta_info" / "arkitscenes_meta_info_val.json")
    scene = scenes[sorted(scenes)[0]]
    for view in ("top", "front", "side"):
        assert render_view(scene, view).shape == (448, 448, 3)


def _pixel(image: np.ndarray, point: tuple[float, float], centre: tuple[float, float], half: float) -> tuple:
    """Colour at data ``point`` of a view whose square window is ``centre`` ± ``half`` (render_view's axes:
    (0.12, 0.1, 0.85, 0.82) of the figure, made square: 0.82 wide, centred)."""
    size = image.shape[0]
    fx = 0.135 + 0.82 * (point[0] - centre[0] + half) / (2 * half)
    fy = 0.1 + 0.82 * (point[1] - centre[1] + half) / (2 * half)
    return tuple(image[int(size - fy * size), int(fx * size)].tolist())


def test_an_object_has_one_colour_in_every_view() -> None:
    scene = _scene()  # the table is lower than the shelf: the top view draws the shelf first
    top, front = render_view(scene, "top", 448), render_view(scene, "front", 448)
    # points: x 0.25..3.75, y 0.5..3.5, height 0..2; window half-width 1.75 + 0.3 margin
    in_top = _pixel(top, (1.3, 0.7), (2.0, 2.0), 2.05)  # the table, away from its label and the shelf
    in_front = _pixel(front, (1.2, 0.2), (2.0, 1.0), 2.05)
    assert in_top != (255, 255, 255) and in_top == in_front


@pytest.mark.parametrize("size", ["100000", "2049", "31"])
def test_image_size_out_of_bounds_is_refused_before_the_run(data: Path, tmp_path: Path, size: str) -> None:
    """Issue 26: ``-S image_size=100000`` ran out of memory mid-run; now one line, exit 2, no --out."""
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    out = tmp_path / "runs" / "cues"
    args = [
        "run",
        "--benchmark",
        "vsibench",
        "--data",
        str(data),
        "--model",
        "openai-compatible:http://127.0.0.1:9/v1#m",
        "--out",
        str(out),
        "--no-progress",
        "--strategy",
        "with-3d-cues",
        "-S",
        f"image_size={size}",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.splitlines() == [  # worded as click words a bad option value
        f"Error: Invalid value: strategy parameter image_size: 32 to 2048 pixels, not {size}"
    ]
    assert not (tmp_path / "runs").exists()
