import numpy as np
import pytest

from spatialbench.media.sampling import StrategyError, parse_strategy, within_segment

TIMES_30FPS = np.arange(300) / 30.0


def test_uniform_matches_official_linspace_with_first_and_last() -> None:
    # official VSI-Bench / lmms-eval: np.linspace(0, total - 1, num_frames, dtype=int)
    got = parse_strategy("uniform:32").select(TIMES_30FPS)
    assert got[0] == 0 and got[-1] == 299 and len(got) == 32
    assert got[:5].tolist() == [0, 9, 19, 28, 38]  # floor(k * 299 / 31)


def test_uniform_clamps_to_available_frames() -> None:
    assert parse_strategy("uniform:32").select(np.arange(5) / 30.0).tolist() == [0, 1, 2, 3, 4]


def test_fps_picks_first_frame_at_or_after_each_tick() -> None:
    assert parse_strategy("fps:1").select(TIMES_30FPS).tolist() == list(range(0, 300, 30))
    uneven = np.array([0.0, 0.4, 0.9, 1.2, 2.5])
    assert parse_strategy("fps:1").select(uneven).tolist() == [0, 3, 4]


def test_consecutive_by_index_and_by_time_and_all() -> None:
    assert parse_strategy("consecutive:4@10").select(TIMES_30FPS).tolist() == [10, 11, 12, 13]
    assert parse_strategy("consecutive:3@2.5s").select(TIMES_30FPS).tolist() == [75, 76, 77]
    assert parse_strategy("consecutive:4@298").select(TIMES_30FPS).tolist() == [298, 299]
    assert len(parse_strategy("all").select(TIMES_30FPS)) == 300


@pytest.mark.parametrize("name", ["uniform:0", "uniform:x", "fps:0", "consecutive:4", "random:3", ""])
def test_bad_names_raise(name: str) -> None:
    with pytest.raises(StrategyError, match="frame strategy"):
        parse_strategy(name)


def test_canonical_names_roundtrip() -> None:
    for name in ["uniform:32", "fps:0.5", "consecutive:8@12", "consecutive:8@2.5s", "all"]:
        assert parse_strategy(name).name == name


def test_segment() -> None:
    assert within_segment(TIMES_30FPS, 1.0, 1.1).tolist() == [30, 31, 32, 33]
