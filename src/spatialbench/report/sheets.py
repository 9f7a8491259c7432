"""Contact sheets of the exact frames a run sent for one item, each tile labelled with its time.

The run store records, per item, each media's frame numbers and timestamps (``prompt["media"]``, in the
item's media order); the frames are decoded again from the benchmark's files — videos by frame number
(presentation order), frame folders and images by file — and tiled in the order sent.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from spatialbench.media.cache import resolve_path
from spatialbench.media.errors import MediaError
from spatialbench.media.image import load_image
from spatialbench.media.video import decode_indices, probe_pts
from spatialbench.records.item import Item, MediaKind, MediaRef

THUMB_WIDTH = 200
COLUMNS = 8


def sent_frames(ref: MediaRef, root: Path, indices: list[int]) -> list[NDArray[np.uint8]]:
    """Decode frames ``indices`` of ``ref`` (video frame numbers or positions in a frame list), in order.

    Raises:
        MediaError: the file cannot be read, or an index is outside the media.
    """
    path = resolve_path(ref, root)
    if ref.kind is MediaKind.VIDEO:
        pts, _ = probe_pts(path)
        if indices and not 0 <= min(indices) <= max(indices) < len(pts):
            raise MediaError(path, f"frame numbers {min(indices)}..{max(indices)} outside {len(pts)} frames")
        unique = sorted(set(indices))
        pixels = decode_indices(path, np.asarray(unique, dtype=np.int64), pts)
        decoded = dict(zip(unique, pixels, strict=True))
        return [decoded[i] for i in indices]
    if ref.kind is MediaKind.FRAMES:
        if any(not 0 <= i < len(ref.frames) for i in indices):
            raise MediaError(path, f"frame positions outside the {len(ref.frames)} listed frames")
        return [load_image(os.path.join(path, ref.frames[i])) for i in indices]
    return [load_image(path)]


class SheetMaker:
    """Writes contact sheets; frames decoded once per (media file, frame numbers) for one report build.

    Items of a scene asked with the same frame strategy share their frames, so a report decodes each
    video about once per run instead of once per item.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._thumbs: dict[tuple[str, tuple[int, ...]], list[Image.Image]] = {}

    def thumbnails(self, ref: MediaRef, frames: list[int]) -> list[Image.Image]:
        """Return frames ``frames`` of ``ref`` as :data:`THUMB_WIDTH`-wide images, in order (decoded once).

        Raises:
            MediaError: the media cannot be decoded or the frame numbers do not fit it.
        """
        key = (resolve_path(ref, self.root) + "\0" + "\0".join(ref.frames), tuple(frames))
        if key not in self._thumbs:
            thumbs = []
            for pixels in sent_frames(ref, self.root, frames):
                height, width = pixels.shape[:2]
                size = (THUMB_WIDTH, max(1, round(height * THUMB_WIDTH / width)))
                thumbs.append(Image.fromarray(np.asarray(pixels)).resize(size))
            self._thumbs[key] = thumbs
        return self._thumbs[key]

    def _tiles(self, item: Item, media: list[dict[str, Any]]) -> list[tuple[Image.Image, str]]:
        tiles: list[tuple[Image.Image, str]] = []
        for number, (ref, sent) in enumerate(zip(item.media, media, strict=False)):
            frames = [int(i) for i in sent.get("frames", [])]
            times = [float(t) for t in sent.get("timestamps", [])]
            if ref.kind is MediaKind.IMAGE:  # a still image: the name the question uses (frame0 ...), no time
                name = ref.name or PurePosixPath(ref.path).stem
                tiles.extend((thumb, name) for thumb in self.thumbnails(ref, frames))
                continue
            prefix = f"v{number + 1} " if len(item.media) > 1 else ""
            for k, thumb in enumerate(self.thumbnails(ref, frames)):
                label = f"{times[k]:.2f} s" if k < len(times) else f"#{frames[k]}"
                tiles.append((thumb, f"{prefix}{label}"))
        return tiles

    def write(self, item: Item, media: list[dict[str, Any]], out: Path) -> Path | None:
        """Write a JPEG grid of the frames sent for ``item`` (``media`` as stored); None when none were sent.

        Raises:
            MediaError: a media file cannot be decoded or the stored frame numbers do not fit it.
        """
        tiles = self._tiles(item, media)
        if not tiles:
            return None
        width, height = THUMB_WIDTH, max(t.height for t, _ in tiles)
        columns = min(COLUMNS, len(tiles))
        rows = -(-len(tiles) // columns)
        sheet = Image.new("RGB", (width * columns, height * rows), "white")
        draw = ImageDraw.Draw(sheet)
        font = ImageFont.load_default(size=13)
        for k, (thumb, label) in enumerate(tiles):
            x, y = (k % columns) * width, (k // columns) * height
            sheet.paste(thumb, (x, y))
            right = x + 8 + int(draw.textlength(label, font=font))
            draw.rectangle((x + 2, y + 2, right, y + 19), fill="black")
            draw.text((x + 5, y + 3), label, fill="yellow", font=font)
        out.parent.mkdir(parents=True, exist_ok=True)
        sheet.save(out, quality=85)
        return out
