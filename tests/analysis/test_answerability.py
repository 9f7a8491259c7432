"""Answerability under the frames sent, on a tiny synthetic scene whose visibility is known exactly."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from spatialbench.analysis.answerability import answerability_shares, item_answerability
from spatialbench.media.sampling import parse_strategy
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from support.videos import encode_indexed_video


def _scene(root: Path) -> None:
    # 5 frames of 64x48: threshold ceil(3072 / 1536) = 2 pixels. sofa = 1, cups = 2 and 3.
    masks = np.zeros((5, 48, 64), dtype=np.uint16)
    masks[0, :4, :4] = 1
    masks[2, 0, :4] = 2
    masks[3, 0, 0] = 3  # 1 pixel: below the threshold, not visible
    masks[4, 10, :4] = 3
    masks[4, :4, :4] = 1
    scene = root / "scenes" / "s0"
    scene.mkdir(parents=True)
    np.savez(scene / "frames.npz", instance=masks)
    table = [
        {"instance_id": 1, "category": "sofa"},
        {"instance_id": 2, "category": "cup"},
        {"instance_id": 3, "category": "cup"},
    ]
    (scene / "scene.json").write_text(json.dumps({"instances": table}))
    (root / "synthetic").mkdir()
    encode_indexed_video(root / "synthetic" / "s0.mp4", 5, width=64, height=48)


def _item(task: str, question: str, truth: str) -> Item:
    media = (MediaRef(kind=MediaKind.VIDEO, path="synthetic/s0.mp4"),)
    return Item(
        id=task,
        benchmark="vsibench",
        task=task,
        question=question,
        ground_truth=truth,
        answer_kind=AnswerKind.NUMERICAL,
        media=media,
        scene_id="s0",
    )


def test_counting_and_named_objects_by_hand(tmp_path: Path) -> None:
    _scene(tmp_path)
    count = _item("object_counting", "How many cup(s) are in this room?", "2")
    pair = _item("object_abs_distance", "What is the distance between the sofa and the cup?", "1.0")
    # uniform:2 sends frames 0 and 4: sofa + cup 3 -> 1 cup of 2; both objects of the pair seen
    two = parse_strategy("uniform:2")
    assert item_answerability(count, tmp_path, two) == {
        "answerable": False,
        "missing": [],
        "visible_count": 1,
    }
    assert item_answerability(pair, tmp_path, two)["answerable"] is True  # type: ignore[index]
    # uniform:3 sends 0, 2, 4 -> both cups; coverage:2 takes frame 4 (2 new), then frame 2 (cup 2)
    for name in ("uniform:3", "coverage:2"):
        result = item_answerability(count, tmp_path, parse_strategy(name))
        assert result == {"answerable": True, "missing": [], "visible_count": 2}
    # uniform:1 sends frame 0 only: no cup
    one = item_answerability(pair, tmp_path, parse_strategy("uniform:1"))
    assert one == {"answerable": False, "missing": ["cup"], "visible_count": None}
    shares = answerability_shares([count, pair], tmp_path, [two])
    assert shares["uniform:2"]["overall"] == {"n": 2, "share": 0.5}


def test_aks_frames_are_refused_with_the_command_that_takes_them(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from spatialbench.cli.main import app

    result = CliRunner().invoke(app, ["answerability", "--data", str(tmp_path), "--frames", "aks:8"])
    assert result.exit_code == 2
    assert "--frames aks:N is for spatialbench run (with --aks-model)" in result.output


def test_overall_is_the_last_row_after_tasks_sorting_past_it(tmp_path: Path) -> None:
    """``route_planning`` sorts after ``overall``; the overall row still comes last (newcomer check #4)."""
    _scene(tmp_path)
    count = _item("object_counting", "How many cup(s) are in this room?", "2")
    route = _item("route_planning", "You stand by the sofa. How do you reach the cup?", "A")
    shares = answerability_shares([route, count], tmp_path, [parse_strategy("uniform:2")])
    # uniform:2 sends frames 0 and 4: 1 cup of 2 (counting not answerable); sofa and a cup (route answerable)
    assert list(shares["uniform:2"].items()) == [
        ("object_counting", {"n": 1, "share": 0.0}),
        ("route_planning", {"n": 1, "share": 1.0}),
        ("overall", {"n": 2, "share": 0.5}),
    ]
