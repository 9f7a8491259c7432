"""MMSI-Video-Bench frame settings and the multi-video proportional frame allocation.

Both settings (MMSI-Video-Bench Sec. 4.1) choose among the annotation frames of ``frames_list``:

* ``uniform-50``: at most 50 frames, spread uniformly over all of a question's videos;
* ``sufficient-coverage``: all annotation frames, at most 300 (the official ``MAX_LENGTH``).

The allocation is the official loader's rule: one even spread of ``budget`` indices over the concatenated
frames of all videos (index ``int(i * (N - 1) / (budget - 1))``), each index going to the video it falls in;
a video that receives none keeps its first frame. A short video is therefore never dropped, and the total can
exceed the budget by the number of videos rescued this way (200, 3 and 200 frames with a budget of 10 give 5,
1 and 5 frames).

The frame-sampling study of Sec. 5 / Fig. 5 compares those with "consecutive frames from a local segment":
setting ``consecutive-N@S`` (what ``--frames consecutive:N@S`` becomes for this benchmark) takes N frames per
question, one run of consecutive annotation frames of the question's videos played one after another, from
frame S of that sequence (:func:`consecutive_frames`; the paper names no start, so S is the user's). A video
the segment misses keeps its first frame, by the same rule as above, so every ``<video>`` still shows one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from pathlib import PurePosixPath

from spatialbench.media.sampling import parse_strategy
from spatialbench.records.item import Item, MediaKind, MediaRef

#: the Sufficient-Coverage cap on the number of frames (official ``MAX_LENGTH``)
SUFFICIENT_COVERAGE_MAX_FRAMES = 300

_UNIFORM = re.compile(r"^uniform-(\d+)$")
_CONSECUTIVE = re.compile(r"^consecutive-(\d+)@(\d+)$")
# official frame file names: "{mm:ss.ff}_frame_{base_interval}_{index}.<ext>"
_FRAME_NAME = re.compile(r"^(\d+):(\d+(?:\.\d+)?)_frame_")


class FrameSetting(StrEnum):
    """The two evaluation tracks of MMSI-Video-Bench (Sec. 4.1)."""

    UNIFORM_50 = "uniform-50"
    SUFFICIENT_COVERAGE = "sufficient-coverage"


def frame_budget(setting: str) -> int:
    """Return a setting's frame budget: ``uniform-N``, ``consecutive-N@S``: N; ``sufficient-coverage``: 300.

    Case and ``_`` / ``-`` do not matter (``Sufficient-Coverage``, ``sufficient_coverage``, ``Uniform-50``).

    Raises:
        ValueError: an unknown setting name, or a value that is not text (the message lists the known ones).
    """
    known = ", ".join(s.value for s in FrameSetting)
    if not isinstance(setting, str):  # a run file's `setting: 50`
        raise ValueError(f"a frame setting is a name ({known} or uniform-N), not {setting!r}")
    key = setting.strip().lower().replace("_", "-")
    if key == FrameSetting.SUFFICIENT_COVERAGE.value:
        return SUFFICIENT_COVERAGE_MAX_FRAMES
    match = _UNIFORM.match(key) or _CONSECUTIVE.match(key)
    if match and int(match.group(1)) > 0:
        return int(match.group(1))
    raise ValueError(
        f"unknown MMSI-Video-Bench frame setting {setting!r}; known: {known} (or uniform-N, consecutive-N@S)"
    )


def question_setting(frames: str) -> str | None:
    """Return the setting a run's ``--frames`` stands for: ``consecutive:N@S`` → ``consecutive-N@S``.

    A consecutive segment is taken per question (Sec. 5, Fig. 5), not per video; any other strategy (or a
    name that does not parse, reported by the run's own check) gives None.

    Raises:
        ValueError: a start in seconds (``consecutive:8@2.5s``): the question's videos share no clock.
    """
    try:
        strategy = parse_strategy(frames)
    except ValueError:
        return None
    if strategy.kind != "consecutive":
        return None
    if strategy.start_s is not None:
        raise ValueError("MMSI-Video-Bench takes a segment per question over its videos, which share no "
                         "clock: give the start as a frame index (consecutive:N@S)")
    return f"consecutive-{strategy.count}@{strategy.start_index or 0}"


def even_indices(total: int, count: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)`` (official rule, floating point included).

    Index i is ``int(i * step)`` with ``step = (total - 1) / (count - 1)``; with ``count == 1`` the single
    index is 0. The last index can fall one short of ``total - 1`` (120 frames, 50 picks: 49 * (119 / 49) is
    118.99999999999999, so index 118), exactly as in the official loader.
    """
    step = (total - 1) / (count - 1) if count > 1 else 0.0
    return [int(i * step) for i in range(count)]


def allocate_frames(lengths: Sequence[int], budget: int) -> list[list[int]]:
    """Choose frame indices per video, proportionally to the videos' frame counts.

    Args:
        lengths: number of annotation frames of each video, in order (each >= 1).
        budget: the setting's frame budget (50 for Uniform-50, 300 for Sufficient-Coverage).

    Returns:
        For each video, the chosen indices into its own frames, ascending. When all videos together have at
        most ``budget`` frames every frame is kept. Otherwise see the module docstring; a video that the
        even spread misses keeps index 0, so the total may exceed ``budget``.

    Raises:
        ValueError: a video without frames, or a budget below 1.
    """
    if budget < 1:
        raise ValueError(f"frame budget must be >= 1, got {budget}")
    if any(n < 1 for n in lengths):
        raise ValueError(f"every video needs at least one frame, got lengths {list(lengths)}")
    total = sum(lengths)
    if total <= budget:
        return [list(range(n)) for n in lengths]
    return _per_video(even_indices(total, budget), lengths)


def consecutive_frames(lengths: Sequence[int], count: int, start: int) -> list[list[int]]:
    """Choose ``count`` consecutive frames of the videos played one after another, from frame ``start``.

    The local segment of MMSI-Video-Bench Sec. 5 / Fig. 5, one per question (not one per video).

    Args:
        lengths: number of annotation frames of each video, in order (each >= 1).
        count: frames in the segment (N).
        start: index of its first frame in the joined sequence (S).

    Returns:
        For each video, the chosen indices into its own frames, ascending. A start too late for ``count``
        frames is moved back so that they fit (the last ``count`` frames); with fewer frames than ``count``
        every frame is kept. A video the segment misses keeps index 0 (the official rescue rule).

    Raises:
        ValueError: a video without frames, a count below 1 or a negative start.
    """
    if count < 1 or start < 0:
        raise ValueError(f"a consecutive segment needs count >= 1 and start >= 0, got {count} and {start}")
    if any(n < 1 for n in lengths):
        raise ValueError(f"every video needs at least one frame, got lengths {list(lengths)}")
    total = sum(lengths)
    first = max(0, min(start, total - count))
    return _per_video(list(range(first, min(first + count, total))), lengths)


def _per_video(picks: Sequence[int], lengths: Sequence[int]) -> list[list[int]]:
    """Split indices into the joined frames among the videos; a video given none keeps its first frame."""
    chosen: list[list[int]] = []
    offset = 0
    for n in lengths:
        own = [k - offset for k in picks if offset <= k < offset + n]
        chosen.append(own or [0])
        offset += n
    return chosen


def frame_timestamp(frame_name: str) -> float | None:
    """Seconds from the video start encoded in an official frame file name, or None if it has none.

    ``"01:05.50_frame_2_131.jpg"`` (``{mm:ss.ff}_frame_{base_interval}_{index}``) gives 65.5. Only the last
    path component is read.
    """
    match = _FRAME_NAME.match(PurePosixPath(frame_name).name)
    if match is None:
        return None
    return int(match.group(1)) * 60 + float(match.group(2))


def format_timestamp(seconds: float) -> str:
    """Write seconds in the ``mm:ss.ff`` form the official frame names use (65.5 gives ``"01:05.50"``)."""
    minutes, rest = divmod(round(seconds * 100), 6000)
    return f"{minutes:02d}:{rest / 100:05.2f}"


def apply_setting(item: Item, setting: str) -> Item:
    """Cut each video's frame list of ``item`` to the frames a setting shows.

    Args:
        item: an item from :func:`~spatialbench.benchmarks.mmsi_video.loader.load_mmsi_video`.
        setting: ``uniform-50``, ``sufficient-coverage`` (or ``uniform-N``, or ``consecutive-N@S``: the local
            segment of Fig. 5, :func:`consecutive_frames`).

    Returns:
        A copy whose ``FRAMES`` media hold only the chosen frames (and their timestamps); reference images
        are unchanged. ``metadata["setting"]`` records the setting.

    Raises:
        ValueError: unknown setting.
    """
    lengths = [len(m.frames) for m in item.media if m.kind is MediaKind.FRAMES]
    segment = _CONSECUTIVE.match(setting.strip().lower().replace("_", "-"))
    if segment is not None:
        chosen = iter(consecutive_frames(lengths, int(segment.group(1)), int(segment.group(2))))
    else:
        chosen = iter(allocate_frames(lengths, frame_budget(setting)))
    media = tuple(_narrow(m, next(chosen)) if m.kind is MediaKind.FRAMES else m for m in item.media)
    return item.model_copy(update={"media": media, "metadata": {**item.metadata, "setting": setting}})


def _narrow(video: MediaRef, indices: list[int]) -> MediaRef:
    stamps = tuple(video.timestamps[k] for k in indices) if video.timestamps else ()
    return video.model_copy(update={"frames": tuple(video.frames[k] for k in indices), "timestamps": stamps})
