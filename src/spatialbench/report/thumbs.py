"""Thumbnails of the frames a run sent, for the transcripts on the report's item pages.

Each frame sent (one media source, one frame number) is written once as ``thumbs/<digest>.jpg``
(:data:`~spatialbench.report.sheets.THUMB_WIDTH` px wide, decoded through the build's
:class:`~spatialbench.report.sheets.SheetMaker`, so a video is decoded once per frame list); items of a
scene that were sent the same frames share the files. The digest hashes the stored source and frame
number, so no local path is written into a page.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.report.sheets import SheetMaker
from spatialbench.runs.transcript import SentImage, sent_images
from spatialbench.views.transcript import Thumb

Placed = dict[tuple[str, int | None], str]
"""(stored source, frame number) → the thumbnail's URL relative to an item page."""


class ThumbWriter:
    """Writes the thumbnails of ``out/thumbs``; :meth:`place` one item's, :meth:`thumb` looks one up."""

    def __init__(self, out: Path, maker: SheetMaker) -> None:
        self.folder = out / "thumbs"
        self.maker = maker
        self._written: set[str] = set()

    def place(self, item: Item, media: list[dict[str, Any]]) -> Placed:
        """Write the thumbnails of the frames sent for ``item``; return where each is.

        ``media``: the stored media records, in the item's media order.

        Raises:
            MediaError: a media file cannot be decoded or the stored frame numbers do not fit it.
        """
        placed: Placed = {}
        for ref, sent in zip(item.media, media, strict=False):
            frames = [int(i) for i in sent.get("frames", [])]
            shown = sent_images({"media": [{**sent, "timestamps": [None] * len(frames)}]})
            thumbs = self.maker.thumbnails(ref, frames)
            for frame, sent_image, image in zip(frames, shown, thumbs, strict=True):
                name = hashlib.sha256(_digested(ref, sent_image, frame).encode()).hexdigest()[:20] + ".jpg"
                if name not in self._written:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    image.save(self.folder / name, quality=80)
                    self._written.add(name)
                placed[(sent_image.source, frame)] = f"../thumbs/{name}"
        return placed


def _digested(ref: MediaRef, image: SentImage, frame: int) -> str:
    """Return what a thumbnail's file name hashes: the frame's own file when known, else source and frame.

    A frame folder's record before it named its files (``files``) gives the folder alone: the item's frame
    list names the file, so two items' frame 0 of one folder are not taken for one frame.
    """
    if ref.kind is MediaKind.FRAMES and image.source == ref.path and 0 <= frame < len(ref.frames):
        return f"{ref.path}\0{ref.frames[frame]}"
    return f"{image.source}\0{frame}"


def thumb_of(placed: Placed, image: SentImage) -> Thumb:
    """Return the report's :class:`Thumb` of a sent image (no URL when its frame was not written)."""
    return Thumb(placed.get((image.source, image.frame)), False, image.label, image.time_s)
