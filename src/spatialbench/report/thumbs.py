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

from spatialbench.records.item import Item
from spatialbench.report.sheets import SheetMaker
from spatialbench.runs.transcript import SentImage
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
            source = str(sent.get("source", ""))
            frames = [int(i) for i in sent.get("frames", [])]
            for frame, image in zip(frames, self.maker.thumbnails(ref, frames), strict=True):
                name = hashlib.sha256(f"{source}\0{frame}".encode()).hexdigest()[:20] + ".jpg"
                if name not in self._written:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    image.save(self.folder / name, quality=80)
                    self._written.add(name)
                placed[(source, frame)] = f"../thumbs/{name}"
        return placed


def thumb_of(placed: Placed, image: SentImage) -> Thumb:
    """Return the report's :class:`Thumb` of a sent image (no URL when its frame was not written)."""
    return Thumb(placed.get((image.source, image.frame)), False, image.label, image.time_s)
