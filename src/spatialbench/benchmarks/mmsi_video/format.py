"""MMSI-Video-Bench's file format: one sample of ``mmsivideo.json`` ⇄ :class:`spatialbench.records.item.Item`.

A sample has ``id`` (``question_0000``…), ``type`` (subtype name, official spelling kept, e.g.
``(Cross-Video) Memoery Update``), ``video_list`` (``path``, ``start``, ``end`` in seconds, ``base_fps``),
``frames_list`` (one list of frame files per video, in ``DIR/frames/``), ``ref_images`` (files in
``DIR/ref_images/``), ``system_prompt``, ``task_prompt``, ``user_prompt`` (``<video>`` and ``<image>``
placeholders in order), ``format_prompt`` and ``ground_truth`` (a letter A–F).

Reading: :func:`sample_to_item` (the loader, :mod:`~spatialbench.benchmarks.mmsi_video.loader`, reads the
file). Writing: :func:`item_to_sample` and :func:`write_items` (``DIR/mmsivideo.json``, which the loader
reads back; the media stay where the items point).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from spatialbench.benchmarks.mmsi_video.frames import frame_timestamp
from spatialbench.benchmarks.mmsi_video.options import OPTION_LETTERS, parse_options
from spatialbench.records.errors import MalformedSampleError
from spatialbench.records.item import AnswerKind, Item, MediaKind, MediaRef

BENCHMARK_NAME = "mmsi-video"
ANNOTATION_FILE = "mmsivideo.json"
PROMPT_FIELDS = ("system_prompt", "task_prompt", "user_prompt", "format_prompt")
VIDEO_PLACEHOLDER = "<video>"
IMAGE_PLACEHOLDER = "<image>"


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


def item_to_sample(item: Item) -> dict[str, Any]:
    """Return the official sample of an item read by :func:`sample_to_item` (official field order).

    Frame lists, reference images and video segments come from the item's media and ``metadata``; a
    frame setting applied when loading (``setting=``) leaves only its frames in ``frames_list``.

    Raises:
        KeyError: the item lacks the metadata of a loaded sample (``videos`` or a prompt field).
    """
    meta = item.metadata
    return {
        "id": item.id,
        "type": item.task,
        "video_list": [dict(video) for video in meta["videos"]],
        "frames_list": [list(ref.frames) for ref in item.media if ref.kind is MediaKind.FRAMES],
        "ref_images": [ref.name for ref in item.media if ref.kind is MediaKind.IMAGE],
        **{name: meta[name] for name in PROMPT_FIELDS},
        "ground_truth": item.ground_truth,
    }


def write_items(items: Sequence[Item], folder: Path) -> list[Path]:
    """Write ``folder/mmsivideo.json`` (created with its folder, UTF-8, indented); return its path.

    The loader reads it back with the media in ``folder/frames/`` and ``folder/ref_images/``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ANNOTATION_FILE
    text = json.dumps([item_to_sample(item) for item in items], indent=2, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
    return [path]
