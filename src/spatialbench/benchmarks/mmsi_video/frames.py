"""MMSI-Video-Bench frame settings and the multi-video proportional frame allocation.

Both settings (MMSI-Video-Bench Sec. 4.1) choose among the annotation frames of ``frames_list``:

* ``uniform-50``: at most 50 frames, spread uniformly over all of a question's videos;
* ``sufficient-coverage``: all annotation frames, at most 300 (the official ``MAX_LENGTH``).

The allocation is the official loader's rule: one even spread of ``budget`` indices over the concatenated
frames of all videos (index ``int(i * (N - 1) / (budget - 1))``), each index going to the video it falls in;
a video that receives none keeps its first frame. A short video is therefore never dropped, and the total can
exceed the budget by the number of videos rescued this way (200, 3 and 200 frames with a budget of 10 give 5,
1 and 5 frames).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from pathlib import PurePosixPath

from spatialbench.records.item import Item, MediaKind, MediaRef

#: the Sufficient-Coverage cap on the number of frames (official ``MAX_LENGTH``)
SUFFICIENT_COVERAGE_MAX_FRAMES = 300

_UNIFORM = re.compile(r"^uniform-(\d+)$")
# official frame file names: "{mm:ss.ff}_frame_{base_interval}_{index}.<ext>"
_FRAME_NAME = re.compile(r"^(\d+):(\d+(?:\.\d+)?)_frame_")


class FrameSetting(StrEnum):
    """The two evaluation tracks of MMSI-Video-Bench (Sec. 4.1)."""

    UNIFORM_50 = "uniform-50"
    SUFFICIENT_COVERAGE = "sufficient-coverage"


def frame_budget(setting: str) -> int:
    """Return the frame budget of a setting name: ``uniform-N`` gives N, ``sufficient-coverage`` gives 300.

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
    match = _UNIFORM.match(key)
    if match and int(match.group(1)) > 0:
        return int(match.group(1))
    raise ValueError(f"unknown MMSI-Video-Bench frame setting {setting!r}; known: {known} (or uniform-N)")


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
    picks = even_indices(total, budget)
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
        setting: ``uniform-50``, ``sufficient-coverage`` (or ``uniform-N``).

    Returns:
        A copy whose ``FRAMES`` media hold only the chosen frames (and their timestamps); reference images
        are unchanged. ``metadata["setting"]`` records the setting.

    Raises:
        ValueError: unknown setting.
    """
    videos = [m for m in item.media if m.kind is MediaKind.FRAMES]
    chosen = iter(allocate_frames([len(v.frames) for v in videos], frame_budget(setting)))
    media = tuple(_narrow(m, next(chosen)) if m.kind is MediaKind.FRAMES else m for m in item.media)
    return item.model_copy(update={"media": media, "metadata": {**item.metadata, "setting": setting}})


def _narrow(video: MediaRef, indices: list[int]) -> MediaRef:
    stamps = tuple(video.timestamps[k] for k in indices) if video.timestamps else ()
    return video.model_copy(update={"frames": tuple(video.frames[k] for k in indices), "timestamps": stamps})
