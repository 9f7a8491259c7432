"""The prompt record a run stores per item: the request as sent, without pixels.

Text verbatim, images by position, and each media by source, frame numbers, times and, for frame folders,
the files sent.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from spatialbench.media.video import SampledFrames
from spatialbench.records.item import Item, MediaKind, MediaRef
from spatialbench.records.messages import ImagePart, Request


def prompt_record(request: Request, media: list[SampledFrames], item: Item) -> dict[str, Any]:
    """Return the request as stored: text verbatim, images by position; media by source and frame numbers.

    A frame folder's record also names the files sent (``files``, relative to its ``source``): the frame
    numbers index the item's frame list, which a loader option may have cut (MMSI-Video-Bench ``setting``).
    """
    parts: list[Any] = []
    image = 0
    for part in request.parts:
        if isinstance(part, ImagePart):
            parts.append({"image": image, "label": part.label, "shape": list(part.pixels.shape)})
            image += 1
        else:
            parts.append(part.text)
    return {
        "system": request.system,
        "parts": parts,
        "media": [_media_record(m, ref) for m, ref in zip(media, _refs(item, media), strict=True)],
        "settings": asdict(request.settings),
    }


def _refs(item: Item, media: list[SampledFrames]) -> list[MediaRef | None]:
    """Return the item's media refs beside the sampled media (None each when they do not pair up)."""
    return list(item.media) if len(item.media) == len(media) else [None] * len(media)


def _media_record(sampled: SampledFrames, ref: MediaRef | None) -> dict[str, Any]:
    record: dict[str, Any] = {"source": sampled.source, "frames": sampled.indices.tolist(),
                              "timestamps": sampled.timestamps.tolist()}
    if ref is not None and ref.kind is MediaKind.FRAMES:
        record["files"] = [ref.frames[k] for k in record["frames"] if 0 <= k < len(ref.frames)]
    return record
