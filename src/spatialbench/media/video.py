"""Video decoding with PyAV: exact frames by index, decoded straight through.

A keyframe seek lands on the keyframe before the wanted time, so picking frame *i* after a seek needs
care and is wrong for streams with B-frames or odd timestamps. We instead (1) demux the packets without
decoding to learn every frame's presentation time, (2) pick indices with the sampling strategy, then
(3) decode from the start, converting only the wanted frames to RGB, and stop after the last one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from spatialbench.media.errors import MediaError
from spatialbench.media.image import resize_to_max_pixels
from spatialbench.media.sampling import FrameStrategy, within_segment


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

    @property
    def nbytes(self) -> int:
        """Memory held by the pixels."""
        return sum(p.nbytes for p in self.pixels)


def _open(path: str):  # type: ignore[no-untyped-def]
    import av

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


def probe_timestamps(path: str) -> NDArray[np.float64]:
    """Return the presentation time (seconds, relative to the first frame) of every frame, by demuxing only.

    Raises:
        MediaError: missing, unreadable or corrupt file, or no frames (zero-length video).
    """
    import av

    container = _open(path)
    try:
        stream = container.streams.video[0]
        base = stream.time_base
        pts = [p.pts for p in container.demux(stream) if p.size > 0 and p.pts is not None]
    except av.FFmpegError as exc:
        raise MediaError(path, f"corrupt video ({exc})") from exc
    finally:
        container.close()
    if not pts:
        raise MediaError(path, "video has no frames (zero-length)")
    times = np.sort(np.asarray(pts, dtype=np.float64)) * float(base)
    return times - times[0]


def decode_indices(path: str, indices: NDArray[np.int64]) -> list[NDArray[np.uint8]]:
    """Decode the frames with the given increasing presentation-order ``indices`` as RGB arrays.

    Raises:
        MediaError: corrupt stream, fewer frames than indexed, or a rotation in the display matrix
            (frames would be shown turned; re-encode the video upright).
    """
    import av

    wanted = {int(i) for i in indices}
    last = int(indices[-1])
    frames: dict[int, NDArray[np.uint8]] = {}
    container = _open(path)
    try:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for number, frame in enumerate(container.decode(stream)):
            if number == 0 and frame.rotation:
                raise MediaError(path, f"video is rotated by {frame.rotation:g} degrees (display matrix)")
            if number in wanted:
                frames[number] = frame.to_ndarray(format="rgb24")
            if number >= last:
                break
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
) -> SampledFrames:
    """Sample frames of a video file (optionally of the segment ``[start, end]`` seconds) and resize them.

    Raises:
        MediaError: see :func:`probe_timestamps` and :func:`decode_indices`; also no frame in the segment.
    """
    times = probe_timestamps(path)
    candidates = within_segment(times, start, end)
    chosen = candidates[strategy.select(times[candidates])]
    if len(chosen) == 0:
        raise MediaError(path, f"no frames selected by {strategy.name} in segment [{start}, {end}] s")
    pixels = decode_indices(path, chosen)
    return SampledFrames(
        tuple(resize_to_max_pixels(p, max_pixels) for p in pixels), chosen, times[chosen], path
    )
