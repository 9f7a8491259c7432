"""MMSI-Video-Bench requests: frames and reference images where the placeholders stand, settings applied."""

import pytest
from mmsi_remindview_fixtures import build_mmsi, decode_colour

from spatialbench.benchmarks import get_benchmark
from spatialbench.benchmarks.mmsi_video import apply_setting, build_request, load_mmsi_video
from spatialbench.media.cache import load_media
from spatialbench.media.errors import MediaError
from spatialbench.media.sampling import parse_strategy
from spatialbench.prompting.config import PromptConfig
from spatialbench.records.messages import ImagePart, TextPart


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    return load_mmsi_video(build_mmsi(tmp_path_factory.mktemp("mmsi") / "data"))


def _layout(request):
    """'T' for text, (video, frame) for a video frame, 'R' for a reference image (red channel 250)."""
    out = []
    for part in request.parts:
        if isinstance(part, TextPart):
            out.append("T")
        elif part.pixels[..., 0].mean() > 240:
            out.append("R")
        else:
            out.append(decode_colour(part.pixels))
    return out


def test_three_videos_and_two_reference_images_interleaved(items):
    request = build_request(items[10], "sufficient-coverage")
    assert _layout(request) == [
        "T",
        (0, 0),
        (0, 1),
        "T",
        "R",
        "T",
        (1, 0),
        "T",
        "R",
        "T",
        (2, 0),
        (2, 1),
        "T",
    ]
    first = request.parts[0].text
    assert first.startswith("You are a spatial reasoning expert.") and first.endswith("View 1: ")
    assert request.parts[3].text == "\nThe red mug "
    assert request.parts[-1].text.endswith(
        "F. below\nAnswer with the option's letter in the format \\boxed{X}."
    )
    assert request.system is None  # the official input is one user text


def test_uniform_budget_is_shared_proportionally_between_videos(items):
    # 3 + 2 frames, budget 4: int(i * 4 / 3) = 0, 1, 2, 4 -> video 0 frames 0, 1, 2 and video 1 frame 1.
    request = build_request(items[9], "uniform-4")
    frames = [p for p in _layout(request) if p not in ("T", "R")]
    assert frames == [(0, 0), (0, 1), (0, 2), (1, 1)]


def test_apply_setting_narrows_frames_and_timestamps(items):
    narrowed = apply_setting(items[9], "uniform-4")
    assert narrowed.media[1].frames == ("question_0009/video_1/00:02.00_frame_2_1.jpg",)
    assert narrowed.media[1].timestamps == (2.0,)
    assert narrowed.metadata["setting"] == "uniform-4"
    assert apply_setting(items[9], "uniform-50").media == items[9].media  # 5 frames: all kept


def test_frame_labels_carry_timestamps_on_request(items):
    request = build_request(items[0], "uniform-50", label_frames=True)
    labels = [p.label for p in request.parts if isinstance(p, ImagePart)]
    assert labels == ["00:00.00", "00:02.00", "00:04.00"]


def test_registered_prompt_builder_and_blind_mode(items):
    narrowed = apply_setting(items[11], "uniform-50")
    reference = build_request(items[11], "uniform-50")
    builder = get_benchmark("mmsi-video").prompt_builder(PromptConfig())
    media = [load_media(ref, None, parse_strategy("all"), None) for ref in narrowed.media]
    assert (
        _layout(builder.build(narrowed, media)) == _layout(reference) == ["T", "R", "T", (0, 0), (0, 1), "T"]
    )
    blind = get_benchmark("mmsi-video").prompt_builder(PromptConfig(blind=True)).build(narrowed, [])
    assert blind.n_images == 0
    assert "<video>" not in "".join(p.text for p in blind.parts) and "<image>" not in blind.parts[0].text


def test_builder_refuses_frames_resampled_by_another_strategy(items):
    narrowed = apply_setting(items[6], "uniform-50")  # 4 frames chosen
    media = [load_media(ref, None, parse_strategy("uniform:2"), None) for ref in narrowed.media]
    with pytest.raises(
        MediaError, match="setting uniform-50 chose 4 frames but the run sampled 2; run .* --frames all"
    ):
        get_benchmark("mmsi-video").prompt_builder(PromptConfig()).build(narrowed, media)


def test_timestamp_labels_through_the_prompt_override(items):
    narrowed = apply_setting(items[0], "uniform-50")
    media = [load_media(ref, None, parse_strategy("all"), None) for ref in narrowed.media]
    config = PromptConfig(overrides={"frame_labels": "timestamp"})
    request = get_benchmark("mmsi-video").prompt_builder(config).build(narrowed, media)
    assert [p.label for p in request.parts if isinstance(p, ImagePart)] == [
        "00:00.00",
        "00:02.00",
        "00:04.00",
    ]
    with pytest.raises(ValueError, match="frame_labels must be 'none' or 'timestamp'"):
        get_benchmark("mmsi-video").prompt_builder(PromptConfig(overrides={"frame_labels": "yes"})).build(
            narrowed, media
        )
