"""Load MMSI-Video-Bench's official ``mmsivideo.json`` into :class:`~spatialbench.records.item.Item`.

The folder a user downloads from Hugging Face (``rbler/MMSI-Video-Bench``) and the official GitHub
repository (``meta_data/``)::

    DIR/
      mmsivideo.json      # list of samples (fields below)
      frames/             # annotation frames, named {mm:ss.ff}_frame_{base_interval}_{index}.jpg
      ref_images/         # reference images of the <image> placeholders
      meta_data/          # sub-benchmark id lists (robot, indoor perception, grounding, easy2hard)
      videos/             # optional; not needed (both settings sample from frames/)

A sample has ``id`` (``question_0000``…), ``type`` (subtype name, official spelling kept, e.g.
``(Cross-Video) Memoery Update``), ``video_list`` (``path``, ``start``, ``end`` in seconds, ``base_fps``),
``frames_list`` (one list of frame files per video), ``ref_images``, ``system_prompt``, ``task_prompt``,
``user_prompt`` (``<video>`` and ``<image>`` placeholders in order), ``format_prompt`` and ``ground_truth``
(a letter A–F). A malformed sample is skipped and reported in ``LoadedItems.errors``, naming its id and field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.mmsi_video.frames import apply_setting, frame_budget, frame_timestamp
from spatialbench.benchmarks.mmsi_video.options import OPTION_LETTERS, parse_options
from spatialbench.records.errors import MalformedSampleError, unreadable
from spatialbench.records.files import NotUtf8Error, read_text
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef
from spatialbench.records.rows import LoadedItems

BENCHMARK_NAME = "mmsi-video"
ANNOTATION_FILE = "mmsivideo.json"
PROMPT_FIELDS = ("system_prompt", "task_prompt", "user_prompt", "format_prompt")
VIDEO_PLACEHOLDER = "<video>"
IMAGE_PLACEHOLDER = "<image>"


def load_mmsi_video(data_dir: Path | str, setting: str | None = None) -> LoadedItems:
    """Load every sample of ``DIR/mmsivideo.json``; malformed samples are reported, not raised.

    Args:
        data_dir: the downloaded folder (layout in the module docstring), or its ``mmsivideo.json``.
        setting: ``uniform-50`` or ``sufficient-coverage`` (Sec. 4.1) to cut each item's frame lists to the
            frames that setting shows (:func:`~spatialbench.benchmarks.mmsi_video.frames.apply_setting`; a run
            then samples them with strategy ``all``); None keeps every annotation frame.

    Returns:
        The items in file order (media paths absolute); ``.errors`` holds one RowError per skipped sample,
        naming the file, the field and the sample id.

    Raises:
        FileNotFoundError: ``mmsivideo.json`` is missing.
        ValueError: the file is not a list of objects; an unknown setting. AnnotationFileError (a
            ValueError): the file is not UTF-8, empty or not JSON (one line naming file and line).
    """
    if setting is not None:
        frame_budget(setting)  # an unknown setting fails before any file is read
    root = Path(data_dir).resolve()
    if root.is_file():
        root = root.parent
    annotations = root / ANNOTATION_FILE
    loaded, seen = LoadedItems(), set()
    for index, sample in enumerate(_read_annotations(annotations)):
        try:
            item = sample_to_item(sample, root, index)
            if item.id in seen:
                raise MalformedSampleError(item.id, "id", f"duplicate id (sample #{index}); first kept")
            seen.add(item.id)
            loaded.append(apply_setting(item, setting) if setting is not None else item)
        except MalformedSampleError as error:
            loaded.errors.append(error.row_error(str(annotations)))
    return loaded


def _read_annotations(path: Path) -> list[Any]:
    if not path.is_file():
        raise FileNotFoundError(f"MMSI-Video-Bench annotation file not found: {path}")
    try:
        data = json.loads(read_text(path))  # a byte-order mark is dropped
    except NotUtf8Error as error:  # the annotation-file wording, naming the line of the first bad byte
        raise unreadable(path, error.decode_error or error) from None
    except (ValueError, OSError) as error:  # not UTF-8, empty or truncated JSON: one line naming the file
        raise unreadable(path, error) from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of samples, got {type(data).__name__}")
    return data


def sample_to_item(sample: Any, root: Path, index: int) -> Item:
    """One official sample as an Item, checking its media paths and placeholders.

    Raises:
        MalformedSampleError: a field is missing or wrong, a media path is absolute or leaves its folder,
            or the placeholder counts do not match ``video_list`` / ``frames_list`` / ``ref_images``.
    """
    sample_id = _sample_id(sample, index)
    prompts = {name: _text(sample, sample_id, name) for name in PROMPT_FIELDS}
    videos = _videos(sample, sample_id, root)
    images = _ref_images(sample, sample_id, root)
    _check_placeholders(sample_id, prompts, len(videos), len(images))
    options = _options(sample_id, prompts["user_prompt"])
    truth = _ground_truth(sample, sample_id, len(options))
    return Item(
        id=sample_id,
        benchmark=BENCHMARK_NAME,
        task=_text(sample, sample_id, "type"),
        question=prompts["user_prompt"],
        options=options,
        ground_truth=truth,
        answer_kind=AnswerKind.MULTIPLE_CHOICE,
        media=_interleave(prompts, videos, images),
        metadata={
            **prompts,
            "n_options": len(options),
            "videos": [_segment(v) for v in sample["video_list"]],
        },
    )


def _sample_id(sample: Any, index: int) -> str:
    if not isinstance(sample, Mapping):
        raise MalformedSampleError(
            f"#{index}", "(sample)", f"expected a JSON object, got {type(sample).__name__}"
        )
    value = sample.get("id")
    if not isinstance(value, str) or not value:
        raise MalformedSampleError(f"#{index}", "id", "missing or not a string")
    return value


def _text(sample: Mapping[str, Any], sample_id: str, field: str) -> str:
    value = sample.get(field)
    if not isinstance(value, str):
        raise MalformedSampleError(sample_id, field, "missing or not a string")
    return value


def _list(sample: Mapping[str, Any], sample_id: str, field: str) -> list[Any]:
    value = sample.get(field)
    if not isinstance(value, list):
        raise MalformedSampleError(sample_id, field, "missing or not a list")
    return value


def _videos(sample: Mapping[str, Any], sample_id: str, root: Path) -> list[MediaRef]:
    videos = _list(sample, sample_id, "video_list")
    frame_lists = _list(sample, sample_id, "frames_list")
    if not videos or len(videos) != len(frame_lists):
        raise MalformedSampleError(
            sample_id, "frames_list", f"{len(frame_lists)} frame lists for {len(videos)} videos in video_list"
        )
    return [
        _video(sample_id, root, v, video, frames)
        for v, (video, frames) in enumerate(zip(videos, frame_lists, strict=True))
    ]


def _video(sample_id: str, root: Path, v: int, video: Any, frames: Any) -> MediaRef:
    field = f"video_list[{v}]"
    if not isinstance(video, Mapping) or not all(k in video for k in ("path", "start", "end", "base_fps")):
        raise MalformedSampleError(sample_id, field, "needs path, start, end and base_fps")
    _check_segment(sample_id, field, video)
    if not isinstance(frames, list) or not frames or not all(isinstance(f, str) for f in frames):
        raise MalformedSampleError(
            sample_id, f"frames_list[{v}]", "expected a non-empty list of frame file names"
        )
    frames_dir = root / "frames"
    for k, name in enumerate(frames):
        _check_inside(sample_id, f"frames_list[{v}][{k}]", frames_dir, name)
    stamps = [frame_timestamp(name) for name in frames]
    return MediaRef(
        kind=MediaKind.FRAMES,
        path=str(frames_dir),
        frames=tuple(frames),
        timestamps=tuple(s for s in stamps if s is not None) if None not in stamps else (),
        name=str(video["path"]),
    )


def _check_segment(sample_id: str, field: str, video: Mapping[str, Any]) -> None:
    """``start`` <= ``end`` (finite seconds, >= 0) and ``base_fps`` > 0, each named in the error."""
    for key in ("start", "end", "base_fps"):
        value = video[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise MalformedSampleError(
                sample_id, f"{field}.{key}", f"must be a finite number (seconds, frames/s), got {value!r}"
            )
    if video["start"] < 0:
        raise MalformedSampleError(sample_id, f"{field}.start", f"negative start {video['start']!r}")
    if video["start"] > video["end"]:
        raise MalformedSampleError(
            sample_id, f"{field}.end", f"end {video['end']!r} is before start {video['start']!r}"
        )
    if video["base_fps"] <= 0:
        raise MalformedSampleError(sample_id, f"{field}.base_fps", f"must be > 0, got {video['base_fps']!r}")


def _check_inside(sample_id: str, field: str, folder: Path, name: str) -> None:
    """Check that ``name`` stays inside ``folder`` (not absolute, no ``..`` out of it).

    Whether the file exists is not checked here: scoring needs no media, and a run checks every media
    file before it sends anything (:mod:`spatialbench.runs.preflight`).
    """
    if not (folder / name).resolve().is_relative_to(folder.resolve()):
        raise MalformedSampleError(sample_id, field, f"path {name!r} leaves the {folder.name}/ folder")


def _segment(video: Mapping[str, Any]) -> dict[str, Any]:
    """Keep the video segment a question uses in metadata.

    The frame lists already are that segment, so the media references carry no start/end (a sampler would
    otherwise cut the frames a second time).
    """
    return {
        "path": str(video["path"]),
        "start": float(video["start"]),
        "end": float(video["end"]),
        "base_fps": float(video["base_fps"]),
    }


def _ref_images(sample: Mapping[str, Any], sample_id: str, root: Path) -> list[MediaRef]:
    images = _list(sample, sample_id, "ref_images")
    refs = []
    for k, name in enumerate(images):
        path = root / "ref_images" / str(name)
        if not isinstance(name, str):
            raise MalformedSampleError(sample_id, f"ref_images[{k}]", f"expected a file name, got {name!r}")
        _check_inside(sample_id, f"ref_images[{k}]", root / "ref_images", name)
        refs.append(MediaRef(kind=MediaKind.IMAGE, path=str(path), name=name))
    return refs


def _check_placeholders(sample_id: str, prompts: Mapping[str, str], n_videos: int, n_images: int) -> None:
    text = "".join(prompts.values())
    for placeholder, expected, media in (
        (VIDEO_PLACEHOLDER, n_videos, "videos in video_list/frames_list"),
        (IMAGE_PLACEHOLDER, n_images, "images in ref_images"),
    ):
        found = text.count(placeholder)
        if found != expected:
            raise MalformedSampleError(
                sample_id, "user_prompt", f"{found} {placeholder} placeholder(s) but {expected} {media}"
            )


def _options(sample_id: str, user_prompt: str) -> tuple[str, ...]:
    options = parse_options(user_prompt)
    if not options:
        raise MalformedSampleError(sample_id, "user_prompt", "no lettered options (A. ..., B. ...) found")
    return options


def _ground_truth(sample: Mapping[str, Any], sample_id: str, n_options: int) -> str:
    truth = _text(sample, sample_id, "ground_truth").strip()
    if truth not in OPTION_LETTERS[:n_options]:
        raise MalformedSampleError(
            sample_id, "ground_truth", f"{truth!r} is not one of the {n_options} option letters"
        )
    return truth


def _interleave(
    prompts: Mapping[str, str], videos: list[MediaRef], images: list[MediaRef]
) -> tuple[MediaRef, ...]:
    """Media in the order their placeholders stand in the assembled prompt."""
    text = "".join(prompts[name] for name in PROMPT_FIELDS)
    video_iter, image_iter = iter(videos), iter(images)
    order: list[MediaRef] = []
    position = 0
    while True:
        v, i = text.find(VIDEO_PLACEHOLDER, position), text.find(IMAGE_PLACEHOLDER, position)
        if v < 0 and i < 0:
            return tuple(order)
        if i < 0 or 0 <= v < i:
            order.append(next(video_iter))
            position = v + len(VIDEO_PLACEHOLDER)
        else:
            order.append(next(image_iter))
            position = i + len(IMAGE_PLACEHOLDER)
