"""AKS keyframe selection (MMSI-Video Table 5; Tang et al. CVPR 2025): judge and split on hand-made scores.

Each expected selection is worked out by hand in the test, with the official thresholds (top-N mean minus
segment mean > 0.8 keeps a segment whole) and depth 5.
"""

import numpy as np
import pytest

from spatialbench.media.aks import adaptive_keyframes
from spatialbench.media.sampling import StrategyError, parse_strategy


def test_a_peak_not_concentrated_enough_is_split_and_each_quarter_gives_its_best_frame() -> None:
    # 16 candidates, N=4, ones at 5..8. Depth 0: top-4 mean 1 - mean 0.25 = 0.75 <= 0.8: split, 2 frames
    # per half. [0,8): top-4 (1,1,1,0) 0.75 - 0.375 = 0.375: split, 1 each; [8,16): 0.25 - 0.125: split.
    # A share of 1 is final: [0,4) all 0 -> 0 (earliest); [4,8) -> 5; [8,12) -> 8; [12,16) all 0 -> 12.
    scores = np.zeros(16)
    scores[5:9] = 1.0
    assert adaptive_keyframes(scores, 4).tolist() == [0, 5, 8, 12]


def test_a_concentrated_peak_keeps_the_whole_segment_and_its_top_frames_win() -> None:
    # 20 candidates, N=2, ones at 13 and 17: top-2 mean 1 - mean 0.1 = 0.9 > 0.8, kept whole: both peaks.
    scores = np.zeros(20)
    scores[[13, 17]] = 1.0
    assert adaptive_keyframes(scores, 2).tolist() == [13, 17]


def test_equal_scores_spread_the_frames_evenly() -> None:
    # constant scores normalise to 0 (no division by zero); splits: [0,32) [32,64) then quarters of 16,
    # each taking its earliest frame
    assert adaptive_keyframes(np.full(64, 0.3), 4).tolist() == [0, 16, 32, 48]


def test_scores_are_min_max_normalised_so_the_scale_does_not_matter() -> None:
    rng = np.random.default_rng(0)
    scores = rng.random(200)
    assert adaptive_keyframes(scores, 32).tolist() == adaptive_keyframes(5 * scores - 3, 32).tolist()


def test_no_more_candidates_than_wanted_gives_every_candidate() -> None:
    assert adaptive_keyframes(np.array([0.2, 0.9, 0.1]), 8).tolist() == [0, 1, 2]


@pytest.mark.parametrize("count", [8, 32, 50, 64])
def test_exactly_n_distinct_sorted_frames_also_when_n_is_no_power_of_two(count: int) -> None:
    # the official frame_select.py gives a depth-5 segment int(N / 32) frames: 32 for AKS-50, 0 for N=8
    chosen = adaptive_keyframes(np.random.default_rng(1).random(300), count)
    assert len(chosen) == count == len(set(chosen.tolist()))
    assert chosen.tolist() == sorted(chosen.tolist())


def test_aks_parses_as_a_counted_strategy() -> None:
    strategy = parse_strategy(" aks:50 ")
    assert (strategy.kind, strategy.count, strategy.name) == ("aks", 50, "aks:50")
    with pytest.raises(StrategyError, match="must be > 0"):
        parse_strategy("aks:0")


def test_aks_scores_one_candidate_per_second_and_picks_among_them() -> None:
    # 10 s at 3 fps: candidates 0, 3, 6, ... 27 (t = 0..9 s); the relevance peaks at t = 4 s and t = 7 s
    timestamps = np.arange(30) / 3.0
    asked: list[list[int]] = []

    def relevance(candidates: np.ndarray) -> np.ndarray:
        asked.append(candidates.tolist())
        return np.where(np.isin(candidates, [12, 21]), 1.0, 0.0)

    chosen = parse_strategy("aks:2").select(timestamps, relevance=relevance)
    assert asked == [[0, 3, 6, 9, 12, 15, 18, 21, 24, 27]]
    assert chosen.tolist() == [12, 21]  # top-2 mean 1 - mean 0.2 = 0.8 is not > 0.8: split, 1 per half


def test_aks_without_a_scorer_is_refused_with_the_option_to_give() -> None:
    with pytest.raises(StrategyError, match=r"aks:8 needs an image-text scorer model \(--aks-model PATH\)"):
        parse_strategy("aks:8").select(np.arange(10.0))
