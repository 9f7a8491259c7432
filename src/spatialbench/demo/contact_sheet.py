"""Contact sheet: a grid of frames sampled uniformly from a video, each labelled with its time."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from spatialbench.media import parse_strategy, sample_video


def contact_sheet(video: Path, out: Path, frames: int = 12, columns: int = 4, thumb_width: int = 320) -> Path:
    """Write a JPEG grid of ``frames`` uniformly sampled frames of ``video`` (time in seconds top-left).

    Args:
        video: an mp4 (or any file PyAV decodes).
        out: the JPEG to write; parent folders are created.
        frames: how many frames to sample.
        columns: thumbnails per row.
        thumb_width: thumbnail width in pixels (height keeps the aspect ratio).

    Returns:
        ``out``.

    Raises:
        MediaError: the video cannot be decoded.
    """
    sampled = sample_video(str(video), parse_strategy(f"uniform:{frames}"))
    height, width = sampled.pixels[0].shape[:2]
    thumb = (thumb_width, round(height * thumb_width / width))
    rows = -(-len(sampled.pixels) // columns)
    sheet = Image.new("RGB", (thumb[0] * columns, thumb[1] * rows), "white")
    draw = ImageDraw.Draw(sheet)
    for k, (pixels, seconds) in enumerate(zip(sampled.pixels, sampled.timestamps, strict=True)):
        x, y = (k % columns) * thumb[0], (k // columns) * thumb[1]
        sheet.paste(Image.fromarray(np.asarray(pixels)).resize(thumb), (x, y))
        draw.text((x + 4, y + 4), f"{seconds:.1f} s", fill="yellow")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(f".{out.name}.part")  # renamed when complete: never a truncated sheet
    try:
        sheet.save(partial, format="JPEG", quality=85)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return out
