"""Encode real h264 mp4 files whose frames encode their own index (for exact frame-identity checks)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

BLOCK = 32


def indexed_frame(index: int, width: int, height: int) -> NDArray[np.uint8]:
    """A frame whose two top-left blocks store ``index`` in base 16 (levels 16 apart survive h264)."""
    frame = np.full((height, width, 3), 128, dtype=np.uint8)
    frame[:BLOCK, :BLOCK] = (index % 16) * 16 + 8
    frame[:BLOCK, BLOCK : 2 * BLOCK] = (index // 16 % 16) * 16 + 8
    frame[BLOCK : 2 * BLOCK, :BLOCK] = (index // 256 % 16) * 16 + 8
    return frame


def read_index(pixels: NDArray[np.uint8], scale: float = 1.0) -> int:
    """Recover the index written by :func:`indexed_frame` from a frame resized by ``scale``."""

    def level(y: int, x: int) -> int:
        cy, cx = int(y * scale), int(x * scale)
        patch = pixels[max(cy - 2, 0) : cy + 3, max(cx - 2, 0) : cx + 3].astype(float).mean()
        return int(round((patch - 8) / 16))

    half = BLOCK // 2
    return level(half, half) + 16 * level(half, BLOCK + half) + 256 * level(BLOCK + half, half)


def encode_indexed_video(
    path: Path,
    n_frames: int,
    width: int = 640,
    height: int = 480,
    fps: int = 30,
    rotation: float | None = None,
    gop: int | None = None,
) -> Path:
    """Write an h264 mp4 (B-frames on; keyframe every ``gop`` frames, default x264's) of indexed frames."""
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        stream.options = {"crf": "18", "preset": "ultrafast", "bf": "2", **({"g": str(gop)} if gop else {})}
        if rotation is not None:
            stream.set_display_rotation(rotation)
        for i in range(n_frames):
            frame = av.VideoFrame.from_ndarray(indexed_frame(i, width, height), format="rgb24")
            frame.pts = i
            frame.time_base = Fraction(1, fps)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path
