"""The coverage oracle sampler ``coverage:N`` (issue 23 item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from spatialbench.media.sampling import StrategyError, greedy_coverage, parse_strategy
from spatialbench.media.visibility import find_visibility

TIMES = np.arange(5, dtype=np.float64)


def test_greedy_coverage_by_hand() -> None:
    # frame 2 sees {1,2,3} (3 new) -> then frame 4 adds {4,5} (2 new; frame 0 adds only {4}) -> then
    # frames 0, 1 and 3 add nothing: the earliest, frame 0.
    visible = [frozenset({1, 4}), frozenset({1}), frozenset({1, 2, 3}), frozenset({2}), frozenset({4, 5})]
    strategy = parse_strategy("coverage:3")
    assert strategy.name == "coverage:3"
    assert strategy.select(TIMES, visible).tolist() == [0, 2, 4]
    assert parse_strategy("coverage:2").select(TIMES, visible).tolist() == [2, 4]
    assert greedy_coverage(visible, 9).tolist() == [0, 1, 2, 3, 4]


def test_coverage_refused_without_visibility() -> None:
    with pytest.raises(StrategyError, match=r"coverage:4 needs per-frame visibility"):
        parse_strategy("coverage:4").select(TIMES)
    with pytest.raises(StrategyError, match="coverage:N"):
        parse_strategy("coverage:0x")


def test_visibility_read_beside_the_video(tmp_path: Path) -> None:
    # 3 frames of 48x32 (threshold ceil(1536/1536) = 1 pixel); id 2 covers 1 pixel in frame 1 only.
    masks = np.zeros((3, 32, 48), dtype=np.uint16)
    masks[0, :5, :5] = 1
    masks[1, 0, 0] = 2
    masks[2, :, :] = 1
    scene = tmp_path / "scenes" / "s0"
    scene.mkdir(parents=True)
    np.savez(scene / "frames.npz", instance=masks)
    table = [{"instance_id": 1, "category": "sofa"}, {"instance_id": 2, "category": "cup"}]
    (scene / "scene.json").write_text(json.dumps({"instances": table}))
    found = find_visibility(tmp_path / "synthetic" / "s0.mp4")
    assert found is not None
    assert found.frames == (frozenset({1}), frozenset({2}), frozenset({1}))
    assert found.categories == {1: "sofa", 2: "cup"}
    assert find_visibility(tmp_path / "synthetic" / "other.mp4") is None


def test_a_video_without_visibility_is_refused_in_one_line(tmp_path: Path) -> None:
    from spatialbench.media.errors import MediaError
    from spatialbench.media.video import sample_video
    from support.videos import encode_indexed_video

    video = encode_indexed_video(tmp_path / "plain.mp4", 4, width=64, height=48)
    with pytest.raises(MediaError, match=r"plain\.mp4: --frames coverage:2 needs per-frame visibility"):
        sample_video(str(video), parse_strategy("coverage:2"))
