"""Loading MMSI-Video-Bench's mmsivideo.json: items, multi-video media, placeholders, malformed samples."""

import copy

import pytest
from mmsi_remindview_fixtures import build_mmsi, mmsi_responses, mmsi_samples

from spatialbench.benchmarks import get_benchmark, load_items
from spatialbench.benchmarks.mmsi_video import input_text, load_mmsi_video
from spatialbench.benchmarks.mmsi_video.options import parse_options
from spatialbench.records.item import MediaKind
from spatialbench.scoring import score_items


@pytest.fixture()
def data_dir(tmp_path):
    return build_mmsi(tmp_path / "mmsi")


def test_loads_every_fixture_sample(data_dir):
    loaded = load_items("mmsi-video", data_dir)
    assert loaded.errors == []
    assert [i.id for i in loaded] == [f"question_{n:04d}" for n in range(14)]
    assert loaded[9].task == "(Cross-Video) Memoery Update"  # official spelling kept
    assert [len(i.options) for i in loaded] == [4, 4, 5, 4, 6, 4, 4, 4, 5, 4, 6, 4, 5, 4]
    assert loaded[10].options[5] == "F. below" and loaded[10].ground_truth == "F"


def test_multi_video_sample_interleaves_media_in_placeholder_order(data_dir):
    item = load_mmsi_video(data_dir)[10]  # View 1 <video> ... <image> ... <video> ... <image> ... <video>
    kinds = [m.kind for m in item.media]
    assert kinds == [MediaKind.FRAMES, MediaKind.IMAGE, MediaKind.FRAMES, MediaKind.IMAGE, MediaKind.FRAMES]
    assert [len(m.frames) for m in item.media if m.kind is MediaKind.FRAMES] == [2, 1, 2]
    assert item.media[1].path.endswith("ref_images/question_0010_ref_0.png")
    assert item.media[0].timestamps == (0.0, 2.0)  # from 00:00.00_frame_2_0.jpg, 00:02.00_frame_2_1.jpg
    assert item.metadata["videos"][1] == {
        "path": "src/question_0010_1.mp4",
        "start": 10.0,
        "end": 12.0,
        "base_fps": 0.5,
    }


def test_reference_image_before_the_video(data_dir):
    item = load_mmsi_video(data_dir)[11]  # "Start here: <image>\n<video>..."
    assert [m.kind for m in item.media] == [MediaKind.IMAGE, MediaKind.FRAMES]


def test_input_text_is_system_newline_task_user_format(data_dir):
    sample = mmsi_samples()[1]
    item = load_mmsi_video(data_dir)[1]
    expected = (
        sample["system_prompt"]
        + "\n"
        + sample["task_prompt"]
        + sample["user_prompt"]
        + sample["format_prompt"]
    )
    assert input_text(item) == expected
    assert "\\boxed{X}" in input_text(item)  # braces of the official text survive the template


def test_options_inline_and_missing():
    assert parse_options("Which? A. left B. right C. up") == ("A. left", "B. right", "C. up")
    assert parse_options("Which one?") == ()


def _malformed_samples():
    samples = mmsi_samples()
    missing_frame = copy.deepcopy(samples[0])
    missing_frame["id"] = "question_0100"
    missing_frame["frames_list"][0][1] = "../../outside/00:02.00_frame_2_1.jpg"  # leaves frames/
    extra_video = copy.deepcopy(samples[3])
    extra_video["id"] = "question_0101"
    extra_video["user_prompt"] = "<video>\nAnd again <video>\n" + extra_video["user_prompt"].split("\n", 1)[1]
    missing_image = copy.deepcopy(samples[1])
    missing_image["id"] = "question_0102"
    missing_image["user_prompt"] = missing_image["user_prompt"].replace(" <image>", "")
    bad_truth = copy.deepcopy(samples[2])
    bad_truth["id"] = "question_0103"
    bad_truth["ground_truth"] = "F"  # five options
    return samples[:5] + [missing_frame, extra_video, missing_image, bad_truth] + samples[5:]


def test_malformed_samples_are_reported_and_the_rest_still_runs(tmp_path):
    data_dir = build_mmsi(tmp_path / "mmsi", _malformed_samples())
    loaded = load_mmsi_video(data_dir)
    assert len(loaded) == 14
    messages = [str(e) for e in loaded.errors]
    assert [(e.field, e.message.split(":")[0]) for e in loaded.errors] == [
        ("frames_list[0][1]", "sample 'question_0100'"),
        ("user_prompt", "sample 'question_0101'"),
        ("user_prompt", "sample 'question_0102'"),
        ("ground_truth", "sample 'question_0103'"),
    ]
    assert "path '../../outside/00:02.00_frame_2_1.jpg' leaves the frames/ folder" in messages[0]
    assert "2 <video> placeholder(s) but 1 videos" in messages[1]
    assert "0 <image> placeholder(s) but 1 images" in messages[2]
    assert all(m.startswith(str(data_dir / "mmsivideo.json")) for m in messages)
    result = score_items(loaded, mmsi_responses(), get_benchmark("mmsi-video").scoring, extract="robust")
    assert len(result.rows) == 14 and result.missing_predictions == []


def test_broken_json_names_the_line(tmp_path):
    (tmp_path / "mmsivideo.json").write_text('[\n{"id": "question_0000",\n')
    with pytest.raises(ValueError, match=r"mmsivideo.json: invalid JSON at line 3"):
        load_mmsi_video(tmp_path)


def test_duplicate_id_keeps_the_first(tmp_path):
    samples = mmsi_samples()
    data_dir = build_mmsi(tmp_path / "mmsi", samples + [copy.deepcopy(samples[2])])
    loaded = load_mmsi_video(data_dir)
    annotations = data_dir / "mmsivideo.json"
    assert len(loaded) == 14 and [str(e) for e in loaded.errors] == [
        f"{annotations}: entry 15: field 'id': duplicate id 'question_0002' (first at {annotations}: entry 3)"
    ]


def test_missing_media_files_do_not_stop_loading_or_scoring(data_dir):
    """Scoring needs no media: frames and reference images may be absent (a run checks them first)."""
    for path in [*(data_dir / "frames").rglob("*.jpg"), *(data_dir / "ref_images").rglob("*.png")]:
        path.unlink()
    loaded = load_mmsi_video(data_dir)
    assert len(loaded) == 14 and loaded.errors == []
    result = score_items(loaded, mmsi_responses(), get_benchmark("mmsi-video").scoring, extract="robust")
    assert len(result.rows) == 14 and result.missing_predictions == []
