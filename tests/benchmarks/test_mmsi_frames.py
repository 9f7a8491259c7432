"""MMSI-Video-Bench frame settings and the proportional multi-video allocation (official loader rule)."""

import pytest

from spatialbench.benchmarks.mmsi_video.frames import (
    allocate_frames,
    consecutive_frames,
    even_indices,
    format_timestamp,
    frame_budget,
    frame_timestamp,
    question_setting,
)


def test_short_segment_between_long_ones_keeps_one_frame():
    # 403 frames, budget 10: indices int(i * 402 / 9) = 0, 44, 89, 134, 178 | 223, 268, 312, 357, 402.
    chosen = allocate_frames([200, 3, 200], 10)
    assert [len(c) for c in chosen] == [5, 1, 5]
    assert chosen == [[0, 44, 89, 134, 178], [0], [20, 65, 109, 154, 199]]


def test_a_single_even_spread_alone_would_drop_the_short_segment():
    spread = even_indices(403, 10)
    assert not [k for k in spread if 200 <= k < 203]  # hence the official rescue of index 0


def test_all_frames_kept_when_within_budget():
    assert allocate_frames([3, 2], 50) == [[0, 1, 2], [0, 1]]


def test_uniform_50_on_one_long_video_matches_official_float_rounding():
    (chosen,) = allocate_frames([120], 50)
    assert len(chosen) == 50 and chosen[0] == 0
    assert chosen[1] == 2  # int(1 * 119 / 49) = int(2.43)
    # 49 * (119 / 49) is 118.99999999999999 in floating point, so the official rule stops at frame 118.
    assert chosen[-1] == 118


def test_videos_proportional_to_their_lengths():
    # 100 + 300 frames, budget 40: 10 and 30 (indices int(i * 399 / 39) split at 100).
    assert [len(c) for c in allocate_frames([100, 300], 40)] == [10, 30]


@pytest.mark.parametrize(
    ("setting", "budget"),
    [
        ("uniform-50", 50),
        ("sufficient-coverage", 300),
        ("uniform-8", 8),
        ("Sufficient-Coverage", 300),  # the paper's spelling
        ("sufficient_coverage", 300),
        ("Uniform-50", 50),
    ],
)
def test_frame_budgets(setting, budget):
    assert frame_budget(setting) == budget


def test_unknown_setting_names_the_known_ones():
    with pytest.raises(ValueError, match="uniform-50, sufficient-coverage"):
        frame_budget("uniform")


def test_bad_allocation_inputs_raise():
    with pytest.raises(ValueError, match="at least one frame"):
        allocate_frames([3, 0], 10)
    with pytest.raises(ValueError, match="budget"):
        allocate_frames([3], 0)


def test_timestamps_from_official_frame_names():
    assert frame_timestamp("question_0001/video_0/01:05.50_frame_2_131.jpg") == 65.5
    assert frame_timestamp("frame_0001.jpg") is None
    assert format_timestamp(65.5) == "01:05.50"


def test_consecutive_segment_is_one_per_question_over_the_joined_videos():
    # Sec. 5 / Fig. 5: "consecutive frames from a local segment". Videos of 2, 1 and 2 frames joined are
    # frames 0..4; 2 from frame 1 are joined frames 1 and 2: video 0 frame 1, video 1 frame 0; video 2 is
    # missed and keeps its first frame (the official rescue rule).
    assert consecutive_frames([2, 1, 2], 2, 1) == [[1], [0], [0]]
    assert consecutive_frames([120], 10, 30) == [list(range(30, 40))]
    # a start too late for 10 frames is moved back: the last 10 of 12; fewer frames than N: all of them
    assert consecutive_frames([6, 6], 10, 7) == [[2, 3, 4, 5], [0, 1, 2, 3, 4, 5]]
    assert consecutive_frames([3], 50, 0) == [[0, 1, 2]]
    with pytest.raises(ValueError, match="count >= 1"):
        consecutive_frames([3], 0, 0)


def test_frames_consecutive_stands_for_the_per_question_setting():
    assert question_setting("consecutive:10@0") == "consecutive-10@0"
    assert question_setting("uniform:8") is None and question_setting("nonsense") is None
    assert frame_budget("consecutive-10@0") == 10
    with pytest.raises(ValueError, match="give the start as a frame index"):
        question_setting("consecutive:8@2.5s")
