from pathlib import Path

import numpy as np
import pytest

from spatialbench.media import FrameCache, MediaError, parse_strategy, sample_video
from spatialbench.media.frames import sample_frame_folder
from spatialbench.records.item import MediaKind, MediaRef
from support.videos import encode_indexed_video, indexed_frame, read_index


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # keyframes every 12 frames, so that seeks land on a keyframe before the wanted frame
    return encode_indexed_video(tmp_path_factory.mktemp("v") / "v.mp4", 90, 128, 96, gop=12)


def _identities(frames) -> list[int]:
    return [read_index(p) for p in frames.pixels]


def test_uniform_frames_are_exactly_the_indexed_frames(video: Path) -> None:
    frames = sample_video(str(video), parse_strategy("uniform:8"))
    expected = np.linspace(0, 89, 8, dtype=int).tolist()
    assert frames.indices.tolist() == expected and _identities(frames) == expected
    assert frames.timestamps.tolist() == pytest.approx([i / 30 for i in expected])


def test_consecutive_and_fps_and_segment_pick_exact_frames(video: Path) -> None:
    assert _identities(sample_video(str(video), parse_strategy("consecutive:5@41"))) == [41, 42, 43, 44, 45]
    assert _identities(sample_video(str(video), parse_strategy("fps:2"))) == list(range(0, 90, 15))
    segment = sample_video(str(video), parse_strategy("uniform:3"), start=1.0, end=2.0)
    assert _identities(segment) == [30, 45, 60]


def test_seeking_and_straight_through_decode_give_the_same_frames(video: Path) -> None:
    from spatialbench.media.video import decode_indices, probe_pts

    pts, _ = probe_pts(str(video))
    wanted = np.array([61, 62, 77, 89])
    seeking = decode_indices(str(video), wanted, pts)
    straight = decode_indices(str(video), wanted)
    assert [read_index(p) for p in seeking] == [read_index(p) for p in straight] == wanted.tolist()


def test_unwanted_non_reference_frames_are_not_decoded_and_wanted_ones_are_the_same_bytes(
    video: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import av

    import spatialbench.media.video as media_video

    with av.open(str(video)) as container:  # every frame, plainly decoded
        plain = [f.to_ndarray(format="rgb24") for f in container.decode(container.streams.video[0])]
    decoded: list[int] = []
    real = media_video._decoded

    def counted(*args):  # type: ignore[no-untyped-def]
        for frame in real(*args):
            decoded.append(1)
            yield frame

    monkeypatch.setattr(media_video, "_decoded", counted)
    pts, _ = media_video.probe_pts(str(video))
    wanted = np.array([0, 1, 13, 44, 45, 88, 89])
    frames = media_video.decode_indices(str(video), wanted, pts)
    assert all(np.array_equal(f, plain[i]) for f, i in zip(frames, wanted, strict=True))
    assert [read_index(p) for p in frames] == wanted.tolist()
    assert len(decoded) < 90  # B-frames (bf=2) nobody asked for were skipped


def test_resize_by_max_pixels_keeps_aspect(video: Path) -> None:
    frames = sample_video(str(video), parse_strategy("uniform:2"), max_pixels=64 * 48)
    assert frames.pixels[0].shape == (48, 64, 3)
    assert [read_index(p, scale=0.5) for p in frames.pixels] == [0, 89]


def test_missing_corrupt_zero_length_and_rotated_videos_raise_media_error(tmp_path: Path) -> None:
    strategy = parse_strategy("uniform:4")
    corrupt = tmp_path / "corrupt.mp4"
    corrupt.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 8)
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    rotated = encode_indexed_video(tmp_path / "rotated.mp4", 4, 128, 96, rotation=90)
    cases = {
        tmp_path / "missing.mp4": "not found",
        corrupt: "cannot open|corrupt",
        empty: r"empty file \(0 bytes\)",
        rotated: "rotated by",
    }
    for path, reason in cases.items():
        with pytest.raises(MediaError, match=reason) as info:
            sample_video(str(path), strategy)
        assert str(path) in str(info.value)


def test_frame_folder_with_timestamps(tmp_path: Path) -> None:
    from PIL import Image

    names = tuple(f"f{i:03d}.png" for i in range(10))
    for i, name in enumerate(names):
        Image.fromarray(indexed_frame(i, 96, 64)).save(tmp_path / name)
    times = tuple(0.5 * i for i in range(10))  # 2 fps
    frames = sample_frame_folder(str(tmp_path), names, times, parse_strategy("fps:1"))
    assert _identities(frames) == [0, 2, 4, 6, 8] and frames.timestamps.tolist() == [0, 1, 2, 3, 4]
    untimed = sample_frame_folder(str(tmp_path), names, (), parse_strategy("uniform:3"))
    assert _identities(untimed) == [0, 4, 9]
    with pytest.raises(MediaError, match="needs frame timestamps"):
        sample_frame_folder(str(tmp_path), names, (), parse_strategy("fps:1"))
    (tmp_path / "f009.png").unlink()
    with pytest.raises(MediaError, match="f009.png: image file not found"):
        sample_frame_folder(str(tmp_path), names, (), parse_strategy("all"))


def test_cache_decodes_once_per_key_and_caches_errors(video: Path, tmp_path: Path) -> None:
    cache = FrameCache(root=video.parent)
    ref = MediaRef(kind=MediaKind.VIDEO, path=video.name)
    first = cache.get(ref, parse_strategy("uniform:4"))
    assert cache.get(ref, parse_strategy("uniform:4")) is first
    cache.get(ref, parse_strategy("uniform:4"), max_pixels=64 * 48)  # another size: another decode
    assert cache.decodes[str(video)] == 2
    missing = MediaRef(kind=MediaKind.VIDEO, path=str(tmp_path / "nope.mp4"))
    for _ in range(3):
        with pytest.raises(MediaError, match="not found"):
            cache.get(missing, parse_strategy("uniform:4"))
    assert cache.decodes[str(tmp_path / "nope.mp4")] == 1
