"""Messages for media the strategy cannot use: past the end, more frames than there are, empty files."""

import logging
from pathlib import Path

import pytest

from spatialbench.media import FrameCache, MediaError, parse_strategy, sample_video
from spatialbench.records.item import MediaKind, MediaRef
from support.videos import encode_indexed_video


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return encode_indexed_video(tmp_path_factory.mktemp("v") / "v.mp4", 30, 64, 48)  # 30 frames, 30 fps


def test_consecutive_past_the_end_says_how_long_the_video_is(video: Path) -> None:
    with pytest.raises(MediaError, match=r"the video has only 30 frames \(1.0 s\)"):
        sample_video(str(video), parse_strategy("consecutive:5@999999"))
    with pytest.raises(MediaError, match=r"the video has only 30 frames \(1.0 s\)"):
        sample_video(str(video), parse_strategy("consecutive:5@50s"))


def test_zero_length_file_says_empty(tmp_path: Path) -> None:
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    with pytest.raises(MediaError, match=r"empty file \(0 bytes\)"):
        sample_video(str(empty), parse_strategy("uniform:4"))


def test_uniform_beyond_the_frame_count_warns_once(video: Path, caplog) -> None:
    cache = FrameCache(video.parent)
    strategy = parse_strategy("uniform:100000")
    with caplog.at_level(logging.WARNING, logger="spatialbench.media.cache"):
        first = cache.get(MediaRef(kind=MediaKind.VIDEO, path=video.name), strategy)
        cache.get(MediaRef(kind=MediaKind.VIDEO, path=video.name, start=0.0), strategy)
    assert len(first.indices) == 30
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "uniform:100000 asks for more frames than" in warnings[0]
    assert "30 frames" in warnings[0]


def test_a_still_image_is_not_short_of_frames(tmp_path: Path, caplog) -> None:
    """A run mixing images and videos (SITE) under uniform:32 said the images were short of frames."""
    from PIL import Image

    Image.new("RGB", (8, 8)).save(tmp_path / "still.png")
    with caplog.at_level(logging.WARNING, logger="spatialbench.media.cache"):
        still = MediaRef(kind=MediaKind.IMAGE, path="still.png")
        FrameCache(tmp_path).get(still, parse_strategy("uniform:32"))
    assert not [r for r in caplog.records if r.levelno == logging.WARNING]
