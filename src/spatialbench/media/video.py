"""Video decoding with PyAV: exact frames by index, decoded straight through.

A keyframe seek lands on the keyframe before the wanted time, so counting frames after a seek picks the
wrong frame. We (1) demux the packets without decoding to learn every frame's presentation timestamp,
(2) pick indices with the sampling strategy, then (3) decode straight through from the start when the
first frame is wanted (``uniform:N`` always includes it), or else seek to the keyframe before the first
wanted frame; frames are identified by timestamp, non-reference frames nobody wants are not decoded,
only wanted frames are converted to RGB and decoding stops after the last one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spatialbench.errors import SpatialBenchError
from spatialbench.media.errors import MediaError
from spatialbench.media.image import resize_to_max_pixels
from spatialbench.media.relevance import FrameScores
from spatialbench.media.sampling import FrameStrategy, StrategyError, extent, within_segment
from spatialbench.media.visibility import find_visibility


@dataclass(frozen=True)
class SampledFrames:
    """Frames chosen from one media source.

    Attributes:
        pixels: RGB frames, each (H, W, 3) uint8, in temporal order.
        indices: frame numbers in the source (shape (k,), int64).
        timestamps: presentation times in seconds (shape (k,), float64; frame numbers for untimed folders).
        source: the file or folder they came from.
    """

    pixels: tuple[NDArray[np.uint8], ...]
    indices: NDArray[np.int64]
    timestamps: NDArray[np.float64]
    source: str

    def __post_init__(self) -> None:
        # frames are shared by every request about this media (frame cache, encoded-image cache): read-only
        for pixels in self.pixels:
            pixels.setflags(write=False)

    @property
    def nbytes(self) -> int:
        """Memory held by the pixels."""
        return sum(p.nbytes for p in self.pixels)


def _open(path: str):  # type: ignore[no-untyped-def]
    import av

    if os.path.isfile(path) and os.path.getsize(path) == 0:  # FFmpeg's own words for it are cryptic
        raise MediaError(path, "empty file (0 bytes)")
    try:
        container = av.open(path)
    except FileNotFoundError:
        raise MediaError(path, "video file not found") from None
    except (av.FFmpegError, OSError) as exc:
        raise MediaError(path, f"cannot open video ({exc})") from exc
    if not container.streams.video:
        container.close()
        raise MediaError(path, "no video stream")
    return container


def probe_pts(path: str) -> tuple[NDArray[np.int64], float]:
    """Return every frame's presentation timestamp (sorted, stream time-base units) and the time base.

    Demuxes only; nothing is decoded.

    Raises:
        MediaError: missing, unreadable or corrupt file, or no frames (zero-length video).
    """
    import av

    container = _open(path)
    try:
        stream = container.streams.video[0]
        base = float(stream.time_base)
        pts = [p.pts for p in container.demux(stream) if p.size > 0 and p.pts is not None]
    except av.FFmpegError as exc:
        raise MediaError(path, f"corrupt video ({exc})") from exc
    finally:
        container.close()
    if not pts:
        raise MediaError(path, "video has no frames (zero-length)")
    return np.sort(np.asarray(pts, dtype=np.int64)), base


def display_rotation(path: str) -> float:
    """Return the rotation (degrees) of the video's display matrix, 0 for an upright video.

    Decodes the first frame only (the matrix travels as frame side data).

    Raises:
        MediaError: missing, unreadable or corrupt file, or no frame decodes.
    """
    import av

    container = _open(path)
    try:
        frame = next(container.decode(container.streams.video[0]), None)
    except av.FFmpegError as exc:
        raise MediaError(path, f"corrupt video ({exc})") from exc
    finally:
        container.close()
    if frame is None:
        raise MediaError(path, "video has no frames (zero-length)")
    return float(frame.rotation or 0)


def probe_timestamps(path: str) -> NDArray[np.float64]:
    """Return the presentation time (seconds, from the first frame) of every frame; see :func:`probe_pts`."""
    pts, base = probe_pts(path)
    return (pts - pts[0]).astype(np.float64) * base


class _Unidentified(SpatialBenchError):
    """A frame after a seek whose timestamp is not in the probe (cannot tell which frame it is)."""


def _numbered(frames: Iterator[Any], pts: NDArray[np.int64] | None) -> Iterator[tuple[int, Any]]:
    """Yield (frame number, frame): by counting from the start, or (after a seek) by looking up their pts."""
    if pts is None:
        yield from enumerate(frames)
        return
    number_of = {int(p): k for k, p in enumerate(pts)}
    for frame in frames:
        if frame.pts is None or int(frame.pts) not in number_of:
            raise _Unidentified
        yield number_of[int(frame.pts)], frame


def _decoded(container: Any, stream: Any, wanted_pts: set[int] | None) -> Iterator[Any]:
    """Yield the decoded frames of ``stream``; with ``wanted_pts``, unwanted non-reference frames are skipped.

    A non-reference frame (an h264 B-frame no other frame is predicted from) can be left undecoded
    without changing any other frame, so each packet is decoded with FFmpeg's ``skip_frame="NONREF"``
    unless its presentation timestamp is wanted: the demo's videos decode 271 of their 480 frames
    (~40 % less decoding CPU), and the frames returned are the same bytes.
    """
    context = stream.codec_context
    for packet in container.demux(stream):
        if wanted_pts is not None:  # the flush packet (no pts) decodes normally
            skip = packet.pts is not None and packet.pts not in wanted_pts
            context.skip_frame = "NONREF" if skip else "DEFAULT"
        yield from context.decode(packet)


def decode_indices(
    path: str, indices: NDArray[np.int64], pts: NDArray[np.int64] | None = None
) -> list[NDArray[np.uint8]]:
    """Decode the frames with the given increasing presentation-order ``indices`` as RGB arrays.

    Only wanted frames are converted to RGB, and decoding stops after the last one. With the probe's
    ``pts``, frames are identified by timestamp (not by counting), non-reference frames nobody wants are
    skipped (:func:`_decoded`), and when the first wanted frame is not the first frame the decoder first
    seeks to the keyframe before it — never more decoding than from the start. Frames without a known
    timestamp fall back to decoding every frame from the start, counting.

    Raises:
        MediaError: corrupt stream, fewer frames than indexed, or a rotation in the display matrix
            (frames would be shown turned; re-encode the video upright).
    """
    import av

    wanted, first, last = {int(i) for i in indices}, int(indices[0]), int(indices[-1])
    frames: dict[int, NDArray[np.uint8]] = {}
    container = _open(path)
    try:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        if pts is not None and first > 0:
            container.seek(int(pts[first]), stream=stream, backward=True)
        wanted_pts = None if pts is None else {int(pts[i]) for i in wanted}
        for count, (number, frame) in enumerate(_numbered(_decoded(container, stream, wanted_pts), pts)):
            if count == 0 and frame.rotation:
                raise MediaError(path, f"video is rotated by {frame.rotation:g} degrees (display matrix)")
            if number in wanted:
                frames[number] = frame.to_ndarray(format="rgb24")
            if number >= last:
                break
    except _Unidentified:
        return decode_indices(path, indices)
    except av.FFmpegError as exc:
        raise MediaError(path, f"corrupt video ({exc})") from exc
    finally:
        container.close()
    if len(frames) < len(wanted):
        raise MediaError(path, f"decoded {len(frames)} of {len(wanted)} wanted frames (truncated or corrupt)")
    return [frames[int(i)] for i in indices]


def sample_video(
    path: str,
    strategy: FrameStrategy,
    start: float | None = None,
    end: float | None = None,
    max_pixels: int | None = None,
    scores: FrameScores | None = None,
) -> SampledFrames:
    """Sample frames of a video file (optionally of the segment ``[start, end]`` seconds) and resize them.

    ``scores``: the question's relevance of frames, for ``aks:N`` (:mod:`spatialbench.media.relevance`).

    Raises:
        MediaError: see :func:`probe_timestamps` and :func:`decode_indices`; also no frame in the segment.
    """
    pts, base = probe_pts(path)
    times = (pts - pts[0]).astype(np.float64) * base
    candidates = within_segment(times, start, end)
    visible = None
    if strategy.kind == "coverage":
        found = find_visibility(path)
        if found is not None and len(found.frames) != len(times):
            raise MediaError(path, f"visibility has {len(found.frames)} frames, the video {len(times)}")
        visible = None if found is None else [found.frames[i] for i in candidates]
    relevance = None
    if scores is not None:
        relevance = lambda picks: scores(candidates[picks], lambda frames: decode_indices(path, frames, pts))  # noqa: E731
    try:
        chosen = candidates[strategy.select(times[candidates], visible, relevance)]
    except StrategyError as exc:
        raise MediaError(path, str(exc)) from exc
    if len(chosen) == 0:
        raise MediaError(path, f"no frames selected by {strategy.name}: {extent(times, start, end)}")
    pixels = decode_indices(path, chosen, pts)
    return SampledFrames(
        tuple(resize_to_max_pixels(p, max_pixels) for p in pixels), chosen, times[chosen], path
    )
